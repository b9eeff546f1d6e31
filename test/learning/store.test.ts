import { MemoryStore } from '../../shared/stores/memory-store';
import { MEMORY_SCHEMA } from '../../shared/stores/schema';
import { env } from '../stores/helpers';

/** What the learning layer added to memory.sqlite: use_count on node_stats and journaled learning marks. */

test('a store written before use_count existed gains the column on open, with its stats intact', async () => {
  const e = await env();
  // The node_stats table as it shipped before use_count.
  const old = new e.sql.Database();
  old.exec(MEMORY_SCHEMA.ddl.replace(/,\s*use_count INTEGER NOT NULL DEFAULT 0/, ''));
  old.run("INSERT INTO meta (key, value) VALUES ('schema_version', ?)", [String(MEMORY_SCHEMA.version)]);
  old.run("INSERT INTO node_stats (node_id, salience, spaced_rep_strength) VALUES ('n1', 0.7, 1.2)");
  expect((old.exec('PRAGMA table_info(node_stats)')[0].values as unknown[][]).map((r) => r[1])).not.toContain('use_count');
  await e.blobs.writeAtomic(MEMORY_SCHEMA.file, old.export());
  old.close();

  const { store, warnings } = await MemoryStore.open(e);
  expect(warnings).toEqual([]);
  expect(store.stats.get('n1')).toMatchObject({ salience: 0.7, spaced_rep_strength: 1.2, use_count: 0 });
  await store.stats.update('n1', { use_count: 3 });
  await store.close();
  // Reopening (column present now) adds nothing twice.
  const again = await MemoryStore.open(e);
  expect(again.store.stats.get('n1').use_count).toBe(3);
  await again.store.close();
});

test('a schema-1 store loses node_stats.decay_rate on open (migration to 2) and restarts spaced repetition at the first interval; the rest intact', async () => {
  const e = await env();
  // memory.sqlite as schema 1 shipped it: node_stats with decay_rate, which nothing read.
  const old = new e.sql.Database();
  old.exec(MEMORY_SCHEMA.ddl.replace('misleading_count INTEGER NOT NULL DEFAULT 0,', 'misleading_count INTEGER NOT NULL DEFAULT 0,\n  decay_rate REAL NOT NULL,'));
  old.run("INSERT INTO meta (key, value) VALUES ('schema_version', '1')");
  old.run("INSERT INTO node_stats (node_id, salience, decay_rate, spaced_rep_strength, use_count) VALUES ('n1', 0.7, 0.01, 2.5, 3)");
  await e.blobs.writeAtomic(MEMORY_SCHEMA.file, old.export());
  old.close();

  const { store, warnings } = await MemoryStore.open(e);
  expect(warnings).toEqual([]);
  // 2.5 was the old fading bonus (1 + 0.05 per use), not an interval in days.
  expect(store.stats.get('n1')).toEqual(expect.objectContaining({ salience: 0.7, spaced_rep_strength: 1, use_count: 3 }));
  expect(store.stats.get('n1')).not.toHaveProperty('decay_rate');
  await store.stats.update('n2', { salience: 0.9 });
  await store.close();

  const again = await MemoryStore.open(e);
  expect(again.store.stats.get('n2').salience).toBe(0.9);
  await again.store.close();
  const bytes = (await e.blobs.read(MEMORY_SCHEMA.file))!;
  const db = new e.sql.Database(bytes);
  expect((db.exec('PRAGMA table_info(node_stats)')[0].values as unknown[][]).map((r) => r[1])).not.toContain('decay_rate');
  expect(db.exec("SELECT value FROM meta WHERE key = 'schema_version'")[0].values[0][0]).toBe(String(MEMORY_SCHEMA.version));
  db.close();
});

test('learning marks survive a restart through the journal alone', async () => {
  const e = await env();
  const { store } = await MemoryStore.open(e);
  expect(store.learned.mark('decay:last')).toBeNull();
  await store.learned.setMark('decay:last', { at: 42 });
  await store.learned.setMark('feedback:r1', { at: 7, agent: 'a' });
  // No snapshot: only the journal holds the marks.
  const reopened = await MemoryStore.open(e);
  expect(reopened.store.learned.mark('decay:last')).toEqual({ at: 42 });
  expect(reopened.store.learned.mark('feedback:r1')).toEqual({ at: 7, agent: 'a' });
  await reopened.store.close();
});
