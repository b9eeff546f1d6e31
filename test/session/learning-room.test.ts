import type { SessionCaller } from '../../shared/session/caller';
import type { MemorySession } from '../../shared/session/memory-session';
import { note, openHarness, type Harness } from '../engine/harness';
import { RecordingLogger } from '../stores/helpers';
import { failure } from '../twins/error-code';
import { ALICE, BOB, CAROL, HUB, HUMAN, PROBES, titleOf, openScopeVault, type Probe, type ScopeVault } from '../governance/scope-vault';
import { LAG, auditActions, coactivate, fixtureFiles, openFixture, receiptOf } from '../learning/consolidation-fixture';

/**
 * What memory learns, as a session's viewer may take part in it (session/learning-room.ts): feedback on the
 * receipts it may report on, and learned signals, quarantine, working memory and consolidation with the
 * notes it may not see left out. Over the scope vault (governance/scope-vault.ts) unless said otherwise.
 */

/** What each caller may see of the scope vault's probes (governance/scope-table.test.ts). */
const ALICE_SEES: Probe[] = ['shared', 'project', 'task', 'agent_private'];

describe('over the scope vault', () => {
  let v: ScopeVault;
  beforeEach(async () => {
    v = await openScopeVault();
  });
  afterEach(async () => {
    await v.engine.close();
  });

  const session = (c: SessionCaller): Promise<MemorySession> => v.engine.as(c);

  /** A retrieval by `c` over these probes' namespaces; returns its receipt id. */
  async function retrieve(c: SessionCaller, probes: Probe[], extra: Record<string, unknown> = {}): Promise<string> {
    const namespace_filter = probes.map((p) => v.engine.services.notes.note(v.path[p])!.cached.meta.namespace);
    return (await v.call('lithos_retrieve', { query_text: 'zebra striped probe', namespace_filter, max_context_nodes: 20, ...extra }, c)).receipt_id;
  }

  describe('reportable', () => {
    test("an agent reports on its own receipts and on those of a task it is on; another's is forbidden, an unseen one not found", async () => {
      const onTask = await retrieve(ALICE, ['shared'], { task_id: v.taskT });
      const taskless = await retrieve(ALICE, ['shared']);
      expect((await (await session(ALICE)).learning.reportable(taskless)).receipt_id).toBe(taskless);
      expect((await (await session(BOB)).learning.reportable(onTask)).receipt_id).toBe(onTask);
      expect(await failure((await session(BOB)).learning.reportable(taskless))).toMatchObject({
        code: 'forbidden',
        message: `Receipt ${taskless} is another agent's retrieval: give feedback on your own receipts.`,
      });
      expect(await failure((await session(CAROL)).learning.reportable(onTask))).toMatchObject({
        code: 'forbidden',
        message: `Receipt ${onTask} is another agent's retrieval (task ${v.taskT}, which you are not on): give feedback on your own receipts.`,
      });
      const secret = await retrieve(ALICE, ['agent_private']);
      expect(await failure((await session(BOB)).learning.reportable(secret))).toMatchObject({ code: 'not_found' });
      expect((await (await session(HUMAN)).learning.reportable(secret)).receipt_id).toBe(secret);
    });
  });

  describe('feedback', () => {
    test('notes are named by id, path or title; feedback counts once per receipt', async () => {
      const r = await retrieve(ALICE, ['shared', 'project']);
      const alice = await session(ALICE);
      const first = await alice.learning.feedback({ receipt_id: r, cited: [titleOf('shared')], misleading: [v.path.project] });
      expect(first).toMatchObject({ applied: true, used: [v.id.shared], misleading: [v.id.project] });
      expect(await alice.learning.feedback({ receipt_id: r, cited: [v.id.shared] })).toMatchObject({ applied: false });
    });

    test('a note outside the receipt is named by its title only when the viewer may see it', async () => {
      const r = await retrieve(ALICE, ['shared']);
      const alice = await session(ALICE);
      expect(await failure(alice.learning.feedback({ receipt_id: r, cited: [v.hubId] }))).toMatchObject({
        code: 'invalid_argument',
        message: `cited: "Hub (${v.hubId})" was not returned by receipt ${r}.`,
      });
      expect(await failure(alice.learning.feedback({ receipt_id: r, misleading: [v.id.user_private] }))).toMatchObject({
        code: 'invalid_argument',
        message: `misleading: "${v.id.user_private}" was not returned by receipt ${r}.`,
      });
      expect(v.engine.services.learning.memory.stats.get(v.id.shared).use_count).toBe(0);
    });

    test('a note the receipt returned that has left the vault since is not found', async () => {
      const r = await retrieve(ALICE, ['shared', 'project']);
      await v.vault.delete(v.path.project);
      await v.engine.reconcile();
      expect(await failure((await session(ALICE)).learning.feedback({ receipt_id: r, cited: [v.id.project] }))).toMatchObject({
        code: 'not_found',
        message: `No note "${v.id.project}" any more (deleted since the retrieval).`,
      });
    });

    test('plan checks every receipt before anything is written; apply then writes each once', async () => {
      const a = await retrieve(ALICE, ['shared'], { task_id: v.taskT });
      const b = await retrieve(ALICE, ['project'], { task_id: v.taskT });
      const alice = await session(ALICE);
      const receipts = [await alice.learning.reportable(a), await alice.learning.reportable(b)];
      const both = { receipts, cited: [v.id.shared], agent: 'alice', task: v.taskT };
      expect(() => alice.learning.plan({ ...both, strict: true, cited: [v.id.shared, v.id.task], misleading: [] })).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
      expect(() => alice.learning.plan({ ...both, strict: false, misleading: [v.id.shared] })).toThrow(expect.objectContaining({ code: 'invalid_argument', message: expect.stringContaining('cannot be both cited and misleading') }));
      expect(v.engine.services.learning.memory.stats.get(v.id.shared).use_count).toBe(0);
      const applied = await alice.learning.plan({ ...both, strict: false, misleading: [] }).apply();
      expect(applied.map((f) => [f.receipt_id, f.used])).toEqual([[a, [v.id.shared]], [b, []]]);
    });
  });

  describe('nodeStats', () => {
    test('edges count only where the other end is a note the viewer may see', async () => {
      const alice = (await session(ALICE)).learning.nodeStats({ path: HUB });
      expect(alice.note.nodeId).toBe(v.hubId);
      expect(alice.edges).toEqual({ out: ALICE_SEES.length, in: 0, by_type: { supports: { out: ALICE_SEES.length, in: 0 } } });
      const person = (await session(HUMAN)).learning.nodeStats({ id: v.hubId });
      expect(person.edges.out).toBe(PROBES.length);
      expect((await session(ALICE)).learning.nodeStats({ id: v.id.agent_private }).edges).toEqual({ out: 0, in: 1, by_type: { supports: { out: 0, in: 1 } } });
    });

    test('a note the viewer may not see is not found, as one that does not exist', async () => {
      const bob = await session(BOB);
      expect(() => bob.learning.nodeStats({ path: v.path.agent_private })).toThrow(expect.objectContaining({
        code: 'not_found',
        message: `No note at "${v.path.agent_private}". Use lithos_search or lithos_list to find notes.`,
      }));
    });
  });

  test('quarantined lists only the quarantined notes the viewer may see', async () => {
    for (const p of PROBES) await v.engine.services.notes.updateFrontmatter(v.path[p], (fm) => void (fm.status = 'quarantined'));
    const listed = async (c: SessionCaller) => (await session(c)).learning.quarantined().map((q) => q.id).sort();
    expect(await listed(ALICE)).toEqual(ALICE_SEES.map((p) => v.id[p]).sort());
    expect(await listed(HUMAN)).toEqual(PROBES.map((p) => v.id[p]).sort());
  });

  test("working memory leaves out the notes the viewer may not see; by default it is the caller's own", async () => {
    await retrieve(ALICE, ['shared', 'agent_private']);
    const items = async (c: SessionCaller, q: { agent?: string; task?: string }) => (await (await session(c)).learning.workingMemory(q)).items.map((i) => i.note.path).sort();
    expect(await items(ALICE, {})).toEqual([v.path.shared, v.path.agent_private].sort());
    expect(await items(BOB, { agent: 'alice' })).toEqual([v.path.shared]);
    expect(await items(BOB, {})).toEqual([]);
    expect(await failure((await session(HUMAN)).learning.workingMemory({}))).toMatchObject({ code: 'invalid_argument' });
  });
});

