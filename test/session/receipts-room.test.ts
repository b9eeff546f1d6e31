import type { SessionCaller } from '../../shared/session/caller';
import type { MemorySession } from '../../shared/session/memory-session';
import { failure } from '../twins/error-code';
import { ALICE, BOB, CAROL, DAVE, HUMAN, PROBES, openScopeVault, type Probe, type ScopeVault } from '../governance/scope-vault';

/**
 * The receipt log as a session's viewer may see it (session/receipts-room.ts), over the scope vault: one
 * probe note per access scope, and callers who see different sets of them (governance/scope-table.test.ts).
 */

let v: ScopeVault;
/** Per probe: a receipt of the person's retrieval that returned that probe alone. */
const personReceipt = {} as Record<Probe, string>;

beforeEach(async () => {
  v = await openScopeVault();
  for (const p of PROBES) personReceipt[p] = await retrieve(HUMAN, p);
});
afterEach(async () => {
  await v.engine.close();
});

const session = (c: SessionCaller): Promise<MemorySession> => v.engine.as(c);

/** A retrieval by `c` over one probe's namespace (it returns that probe alone when `c` may see it). */
async function retrieve(c: SessionCaller, p: Probe, extra: Record<string, unknown> = {}): Promise<string> {
  const namespace = v.engine.services.notes.note(v.path[p])!.cached.meta.namespace;
  return (await v.call('lithos_retrieve', { query_text: 'zebra striped probe', namespace_filter: [namespace], ...extra }, c)).receipt_id;
}

const ids = (rs: { receipt_id: string }[]): string[] => rs.map((r) => r.receipt_id);

describe('query', () => {
  test.each<[string, SessionCaller, Probe[]]>([
    ['alice', ALICE, ['shared', 'project', 'task', 'agent_private']],
    ['bob', BOB, ['shared', 'project', 'task']],
    ['dave', DAVE, ['shared']],
    ['the person', HUMAN, [...PROBES]],
  ])("another's receipt is listed for %s only when every note it returned is one it may see", async (_name, caller, sees) => {
    const { receipts } = await (await session(caller)).receipts.query({ agent: 'human' }, 100);
    expect(ids(receipts).sort()).toEqual(sees.map((p) => personReceipt[p]).sort());
  });

  test("an agent's own receipt is listed with the notes it may no longer see taken out; another's loses its per-scout counts", async () => {
    const mine = await retrieve(ALICE, 'shared', { namespace_filter: ['notes/shared', 'project/atlas'], max_context_nodes: 20 });
    await v.engine.services.governance.policy.set({ ...v.engine.services.governance.policy.get(), agents: { ...v.engine.services.governance.policy.get().agents, alice: { namespaces: [] } } });
    const alice = await session(ALICE);
    const [own] = (await alice.receipts.query({ receipt_id: mine }, 1)).receipts;
    expect(own.final_nodes.map((n) => n.id)).toEqual([v.id.shared]);
    expect(Object.keys(own.scouts).length).toBeGreaterThan(0);
    const [theirs] = (await alice.receipts.query({ receipt_id: personReceipt.shared }, 1)).receipts;
    expect(theirs.scouts).toEqual({});
    // The person sees the receipt as it was written.
    const [stored] = (await (await session(HUMAN)).receipts.query({ receipt_id: mine }, 1)).receipts;
    expect(stored.final_nodes.map((n) => n.id).sort()).toEqual([v.id.shared, v.id.project].sort());
  });

  test('reads past the receipts the viewer may not see until it has as many as asked for', async () => {
    const dave = await session(DAVE);
    // The newest five receipts are the person's over probes dave may not see; the one before is his.
    const his = await retrieve(DAVE, 'shared');
    for (const p of ['project', 'task', 'agent_private', 'user_private', 'unknown scope'] as const) await retrieve(HUMAN, p);
    const got = ids((await dave.receipts.query({}, 1)).receipts);
    // At least as many as asked for, newest first; a read may bring more, all of them his to see.
    expect(got[0]).toBe(his);
    expect(got.filter((id) => id !== his && id !== personReceipt.shared)).toEqual([]);
  });

  test('a node filter names a note by id or path: one the agent may not see is not found, as everywhere', async () => {
    const carol = await session(CAROL);
    expect(ids((await carol.receipts.query({ node: v.path.project }, 10)).receipts)).toEqual([personReceipt.project]);
    expect(ids((await carol.receipts.query({ node: v.id.project }, 10)).receipts)).toEqual([personReceipt.project]);
    expect(await failure(carol.receipts.query({ node: v.path.task }, 10))).toMatchObject({ code: 'not_found', message: `No note at "${v.path.task}". Use lithos_search or lithos_list to find notes.` });
    expect(await failure(carol.receipts.query({ node: v.id.user_private }, 10))).toMatchObject({ code: 'not_found' });
  });

  test('the person may name a deleted note by its last path', async () => {
    await v.vault.delete(v.path.shared);
    await v.engine.reconcile();
    const person = await session(HUMAN);
    expect(ids((await person.receipts.query({ node: v.path.shared }, 10)).receipts)).toEqual([personReceipt.shared]);
    // Agents see no receipt naming a note no longer in the vault: it has no scope left to check.
    expect(await failure((await session(ALICE)).receipts.query({ node: v.path.shared }, 10))).toMatchObject({ code: 'not_found' });
  });
});

describe('get', () => {
  test('the receipt as stored, when the viewer may see it at all; not_found, with one message, otherwise', async () => {
    const stored = (await v.engine.services.retrieval.receipts.query({ receipt_id: personReceipt.project, limit: 1 })).receipts[0];
    expect(await (await session(CAROL)).receipts.get(personReceipt.project)).toEqual(stored);
    const hidden = await failure((await session(DAVE)).receipts.get(personReceipt.project));
    const unknown = await failure((await session(DAVE)).receipts.get('no-such-receipt'));
    expect(hidden).toMatchObject({ code: 'not_found', message: `No receipt ${personReceipt.project}. Pass the receipt_id lithos_retrieve returned.` });
    expect(unknown).toMatchObject({ code: 'not_found', message: 'No receipt no-such-receipt. Pass the receipt_id lithos_retrieve returned.' });
  });
});
