import { COORDINATION_JOURNAL, COORDINATION_PREVIOUS, CoordinationStore } from '../../shared/coordination/coordination-store';
import { parseJournal } from '../../shared/stores/journal';
import type { MemoryBlobStore } from '../twins/memory-blobs';
import { env } from '../stores/helpers';
import { openHarness } from '../engine/harness';
import { dump, MIN, openStore } from './helpers';

const FILE = 'coordination.sqlite';
const enc = new TextEncoder();
const journalSeqs = (blobs: MemoryBlobStore) => parseJournal(blobs.files.get(COORDINATION_JOURNAL) ?? null).entries.map((e) => e.seq);

/** One batch of varied changes; returns the task ids it touched. */
async function work(store: CoordinationStore, tag: string): Promise<string[]> {
  await store.registerAgent({ id: `a-${tag}`, name: `Agent ${tag}`, metadata: { tag } });
  await store.ensureAgent(`b-${tag}`);
  const t = await store.createTask({ created_by: `a-${tag}`, title: `task ${tag}`, tags: [tag] });
  const done = await store.createTask({ created_by: `b-${tag}`, title: `done ${tag}` });
  await store.claim({ task_id: t.id, aspect: 'code', agent: `a-${tag}` });
  await store.claim({ task_id: t.id, aspect: 'docs', agent: `b-${tag}`, ttl_minutes: 300 });
  await store.claim({ task_id: done.id, aspect: 'code', agent: `a-${tag}` });
  await store.postFinding({ task_id: t.id, agent: `b-${tag}`, summary: `finding ${tag}` });
  await store.completeTask(done.id, `a-${tag}`, { cited_nodes: ['n1'], receipt_id: `r-${tag}` });
  return [t.id, done.id];
}

async function reopen(blobs: MemoryBlobStore) {
  return CoordinationStore.open(await env(blobs));
}

