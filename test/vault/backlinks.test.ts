import fc from 'fast-check';
import { LinkResolver } from '../../shared/model/resolve';
import type { NoteLink } from '../../shared/model/types';
import { LinkGraph } from '../../shared/vault/link-graph';
import type { LiveNote } from '../../shared/vault/note-indexer';

/**
 * Backlinks are kept per changed note (vault/backlinks.ts). Whatever notes come, change, move or go — and
 * whether backlinks were read in between or not — they must equal a rebuild from scratch: every note's links
 * resolved against the notes present now.
 */

const ID = '3f2b1c9e-1234-4abc-8def-0123456789ab';
const FOLDERS = ['', 'p/', 'p/q/', 'P/'];
const NAMES = ['a', 'b', 'A', 'Plan', 'café', 'cafe\u0301'];
const WORDS = ['a', 'b', 'plan', 'Plan', 'x', 'Plan.md', '../a'];
/** Link targets of every kind the resolver has a step for: names, paths, relative, absolute, aliases, ids, titles, self. */
const TARGETS = ['a', 'A', 'b', 'Plan', 'plan.md', 'p/a', 'q/a', 'p/q/Plan', '/p/a', './a', '../a', '../../b', 'P/b', 'café', 'Café.md', 'x', 'plan', ID, ID.toUpperCase(), '', ' ', 'gone', 'p\\a'];

interface Info {
  links: number[];
  aliases: number[];
  title: number | null;
  id: boolean;
}

type Op =
  | { op: 'write'; folder: number; name: number; info: Info }
  | { op: 'rename'; from: number; folder: number; name: number }
  | { op: 'delete'; at: number }
  | { op: 'read'; at: number };

const infoArb: fc.Arbitrary<Info> = fc.record({
  links: fc.array(fc.nat(TARGETS.length - 1), { maxLength: 4 }),
  aliases: fc.array(fc.nat(WORDS.length - 1), { maxLength: 2 }),
  title: fc.option(fc.nat(WORDS.length - 1)),
  id: fc.boolean(),
});
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('write' as const), folder: fc.nat(FOLDERS.length - 1), name: fc.nat(NAMES.length - 1), info: infoArb }) },
  fc.record({ op: fc.constant('rename' as const), from: fc.nat(20), folder: fc.nat(FOLDERS.length - 1), name: fc.nat(NAMES.length - 1) }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(20) }),
  fc.record({ op: fc.constant('read' as const), at: fc.nat(20) }),
);

function link(target: string): NoteLink {
  return { raw: `[[${target}]]`, target, embed: false, kind: 'wiki', line: 0 };
}

/** The indexer's bookkeeping (NoteIndexer.remember / forget): the path map first, then the resolver. */
class Vault {
  readonly notes = new Map<string, LiveNote>();
  readonly resolver = new LinkResolver();
  private n = 0;

  write(path: string, info: Info): void {
    const meta = { aliases: info.aliases.map((a) => WORDS[a]), title: info.title === null ? null : WORDS[info.title] };
    const note = { nodeId: info.id ? ID : `n${this.n++}`, path, cached: { meta, links: info.links.map((t) => link(TARGETS[t])) } } as unknown as LiveNote;
    this.notes.set(path, note);
    this.resolver.upsert(path, { id: note.nodeId, aliases: meta.aliases, title: meta.title });
  }

  remove(path: string): void {
    this.notes.delete(path);
    this.resolver.remove(path);
  }

  rename(from: string, to: string): void {
    const note = this.notes.get(from)!;
    this.remove(from);
    this.notes.set(to, { ...note, path: to });
    const m = note.cached.meta;
    this.resolver.upsert(to, { id: note.nodeId, aliases: m.aliases, title: m.title });
  }

  /** What LinkGraph.incoming answered before it kept anything: every link resolved now, from scratch. */
  rebuilt(): Map<string, string[]> {
    const map = new Map<string, string[]>();
    for (const [from, note] of this.notes) {
      for (const l of note.cached.links) {
        const to = l.target === '' ? from : this.resolver.resolve(l.target, from);
        if (!to || to === from) continue;
        const list = map.get(to) ?? [];
        if (!list.includes(from)) list.push(from);
        map.set(to, list);
      }
    }
    for (const list of map.values()) list.sort();
    return map;
  }
}

