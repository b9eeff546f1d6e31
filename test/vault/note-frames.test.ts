import { HashingEmbedder } from '../../shared/index/embedders/hashing-embedder';
import { extractFrame } from '../../shared/model/frames';
import type { MemoryEngine } from '../../shared/engine';
import { decodeCachedMetaBytes } from '../../shared/vault/cached-note';
import { note, openHarness } from '../engine/harness';

/** Postmortems on two subjects (an analogy pair), an incident titled by its problem, and a note with no frame. */
const FILES = {
  'db/orders-race.md': note({ title: 'Orders DB race', tags: ['db', 'postmortem'] }, [
    '# Orders DB race',
    '## Problem',
    '- Race condition between two writers corrupted the order total in `orders`',
    '## Actions',
    '- Fixed the race by adding a lock around the read-modify-write, see [[ui/cart-flicker|the UI case]]',
    '## Lessons',
    '- Shared state updated by concurrent writers needs a lock',
  ].join('\n')),
  'ui/cart-flicker.md': note({ title: 'Cart badge flicker', tags: ['ui', 'postmortem'] }, [
    '## Problem',
    '- Race condition between two renders corrupted the badge count',
    '## Actions',
    '- Fixed the race by adding a mutex around the state update',
    // A lone surrogate: the cache stores text as UTF-8, which turns it into U+FFFD.
    '## Lessons',
    '- Shared state updated by concurrent renders needs a mutex \uD83D',
  ].join('\n')),
  'ops/broker.md': note({ title: 'Retry storm after broker failover', tags: ['incident'] }, 'Outcome: queues drained after two hours.'),
  'misc/otters.md': 'Otters hold hands while sleeping.',
};

/** What the frame must be: the extractor run on the text the search index holds (the cached chunks). */
function expectedFrame(engine: MemoryEngine, path: string) {
  const live = engine.services.notes.note(path)!;
  const text = engine.services.search.cache.chunks(live.nodeId).map((c) => c.text).join('\n');
  const m = live.cached.meta;
  return extractFrame(text, [], { tags: m.tags, title: m.title, note_type: m.note_type });
}

function storedFrame(engine: MemoryEngine, path: string) {
  return decodeCachedMetaBytes(engine.services.search.cache.noteRow(path)!.meta)!.frame;
}

describe('note frames are derived when a note is indexed', () => {
  test('each note is stored with the frame of the text the index holds', async () => {
    const h = await openHarness(FILES);
    await h.engine.reconcile();
    for (const path of Object.keys(FILES)) {
      expect(storedFrame(h.engine, path)).toEqual(expectedFrame(h.engine, path));
      expect(h.engine.services.notes.note(path)!.cached.frame).toEqual(expectedFrame(h.engine, path));
    }
    expect(storedFrame(h.engine, 'ui/cart-flicker.md')!.lessons).toEqual(['Shared state updated by concurrent renders needs a mutex \uFFFD']);
    expect(storedFrame(h.engine, 'ops/broker.md')!.problem).toEqual(['Retry storm after broker failover']);
    expect(storedFrame(h.engine, 'misc/otters.md')).toBeNull();
  });

  test('an edit stores the new frame; a warm start loads frames without indexing a note again', async () => {
    const h = await openHarness(FILES);
    await h.engine.reconcile();
    h.engine.startWatching();
    await h.vault.write('misc/otters.md', 'Problem: otters drift apart while asleep.\nFix: they hold hands.');
    await h.engine.settle();
    expect(storedFrame(h.engine, 'misc/otters.md')).toEqual({ problem: ['otters drift apart while asleep.'], constraints: [], actions: ['they hold hands.'], outcome: [], lessons: [] });

    // More notes than the retrieval takes seeds, all closer to the query than the UI postmortem (its analogy).
    for (let i = 0; i < 12; i++) await h.vault.write(`orders/week-${i}.md`, `Orders total for week ${i}: the writers filed ${i} reports.`);
    await h.engine.settle();
    await h.engine.close();

    const warm = await openHarness({}, { vault: h.vault, blobs: h.blobs, clock: h.clock });
    const report = await warm.engine.reconcile();
    expect(report.indexed).toBe(0);
    for (const path of Object.keys(FILES)) expect(warm.engine.services.notes.note(path)!.cached.frame).toEqual(expectedFrame(warm.engine, path));
    const r = await warm.engine.services.retrieval.retrieve({ query_text: 'orders total writers lock', query_class: 'debug' });
    expect(r.scouts.analogy?.hits).toBeGreaterThan(0);
  });

  test('a cache stored without frames (an older Lithos) is indexed again from the notes, vectors reused', async () => {
    const h = await openHarness(FILES);
    await h.engine.reconcile();
    // Rewrite every row as a Lithos before frames wrote it: metadata and links, no frame line, no marker.
    for (const row of h.engine.services.search.cache.allNotes()) {
      const [head, links] = row.meta.split('\n');
      const { frames: _, ...older } = JSON.parse(head) as Record<string, unknown>;
      h.engine.services.search.cache.putNote({ ...row, meta: `${JSON.stringify(older)}\n${links}` }, h.engine.services.search.cache.chunks(row.node_id));
    }
    await h.engine.close();

    const embedded: string[] = [];
    const base = new HashingEmbedder();
    const counting = { spaceId: base.spaceId, dimensions: base.dimensions, embed: async (t: string[]) => (embedded.push(...t), base.embed(t)) };
    const again = await openHarness({}, { vault: h.vault, blobs: h.blobs, clock: h.clock, deps: { embedders: [counting] } });
    const report = await again.engine.reconcile();
    expect(report.indexed).toBe(Object.keys(FILES).length);
    expect(embedded).toEqual([]);
    for (const path of Object.keys(FILES)) expect(storedFrame(again.engine, path)).toEqual(expectedFrame(again.engine, path));
  });
});
