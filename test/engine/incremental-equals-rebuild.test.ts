import fc from 'fast-check';
import { openHarness } from './harness';
import type { MemoryEngine } from '../../shared/engine';

/**
 * The central invariant: after any sequence of create / modify / rename / delete, delivered as vault events
 * with debouncing, the engine's state equals a full rebuild from the same files.
 */
const WORDS = ['river', 'stone', 'memory', 'agent', 'latency', 'pool', 'cache', 'index', 'graph', 'decay'];
const NAMES = ['a', 'b', 'c', 'd', 'e', 'f'];
const FOLDERS = ['', 'project/x/', 'agent/y/'];

type Op =
  | { op: 'create' | 'modify'; name: number; folder: number; words: number[]; link: number }
  | { op: 'rename'; name: number; toName: number; toFolder: number }
  | { op: 'delete'; name: number }
  | { op: 'wait'; ms: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constantFrom('create' as const, 'modify' as const), name: fc.nat(5), folder: fc.nat(2), words: fc.array(fc.nat(9), { minLength: 1, maxLength: 6 }), link: fc.nat(6) }),
  fc.record({ op: fc.constant('rename' as const), name: fc.nat(5), toName: fc.nat(5), toFolder: fc.nat(2) }),
  fc.record({ op: fc.constant('delete' as const), name: fc.nat(5) }),
  fc.record({ op: fc.constant('wait' as const), ms: fc.constantFrom(50, 400) }),
);

async function snapshot(engine: MemoryEngine) {
  const notes = engine.services.notes.notes().map((n) => n.path).sort();
  const links = Object.fromEntries(notes.map((p) => [p, engine.services.notes.links(p).map((l) => l.targetPath)]));
  const backlinks = Object.fromEntries(notes.map((p) => [p, engine.services.notes.backlinks(p)]));
  const registry = engine.services.learning.memory.nodes.live().map((n) => n.path).sort();
  const frames = Object.fromEntries(notes.map((p) => [p, engine.services.notes.note(p)!.cached.frame]));
  const search: Record<string, { path: string; score: number }[]> = {};
  for (const w of WORDS.slice(0, 5)) {
    search[w] = (await engine.services.search.search(w, { mode: 'hybrid', k: 10 })).map((h) => ({ path: h.path, score: Number(h.score.toFixed(6)) }));
  }
  return { notes, links, backlinks, registry, frames, search };
}

test('incremental index == full rebuild after random create/modify/rename/delete sequences', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
      const h = await openHarness({});
      await h.engine.reconcile();
      h.engine.startWatching();
      const pathOf = (name: number) => h.vault.paths().find((p) => p.endsWith(`/${NAMES[name]}.md`) || p === `${NAMES[name]}.md`);
      for (const o of ops) {
        if (o.op === 'wait') h.clock.advance(o.ms);
        else if (o.op === 'delete') {
          const p = pathOf(o.name);
          if (p) await h.vault.delete(p);
        } else if (o.op === 'rename') {
          const p = pathOf(o.name);
          const to = `${FOLDERS[o.toFolder]}${NAMES[o.toName]}.md`;
          if (p && !pathOf(o.toName)) await h.vault.rename(p, to);
        } else {
          const existing = pathOf(o.name);
          const text = o.words.map((w) => WORDS[w]).join(' ');
          // Half the notes have a frame (analogy scout), derived at indexing like the rest.
          const framed = o.words[0] % 2 === 0 ? `\n\n## Problem\n- ${text}\n## Fix\n- ${[...o.words].reverse().map((w) => WORDS[w]).join(' ')}` : '';
          const body = `${text}${framed}\n\nSee [[${NAMES[o.link] ?? 'missing'}]].`;
          await h.vault.write(existing ?? `${FOLDERS[o.folder]}${NAMES[o.name]}.md`, body);
        }
      }
      await h.engine.settle();
      const incremental = await snapshot(h.engine);

      const fresh = await openHarness({}, { vault: h.vault });
      await fresh.engine.reconcile();
      const rebuilt = await snapshot(fresh.engine);
      expect(incremental).toEqual(rebuilt);
    }),
    { numRuns: 40, seed: 20261122 },
  );
});