describe('consolidation', () => {
  /** A project/ab note about Kafka lag: with the shared lag notes it makes a concept only project/ab may read. */
  async function projectConcept(h: Harness): Promise<void> {
    h.vault.put('project/ab/Lag case p.md', note({ id: '00000001-ffff-4fff-8fff-000000000001', title: 'Lag case p', access_scope: 'project', namespace: 'project/ab', tags: ['kafka'] }, 'Kafka consumer lag in the consumer group after a partition rebalance.\n'));
    await h.engine.reconcile();
    await coactivate(h, [...LAG.slice(0, 4).map((n) => n.id), '00000001-ffff-4fff-8fff-000000000001'], 3);
  }
  const concepts = (h: Harness) => h.engine.services.notes.notes().filter((n) => n.cached.meta.note_type === 'concept').map((n) => n.nodeId);

  test.each<[string, SessionCaller, boolean]>([
    ['agent-a, outside project/ab', { kind: 'agent', agent_id: 'agent-a' }, false],
    ['the person', HUMAN, true],
  ])('consolidate run by %s lists the concept it created only if that caller may read it', async (_name, caller, sees) => {
    const h = await openFixture();
    try {
      await h.engine.services.governance.policy.set({ ...h.engine.services.governance.policy.get(), agents: { 'agent-a': { namespaces: ['project/streams'] } } });
      await projectConcept(h);
      const r = await (await h.engine.as(caller)).learning.consolidate({});
      expect(concepts(h)).toHaveLength(1);
      expect(r.concepts_created).toEqual(sees ? concepts(h) : []);
    } finally {
      await h.engine.close();
    }
  });

  test('afterTask runs as the agent that completed the task, and logs (never throws) a failure', async () => {
    const logger = new RecordingLogger();
    const h = await openHarness(fixtureFiles(), { deps: { logger } });
    try {
      await h.engine.reconcile();
      await h.engine.services.coordination.ensureAgent('agent-b');
      const t = await h.engine.services.coordination.createTask({ created_by: 'agent-b', title: 'lag' });
      for (let i = 0; i < 2; i++) await h.engine.services.retrieval.receipts.append(receiptOf(h, [LAG[0].id, LAG[1].id], { task_id: t.id, agent_id: 'agent-b' }));
      const person = await h.engine.as(HUMAN);
      await person.learning.afterTask(t.id, 'agent-b');
      const entry = (await auditActions(h)).find((a) => a.action === 'consolidate') as unknown as { actor: unknown; target: string };
      expect(entry).toMatchObject({ actor: { kind: 'agent', id: 'agent-b' }, target: `task:${t.id}` });
      await expect(person.learning.afterTask('no-such-task', 'agent-b')).resolves.toBeUndefined();
      expect(logger.at('warn')).toContain('consolidation after task completion failed');
    } finally {
      await h.engine.close();
    }
  });
});
