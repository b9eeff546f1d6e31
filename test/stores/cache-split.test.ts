import { splitCacheParts, splitCachePartsInSlices } from '../../shared/stores/cache-codec';
import { CacheTables, GLOBAL, SHARDS, shardOf, type StoredNote } from '../../shared/stores/cache-tables';

function row(i: number, hash = 'h'): StoredNote {
  return { path: `n${i}.md`, node_id: `id-${i}`, content_hash: hash, mtime: 1, size: 1, meta: new TextEncoder().encode('{}'), indexed_at: 1 };
}

function tablesWith(n: number): CacheTables {
  const t = new CacheTables();
  for (let i = 0; i < n; i++) t.setNote(`n${i}.md`, row(i));
  t.appendTerms(['otter', 'river']);
  return t;
}

const ALL = [GLOBAL, ...Array.from({ length: SHARDS }, (_, k) => k)];

describe('a cache snapshot sorts its records into parts in slices', () => {
  it('gives the host turns on a big cache and yields the same parts as the one-pass split', async () => {
    const t = tablesWith(6000);
    let turns = 0;
    const sliced = await splitCachePartsInSlices(t, ALL, async () => void turns++);
    expect(turns).toBeGreaterThan(1);
    const whole = splitCacheParts(t, ALL);
    for (const part of ALL) expect(sliced.get(part)).toEqual(whole.get(part));
    expect(sliced.get(GLOBAL)!.terms).toEqual(['otter', 'river']);
    expect([...sliced.values()].reduce((n, p) => n + p.notes.length, 0)).toBe(6000);
  });

  it('describes the tables as they were when it started: a change made during a turn waits for the next snapshot', async () => {
    const t = tablesWith(6000);
    t.dirty.clear();
    let changed = false;
    const parts = await splitCachePartsInSlices(t, ALL, async () => {
      if (changed) return;
      changed = true;
      t.setNote('n7.md', row(7, 'edited'));
      t.setNote('new.md', { ...row(9999), path: 'new.md' });
    });
    const shard = parts.get(shardOf('id-7'))!;
    expect(shard.notes.find((n) => n.path === 'n7.md')!.content_hash).toBe('h');
    expect([...parts.values()].some((p) => p.notes.some((n) => n.path === 'new.md'))).toBe(false);
    expect(t.dirty.has(shardOf('id-7'))).toBe(true);
    expect(t.dirty.has(shardOf('id-9999'))).toBe(true);
  });
});
