import { MemoryStore, type PrecedentRow } from '../../shared/stores/memory-store';
import { MEMORY_SCHEMA } from '../../shared/stores/schema';
import { env } from '../stores/helpers';
import type { Harness } from '../engine/harness';
import { A, B, C, D, openLearning, retrieveAll } from './fixture';

/** Precedents: used feedback remembers (query terms, used notes, class) durably; the precedent scout reads them. */

const row = (i: number, over: Partial<PrecedentRow> = {}): PrecedentRow => ({
  precedent_id: `r${i}`,
  at: 1000 + i,
  query_class: 'lookup',
  query_text: `question ${i}`,
  agent_id: null,
  terms: ['question', `t${i}`],
  used: [`n${i}`],
  ...over,
});

describe('the precedent store (memory.sqlite)', () => {
  test('precedents survive a restart through the journal alone, newest first', async () => {
    const e = await env();
    const { store } = await MemoryStore.open(e);
    await store.learned.addPrecedent(row(1), 10);
    await store.learned.addPrecedent(row(2, { query_class: 'debug', used: ['a', 'b'] }), 10);
    const reopened = await MemoryStore.open(e);
    expect(reopened.store.learned.precedents()).toEqual([row(2, { query_class: 'debug', used: ['a', 'b'] }), row(1)]);
    await reopened.store.close();
  });

  test('the same precedent id replaces the row; beyond `keep` the oldest are pruned', async () => {
    const e = await env();
    const { store } = await MemoryStore.open(e);
    for (let i = 1; i <= 5; i++) await store.learned.addPrecedent(row(i), 3);
    expect(store.learned.precedents().map((p) => p.precedent_id)).toEqual(['r5', 'r4', 'r3']);
    await store.learned.addPrecedent(row(4, { used: ['changed'] }), 3);
    expect(store.learned.precedents().map((p) => p.precedent_id)).toEqual(['r5', 'r4', 'r3']);
    expect(store.learned.precedents()[1].used).toEqual(['changed']);
    // pruning is journaled too: a restart sees the same three
    const again = await MemoryStore.open(e);
    expect(again.store.learned.precedents().map((p) => p.precedent_id)).toEqual(['r5', 'r4', 'r3']);
    await again.store.close();
  });

  test('readers follow the changes since the version they last saw (additions and prunings, in order)', async () => {
    const { store } = await MemoryStore.open(await env());
    await store.learned.addPrecedent(row(1), 2);
    const seen = store.learned.precedentVersion;
    await store.learned.addPrecedent(row(2), 2);
    await store.learned.addPrecedent(row(3), 2);
    expect(store.learned.precedentChangesSince(seen)).toEqual([
      { kind: 'precedent', row: row(2) },
      { kind: 'precedent', row: row(3) },
      { kind: 'precedent_del', ids: ['r1'] },
    ]);
    expect(store.learned.precedentChangesSince(store.learned.precedentVersion)).toEqual([]);
    // a version this store never had: the reader must read everything again
    expect(store.learned.precedentChangesSince(store.learned.precedentVersion + 1)).toBeNull();
    await store.close();
  });

  test('a bad row or bound is refused and nothing is written', async () => {
    const { store } = await MemoryStore.open(await env());
    await expect(store.learned.addPrecedent(row(1, { used: [''] }), 10)).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(store.learned.addPrecedent(row(1, { precedent_id: '' }), 10)).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(store.learned.addPrecedent(row(1), 0)).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(store.learned.precedents()).toEqual([]);
    await store.close();
  });

  test('a store written before precedents existed gains the table on open', async () => {
    const e = await env();
    const old = new e.sql.Database();
    old.exec(MEMORY_SCHEMA.ddl.replace(/CREATE TABLE IF NOT EXISTS precedents[\s\S]*$/, ''));
    old.run("INSERT INTO meta (key, value) VALUES ('schema_version', ?)", [String(MEMORY_SCHEMA.version)]);
    await e.blobs.writeAtomic(MEMORY_SCHEMA.file, old.export());
    old.close();
    const { store, warnings } = await MemoryStore.open(e);
    expect(warnings).toEqual([]);
    await store.learned.addPrecedent(row(1), 10);
    expect(store.learned.precedents()).toHaveLength(1);
    await store.close();
  });
});

describe('feedback records precedents', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await openLearning();
  });
  afterEach(async () => {
    await h.engine.close();
  });

  test('used notes are remembered with the query terms and class; the audit entry says so', async () => {
    const r = await retrieveAll(h, { query_class: 'debug' });
    const out = await h.engine.services.learning.feedback({ receipt_id: r.receipt_id, cited: [B, A], agent: 'agent-a' });
    expect(out.precedent).toBe(true);
    expect(h.engine.services.learning.memory.learned.precedents()).toEqual([
      { precedent_id: r.receipt_id, at: h.clock.now(), query_class: 'debug', query_text: 'connection pool', agent_id: 'agent-a', terms: ['connection', 'pool'], used: [A, B] },
    ]);
    const [entry] = await h.engine.services.governance.audit.recent({ action: 'feedback' });
    expect(entry.data).toMatchObject({ precedent: true });
  });

  test('nothing used, or a rejected output: no precedent', async () => {
    expect((await h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, misleading: [C] })).precedent).toBe(false);
    expect((await h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, cited: [A], accepted: false })).precedent).toBe(false);
    expect(h.engine.services.learning.memory.learned.precedents()).toEqual([]);
  });

  test('a precedent pruned from the store no longer proposes its notes', async () => {
    await h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, cited: [C] });
    const ask = async () => (await h.engine.services.retrieval.retrieve({ query_text: 'connection pool', agent_id: 'agent-a' }, { jitter: false, seed: 1, record: false })).nodes.find((n) => n.id === C)!.scouts;
    expect(await ask()).toContain('precedent');
    await h.engine.services.learning.memory.learned.addPrecedent({ precedent_id: 'newer', at: h.clock.now() + 1, query_class: 'lookup', query_text: 'unrelated', agent_id: null, terms: ['unrelated'], used: [D] }, 1);
    expect(await ask()).not.toContain('precedent');
  });

  test('the next similar query finds the used note through the precedent scout, with the reason', async () => {
    await h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, cited: [C] });
    const res = await h.engine.services.retrieval.retrieve({ query_text: 'the connection pool', agent_id: 'agent-a' }, { jitter: false, seed: 1, record: false });
    const c = res.nodes.find((n) => n.id === C)!;
    expect(c.scouts).toContain('precedent');
    expect(c.reasons).toContain('used for a similar past query: "connection pool" (similarity 1.00)');
    for (const n of res.nodes.filter((x) => x.id !== C)) expect(n.scouts).not.toContain('precedent');
    // another agent is pointed to the same note, but not told what agent-a asked
    const other = await h.engine.services.retrieval.retrieve({ query_text: 'the connection pool', agent_id: 'agent-b' }, { jitter: false, seed: 1, record: false });
    const reasons = other.nodes.find((n) => n.id === C)!.reasons;
    expect(reasons).toContain('used for a similar past query of another agent (similarity 1.00)');
    expect(reasons.join(' ')).not.toContain('"connection pool"');
  });
});
