import fc from 'fast-check';
import { labelWords } from '../../shared/model/tags';
import type { LiveNote } from '../../shared/vault/note-indexer';
import { NoteWords } from '../../shared/vault/note-words';

/**
 * The tags scout's word lookup (vault/note-words.ts) is built from the indexer's notes at the first lookup,
 * then kept per changed note as the indexer's byId map is: a note replaces the one its node id held; letting
 * go of a note its id no longer names changes nothing. Whatever the sequence, and whenever the first lookup
 * came, every word's notes equal a rebuild over the notes held now.
 */

const LABELS = ['project/lithos', 'Lithos', 'pool-size', 'Pool Manager', 'a/b', 'x', 'café', 'CAFÉ'];
const TYPES = ['observation', 'concept', 'lithos'];
const IDS = ['n1', 'n2', 'n3', 'n4'];

type Op =
  | { op: 'set'; id: number; tags: number[]; entities: number[]; type: number }
  | { op: 'delete'; id: number; stale: boolean }
  | { op: 'lookup'; word: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('set' as const),
    id: fc.nat(IDS.length - 1),
    tags: fc.array(fc.nat(LABELS.length - 1), { maxLength: 3 }),
    entities: fc.array(fc.nat(LABELS.length - 1), { maxLength: 3 }),
    type: fc.nat(TYPES.length - 1),
  }),
  fc.record({ op: fc.constant('delete' as const), id: fc.nat(IDS.length - 1), stale: fc.boolean() }),
  fc.record({ op: fc.constant('lookup' as const), word: fc.nat(20) }),
);

function note(id: string, tags: string[], entities: string[], noteType: string): LiveNote {
  return { nodeId: id, path: `${id}.md`, cached: { meta: { tags, entities, note_type: noteType } } } as unknown as LiveNote;
}

function rebuilt(held: ReadonlyMap<string, LiveNote>, word: string): string[] {
  return [...held.values()]
    .filter((n) => {
      const m = n.cached.meta;
      return [...m.tags, ...m.entities].some((l) => labelWords(l).includes(word)) || m.note_type === word;
    })
    .map((n) => n.nodeId)
    .sort();
}

test('kept per changed note == rebuilt over the notes held now', () => {
  const words = [...new Set([...LABELS.flatMap(labelWords), ...TYPES, 'manager', 'nothing'])];
  fc.assert(
    fc.property(fc.array(opArb, { maxLength: 30 }), (ops) => {
      // The indexer's byId, and its words, in step (NoteIndexer.remember / forget).
      const held = new Map<string, LiveNote>();
      const index = new NoteWords(held);
      const earlier: LiveNote[] = [];
      for (const o of ops) {
        if (o.op === 'lookup') {
          const w = words[o.word % words.length];
          expect([w, [...index.with(w)].sort()]).toEqual([w, rebuilt(held, w)]);
        } else if (o.op === 'set') {
          const id = IDS[o.id];
          const n = note(id, o.tags.map((t) => LABELS[t]), o.entities.map((e) => LABELS[e]), TYPES[o.type]);
          const before = held.get(id);
          if (before) earlier.push(before);
          held.set(id, n);
          index.set(n);
        } else if (o.stale) {
          // A note the id no longer names (the indexer's forget of an older row): nothing changes.
          const old = earlier.find((n) => n.nodeId === IDS[o.id]);
          if (old) index.delete(old);
        } else {
          const n = held.get(IDS[o.id]);
          if (n) {
            held.delete(IDS[o.id]);
            index.delete(n);
          }
        }
      }
      for (const w of words) expect([w, [...index.with(w)].sort()]).toEqual([w, rebuilt(held, w)]);
    }),
    { numRuns: 300, seed: 20261127 },
  );
});

test('splits labels as the tags scout matches them: path segments and words, lowercase, one letter dropped', () => {
  const n1 = note('n1', ['project/lithos', 'x'], ['Pool Manager'], 'observation');
  const index = new NoteWords(new Map([['n1', n1]]));
  expect([...index.with('lithos')]).toEqual(['n1']);
  expect([...index.with('manager')]).toEqual(['n1']);
  expect([...index.with('observation')]).toEqual(['n1']);
  expect([...index.with('x')]).toEqual([]);
  expect([...index.with('Lithos')]).toEqual([]);
});
