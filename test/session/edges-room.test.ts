import type { SessionCaller } from '../../shared/session/caller';
import type { MemorySession } from '../../shared/session/memory-session';
import { failure } from '../twins/error-code';
import { ALICE, DAVE, HUMAN, PROBES, openScopeVault, type Probe, type ScopeVault } from '../governance/scope-vault';

/**
 * The edges room (shared/session/edges-room.ts): an edge exists for a session only when its viewer sees both
 * ends; changes carry the session's caller as provenance and in the audit trail. The scope vault links its
 * hub to every probe note with a `supports` edge.
 */

let v: ScopeVault;
beforeEach(async () => {
  v = await openScopeVault();
});
afterEach(async () => {
  await v.engine.close();
});

const as = (c: SessionCaller): Promise<MemorySession> => v.engine.as(c);
const hubEdge = (p: Probe) => v.engine.services.learning.memory.edges.find({ from: v.hubId, to: v.id[p] })[0];
const audited = async (action: string) => v.engine.services.governance.audit.recent({ action, limit: 100 });

describe('find', () => {
  test.each<[string, SessionCaller, Probe[]]>([
    ['alice', ALICE, ['shared', 'project', 'task', 'agent_private']],
    ['dave', DAVE, ['shared']],
    ['the person', HUMAN, PROBES],
  ])('%s finds the hub edges into the notes it sees, and no other', async (_who, caller, seen) => {
    const edges = (await as(caller)).edges.find({ from: v.hubId });
    expect(edges.map((e) => e.to_id).sort()).toEqual(seen.map((p) => v.id[p]).sort());
  });

  test('an edge whose source the viewer may not see is left out, whatever the query names', async () => {
    await v.engine.services.learning.memory.edges.upsert({ from_id: v.id.user_private, to_id: v.id.shared, type: 'supports', weight: 0.5, namespace: 'x', provenance_actor: 'test', provenance_type: 'human', evidence: null, conflict_state: null });
    expect((await as(ALICE)).edges.find({ to: v.id.shared }).map((e) => e.from_id)).toEqual([v.hubId]);
    expect((await as(HUMAN)).edges.find({ to: v.id.shared })).toHaveLength(2);
  });
});

describe('get and ends', () => {
  test('an edge into a note the viewer may not see is not found, with the message of no edge at all', async () => {
    const alice = await as(ALICE);
    const hidden = await failure(Promise.resolve().then(() => alice.edges.get(hubEdge('user_private').edge_id)));
    const none = await failure(Promise.resolve().then(() => alice.edges.get('no-such-edge')));
    expect(hidden.code).toBe('not_found');
    expect(hidden.message).toBe(none.message.replace('no-such-edge', hubEdge('user_private').edge_id));
    expect(alice.edges.ends(hubEdge('user_private'))).toBeNull();
  });

  test('a visible edge comes with both ends as notes', async () => {
    const alice = await as(ALICE);
    const e = alice.edges.get(hubEdge('project').edge_id);
    expect(alice.edges.ends(e)).toMatchObject({ from: { path: 'hub/Hub.md' }, to: { path: v.path.project } });
  });
});

describe('upsert', () => {
  test("creates an edge as the session's caller and audits edge.upsert with the values", async () => {
    const alice = await as(ALICE);
    const { row, before } = await alice.edges.upsert({ from_id: v.id.project, to_id: v.id.shared, type: 'depends_on', weight: 0.7, namespace: 'project/atlas', evidence: { why: 'test' }, conflict_state: null }, 'test_tool');
    expect(before).toBeNull();
    expect(row).toMatchObject({ provenance_actor: 'alice', provenance_type: 'agent', weight: 0.7 });
    const [entry] = await audited('edge.upsert');
    expect(entry).toMatchObject({ actor: { kind: 'agent', id: 'alice' }, target: row.edge_id, data: { from: v.id.project, to: v.id.shared, type: 'depends_on', weight: 0.7, created: true } });
  });

  test('updates by edge_id and audits the values before', async () => {
    const e = hubEdge('shared');
    const { row, before } = await (await as(HUMAN)).edges.upsert({ ...e, weight: 0.9 }, 'test_tool');
    expect(row).toMatchObject({ edge_id: e.edge_id, weight: 0.9, provenance_actor: 'human', provenance_type: 'human' });
    expect(before).toEqual(e);
    const [entry] = await audited('edge.upsert');
    expect(entry).toMatchObject({ actor: { kind: 'human', id: null }, data: { weight: 0.9, created: false, before: { weight: 0.5 } } });
  });

  test('an end the viewer may not see is not found, and nothing is stored or audited', async () => {
    const alice = await as(ALICE);
    const toHidden = { from_id: v.id.shared, to_id: v.id.user_private, type: 'supports', weight: 0.5, namespace: 'x', evidence: null, conflict_state: null };
    expect((await failure(alice.edges.upsert(toHidden, 'test_tool'))).code).toBe('not_found');
    expect((await failure(alice.edges.upsert({ ...hubEdge('user_private'), weight: 0.1 }, 'test_tool'))).code).toBe('not_found');
    expect(v.engine.services.learning.memory.edges.find({ from: v.id.shared })).toEqual([]);
    expect(hubEdge('user_private').weight).toBe(0.5);
    expect(await audited('edge.upsert')).toEqual([]);
  });

  test('an agent without an id is asked for one, naming the front door', async () => {
    const anon = await as({ kind: 'agent', agent_id: null });
    const err = await failure(anon.edges.upsert({ ...hubEdge('shared'), weight: 0.1 }, 'test_tool'));
    expect(err).toMatchObject({ code: 'invalid_argument', message: expect.stringContaining('test_tool needs to know which agent') });
  });
});

describe('delete', () => {
  test("removes the edge and audits edge.delete with its values as the session's caller", async () => {
    const e = hubEdge('task');
    await (await as(ALICE)).edges.delete(e, 'test_tool');
    expect(hubEdge('task')).toBeUndefined();
    const [entry] = await audited('edge.delete');
    expect(entry).toMatchObject({ actor: { kind: 'agent', id: 'alice' }, target: e.edge_id, data: { from: v.hubId, to: v.id.task, type: 'supports', weight: 0.5 } });
  });

  test('an edge the viewer may not see is not found and stays', async () => {
    const e = hubEdge('user_private');
    expect((await failure((await as(ALICE)).edges.delete(e, 'test_tool'))).code).toBe('not_found');
    expect(hubEdge('user_private')).toEqual(e);
    expect(await audited('edge.delete')).toEqual([]);
  });
});
