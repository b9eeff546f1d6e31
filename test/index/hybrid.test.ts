import { SearchIndex } from '../../shared/index/search-index';
import { note, queryVectors, vectorsFor } from './helpers';

describe('SearchIndex: hybrid', () => {
  async function crowded(): Promise<SearchIndex> {
    const idx = await SearchIndex.create();
    for (let i = 0; i < 30; i++) {
      const doc = note(`r${i}`, `Review number ${i}`, `weekly review weekly review of week ${i}: review the weekly goals.`);
      await idx.upsert(doc, vectorsFor(doc));
    }
    const target = note('target', 'Weekly Review', 'Checklist: inbox zero, calendar, open loops, and the next actions list for every project I run.', {
      aliases: ['WR ritual'],
    });
    await idx.upsert(target, vectorsFor(target));
    return idx;
  }

  it('puts a note whose title equals the query first, even when others outscore it', async () => {
    const idx = await crowded();
    const lexical = await idx.search({ text: 'weekly review', mode: 'lexical', k: 50 });
    const plain = lexical.find((h) => h.id === 'target')!;
    expect(plain.lexical).toBeLessThan(1); // BM25 alone does not put it first
    expect(lexical[0].id).not.toBe('target');
    const hits = await idx.search({ text: 'Weekly review', queryVectors: queryVectors('Weekly review'), k: 3 });
    expect(hits[0]).toMatchObject({ id: 'target', score: 1 });
    expect(hits).toHaveLength(3);
  });

  it('does the same for an alias, and when the query has no vectors', async () => {
    const idx = await crowded();
    expect((await idx.search({ text: 'wr ritual', queryVectors: queryVectors('wr ritual'), k: 1 }))[0].id).toBe('target');
    expect((await idx.search({ text: 'WEEKLY  REVIEW!', k: 1 }))[0].id).toBe('target');
  });

  it('still respects filters for an exact-title match', async () => {
    const idx = await crowded();
    const hits = await idx.search({ text: 'weekly review', k: 50, filters: { path_prefix: 'notes/r' } });
    expect(hits.map((h) => h.id)).not.toContain('target');
  });

  it('fuses both sides: a note found only by vectors still ranks, scores stay in [0, 1]', async () => {
    const idx = await SearchIndex.create();
    const a = note('a', 'Alpha', 'migrating databases between engines');
    const b = note('b', 'Beta', 'database migration from mongodb');
    const c = note('c', 'Gamma', 'completely unrelated gardening text');
    for (const d of [a, b, c]) await idx.upsert(d, vectorsFor(d));
    const hits = await idx.search({ text: 'mongodb', queryVectors: queryVectors('migrating databases'), k: 10 });
    expect(hits[0].id).toBe('b');
    const alpha = hits.find((h) => h.id === 'a')!;
    expect(alpha.lexical).toBe(0);
    expect(alpha.vector).toBeGreaterThan(0);
    for (const h of hits) {
      expect(h.score).toBeGreaterThanOrEqual(0);
      expect(h.score).toBeLessThanOrEqual(1);
    }
  });
});

describe('SearchIndex: several embedding spaces', () => {
  const v = (...xs: number[]) => Float32Array.from(xs);
  const unit = (x: Float32Array) => {
    const n = Math.hypot(...x);
    return x.map((y) => y / n);
  };
  const cos = (a: Float32Array, b: Float32Array) => unit(a).reduce((s, y, i) => s + y * unit(b)[i], 0);
  const minmax = (scores: Record<string, number>) => {
    const vals = Object.values(scores);
    const [lo, hi] = [Math.min(...vals), Math.max(...vals)];
    return Object.fromEntries(Object.entries(scores).map(([k, s]) => [k, (s - lo) / (hi - lo)]));
  };

  it('searches every active space, normalises each, and keeps the best per note', async () => {
    const idx = await SearchIndex.create();
    const A = { x: v(1, 0), z: v(1, 1), w: v(0.2, 1) };
    const B = { y: v(0, 0, 1), z: v(0, 1, 1), u: v(1, 0.3, 0.2) };
    const qa = v(1, 0);
    const qb = v(0, 0, 1);
    for (const id of ['x', 'y', 'z', 'w', 'u']) {
      const vectors = new Map<string, Float32Array[]>();
      if (id in A) vectors.set('space-a-2', [A[id as keyof typeof A]]);
      if (id in B) vectors.set('space-b-3', [B[id as keyof typeof B]]);
      await idx.upsert(note(id, id, `text ${id}`), vectors);
    }
    const hits = await idx.search({ text: 'q', mode: 'vector', queryVectors: new Map([['space-a-2', qa], ['space-b-3', qb], ['space-unknown', v(1)]]) });
    const na = minmax(Object.fromEntries(Object.entries(A).map(([k, x]) => [k, cos(x, qa)])));
    const nb = minmax(Object.fromEntries(Object.entries(B).map(([k, x]) => [k, cos(x, qb)])));
    const want: Record<string, number> = {};
    for (const [k, s] of [...Object.entries(na), ...Object.entries(nb)]) want[k] = Math.max(want[k] ?? 0, s);
    // w and u are each the worst of their space: min-max gives them 0, and 0 never outranks a match
    expect(hits.map((h) => h.id).slice(0, 3).sort()).toEqual(['x', 'y', 'z']);
    for (const h of hits) expect(h.vector).toBeCloseTo(want[h.id], 5);
    expect(hits.find((h) => h.id === 'z')!.vector).toBeCloseTo(Math.max(na.z, nb.z), 5);
  });

  it('uses only the spaces a query vector is given for', async () => {
    const idx = await SearchIndex.create();
    await idx.upsert(note('only-a', 'a', 'a'), new Map([['s-a', [v(1, 0)]]]));
    await idx.upsert(note('only-b', 'b', 'b'), new Map([['s-b', [v(0, 1, 0)]]]));
    const hits = await idx.search({ text: 'q', mode: 'vector', queryVectors: new Map([['s-b', v(0, 1, 0)]]) });
    expect(hits.map((h) => h.id)).toEqual(['only-b']);
    expect(await idx.search({ text: 'q', mode: 'vector', queryVectors: new Map([['s-c', v(1)]]) })).toEqual([]);
  });
});