describe('coordination store durability', () => {
  it('restores everything after a clean close and restart', async () => {
    const { store, e } = await openStore();
    const ids = await work(store, 'x');
    const before = dump(store, ids);
    await store.close();
    const again = await reopen(e.blobs.clone());
    expect(again.warnings).toEqual([]);
    expect(dump(again.store, ids)).toEqual(before);
    expect(before.counts).toEqual({ agents: 2, tasks: 2, open_tasks: 1, live_claims: 2, findings: 1, pending_outcomes: 1 });
  });

  it('loses no acknowledged change when the process dies before any snapshot (journal replay)', async () => {
    const { store, e } = await openStore();
    const ids = await work(store, 'x');
    expect(e.blobs.files.has(FILE)).toBe(false);
    const again = await reopen(e.blobs.clone());
    expect(again.warnings).toEqual([]);
    expect(dump(again.store, ids)).toEqual(dump(store, ids));
  });

  it('a crash after a snapshot replays the journal lines newer than it, and claims keep their expiry', async () => {
    const { store, e } = await openStore();
    const ids = await work(store, 'x');
    await store.flush();
    const more = await work(store, 'y');
    const t = ids[0];
    await store.release({ task_id: t, aspect: 'code', agent: 'a-x' });
    await store.renew({ task_id: t, aspect: 'docs', agent: 'b-x', ttl_minutes: 10 });
    const before = dump(store, [...ids, ...more]);
    const again = await CoordinationStore.open(await env(e.blobs.clone(), e.clock));
    expect(again.warnings).toEqual([]);
    expect(dump(again.store, [...ids, ...more])).toEqual(before);
    e.clock.advance(10 * MIN);
    expect(again.store.liveClaims(t)).toEqual([]);
  });

  it('a truncated store file is set aside with a warning and nothing acknowledged is lost', async () => {
    const { store, e } = await openStore();
    const ids = [...(await work(store, 'x'))];
    await store.flush(); // first snapshot
    ids.push(...(await work(store, 'y')));
    await store.flush(); // second snapshot: the first becomes coordination.sqlite.prev
    ids.push(...(await work(store, 'z'))); // journal only
    const before = dump(store, ids);
    expect(e.blobs.files.has(COORDINATION_PREVIOUS)).toBe(true);

    const crashed = e.blobs.clone();
    crashed.truncate(FILE, 0.5);
    const damaged = crashed.files.get(FILE);
    const again = await reopen(crashed);
    expect(again.warnings).toHaveLength(1);
    expect(again.warnings[0]).toMatch(
      /^coordination\.sqlite was damaged \(.+\); it was restored from coordination\.sqlite\.prev with \d+ change\(s\) replayed from coordination\.journal; nothing was lost; the damaged file is kept as coordination\.sqlite\.corrupt-2026-01-01T00-00-00-000Z\.$/,
    );
    expect(crashed.files.get('coordination.sqlite.corrupt-2026-01-01T00-00-00-000Z')).toEqual(damaged);
    expect(dump(again.store, ids)).toEqual(before);

    // The recovered store keeps working and writes a sound file at its next snapshot.
    await again.store.ensureAgent('after');
    await again.store.close();
    const third = await reopen(crashed.clone());
    expect(third.warnings).toEqual([]);
    expect(dump(third.store, ids)).toEqual({ ...before, agents: third.store.agents(), counts: { ...before.counts, agents: before.counts.agents + 1 } });
    expect(third.store.agent('after')).not.toBeNull();
  });

  it('a damaged first snapshot (no previous one yet) is rebuilt from the journal, which still holds everything', async () => {
    const { store, e } = await openStore();
    const ids = await work(store, 'x');
    await store.flush();
    ids.push(...(await work(store, 'y')));
    const before = dump(store, ids);
    expect(e.blobs.files.has(COORDINATION_PREVIOUS)).toBe(false);
    const crashed = e.blobs.clone();
    crashed.files.set(FILE, enc.encode('not a database at all, just some bytes that are long enough'));
    const again = await reopen(crashed);
    expect(again.warnings[0]).toMatch(/^coordination\.sqlite was damaged \(.+\) and there is no coordination\.sqlite\.prev; it was rebuilt from coordination\.journal alone \(\d+ change\(s\)\); the journal reaches back to the first change, so nothing was lost;/);
    expect(dump(again.store, ids)).toEqual(before);
  });

  it('a missing current file with its previous snapshot present is restored from it, with a warning', async () => {
    const { store, e } = await openStore();
    const ids = await work(store, 'x');
    await store.flush();
    ids.push(...(await work(store, 'y')));
    await store.flush();
    const before = dump(store, ids);
    const crashed = e.blobs.clone();
    crashed.files.delete(FILE);
    const again = await reopen(crashed);
    expect(again.warnings).toEqual([expect.stringMatching(/^coordination\.sqlite was missing; it was restored from coordination\.sqlite\.prev/)]);
    expect(dump(again.store, ids)).toEqual(before);
  });

  it('when both snapshot files are damaged, the warning says older entries may be missing', async () => {
    const { store, e } = await openStore();
    await work(store, 'x');
    await store.flush();
    await work(store, 'y');
    await store.flush();
    const crashed = e.blobs.clone();
    crashed.truncate(FILE, 0.4);
    crashed.truncate(COORDINATION_PREVIOUS, 0.4);
    const again = await reopen(crashed);
    expect(again.warnings[0]).toMatch(/coordination\.sqlite\.prev was damaged too .*older than the journal may be missing/);
    expect(again.store.agent('a-y')).not.toBeNull(); // the journal still reaches back to the previous snapshot
  });

  it('the journal reaches back exactly to the previous snapshot, so it stays bounded', async () => {
    const { store, e } = await openStore();
    await work(store, 'x'); // seq 1..9
    await store.flush();
    expect(journalSeqs(e.blobs)).toHaveLength(9); // no previous snapshot yet: all kept
    await work(store, 'y'); // seq 10..18
    await store.flush();
    expect(journalSeqs(e.blobs)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18]);
    await work(store, 'z');
    await store.flush();
    expect(journalSeqs(e.blobs)[0]).toBe(19);
    expect(store.journalSize()).toBe(9);
  });

  it('ignores a torn last journal line with a warning', async () => {
    const { store, e } = await openStore();
    const ids = await work(store, 'x');
    const crashed = e.blobs.clone();
    await crashed.append(COORDINATION_JOURNAL, enc.encode('{"seq":99,"op":{"kind":"agent","row":{"id":"half'));
    const again = await reopen(crashed);
    expect(again.warnings).toEqual([
      'coordination.journal ended with an incomplete entry (a crash during a write); it was ignored.',
      // No snapshot holds these changes yet: a cut journal could have lost more than the line being written.
      expect.stringMatching(/^coordination\.journal was the only copy of recent changes and is damaged: changes after #9 may be lost/),
    ]);
    expect(dump(again.store, ids)).toEqual(dump(store, ids));
    await again.store.ensureAgent('next');
    expect(parseJournal(crashed.files.get(COORDINATION_JOURNAL) ?? null)).toMatchObject({ torn: false, badLines: 0 });
  });

  it('through the engine: the store opens beside the memory store, persists on close and surfaces its warnings', async () => {
    const h = await openHarness({ 'a.md': '# A' });
    const agent = await h.engine.services.coordination.ensureAgent('agent-a');
    await h.engine.close();
    expect(h.blobs.files.has(FILE)).toBe(true);

    const reopened = await openHarness({}, { blobs: h.blobs.clone(), vault: h.vault });
    expect(reopened.engine.services.coordination.agent('agent-a')).toEqual(agent);
    await reopened.engine.close();

    const damaged = h.blobs.clone();
    damaged.files.set(FILE, new Uint8Array(0));
    const third = await openHarness({}, { blobs: damaged, vault: h.vault });
    expect(third.engine.warnings).toEqual([expect.stringMatching(/^coordination\.sqlite was damaged \(file is empty\) and there is no coordination\.sqlite\.prev/)]);
    expect((await third.engine.doctor()).warnings).toEqual(third.engine.warnings);
    // With no previous snapshot yet the journal was never cut, so the agent comes back from it.
    expect(third.engine.services.coordination.agent('agent-a')).toEqual(agent);
    await third.engine.close();
  });
});