function everyPath(): string[] {
  return FOLDERS.flatMap((f) => NAMES.map((n) => `${f}${n}.md`));
}

function expectRebuilt(graph: LinkGraph, v: Vault): void {
  const expected = v.rebuilt();
  for (const p of everyPath()) expect([p, graph.incoming(p)]).toEqual([p, expected.get(p) ?? []]);
}

/** One op of the sequence; reads compare the graph with a rebuild as they go. */
function apply(o: Op, v: Vault, graph: LinkGraph): void {
  const paths = [...v.notes.keys()];
  const nth = (i: number) => paths[i % Math.max(1, paths.length)];
  if (o.op === 'write') v.write(`${FOLDERS[o.folder]}${NAMES[o.name]}.md`, o.info);
  else if (o.op === 'rename') {
    const to = `${FOLDERS[o.folder]}${NAMES[o.name]}.md`;
    if (nth(o.from) && !v.notes.has(to)) v.rename(nth(o.from), to);
  } else if (o.op === 'delete') {
    if (nth(o.at)) v.remove(nth(o.at));
  } else if (nth(o.at)) expect(graph.incoming(nth(o.at))).toEqual(v.rebuilt().get(nth(o.at)) ?? []);
}

const writeArb = fc.record({ op: fc.constant('write' as const), folder: fc.nat(FOLDERS.length - 1), name: fc.nat(NAMES.length - 1), info: infoArb });

describe('backlinks', () => {
  it('kept per changed note == rebuilt from scratch, after random writes, renames and deletes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(writeArb, { maxLength: 8 }),
        fc.array(opArb, { minLength: 1, maxLength: 40 }),
        fc.constantFrom('lazy', 'built', 'changed while building'),
        fc.boolean(),
        async (before, ops, start, readAll) => {
          const v = new Vault();
          // Notes that exist before the graph does, as at a warm start.
          for (const o of before) v.write(`${FOLDERS[o.folder]}${NAMES[o.name]}.md`, o.info);
          const graph = new LinkGraph(v.notes, v.resolver);
          const rest = [...ops];
          // Built at open one note per slice, the vault changing between slices; or built first; or never.
          if (start === 'changed while building') await graph.build(async () => void (rest.length > 0 && apply(rest.shift()!, v, graph)), 1);
          if (start === 'built') await graph.build(() => Promise.resolve());
          for (const o of rest) {
            apply(o, v, graph);
            // Read after every change (each one updated from the last), or only now and then (changes pile up).
            if (readAll) expectRebuilt(graph, v);
          }
          expectRebuilt(graph, v);
        },
      ),
      { numRuns: 300, seed: 20261127 },
    );
  });

  it('re-resolves only what a change can touch: an edited note, and the links that read its old or new names', () => {
    const v = new Vault();
    v.write('a.md', { links: [2], aliases: [], title: null, id: false }); // a → b
    v.write('b.md', { links: [], aliases: [], title: null, id: false });
    v.write('c.md', { links: [21], aliases: [], title: null, id: false }); // c → gone (broken)
    const graph = new LinkGraph(v.notes, v.resolver);
    expect(graph.incoming('b.md')).toEqual(['a.md']);
    const resolve = jest.spyOn(v.resolver, 'resolveWithKeys');
    v.write('b.md', { links: [0], aliases: [], title: null, id: false }); // b's text changed, not its names
    expect(graph.incoming('a.md')).toEqual(['b.md']);
    expect(resolve.mock.calls.map(([, from]) => from)).toEqual(['b.md']);
    resolve.mockClear();
    v.write('x/gone.md', { links: [], aliases: [], title: null, id: false }); // c's broken link now resolves
    expect(graph.incoming('x/gone.md')).toEqual(['c.md']);
    expect(resolve.mock.calls.map(([, from]) => from)).toEqual(['c.md']);
  });
});
