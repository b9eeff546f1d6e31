import { createDispatcher } from '../../shared/tools/dispatcher';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import type { ToolCaller } from '../../shared/tools/types';
import { failure } from '../twins/error-code';
import { note, openHarness, type Harness } from '../engine/harness';

/**
 * "Agents propose, a person confirms" for the namespaces the policy names: an agent's write there is kept
 * as a proposal and the note is untouched until the person accepts it.
 */

const ALICE: ToolCaller = { kind: 'agent', agent_id: 'alice' };
const BOB: ToolCaller = { kind: 'agent', agent_id: 'bob' };
const HUMAN: ToolCaller = { kind: 'human', agent_id: null };
const ADR = 'decisions/ADR 1.md';

let h: Harness;
let call: (name: string, args: unknown, caller: ToolCaller) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON results
beforeEach(async () => {
  h = await openHarness({ [ADR]: note({ title: 'ADR 1', author: 'human', tags: ['adr'] }, 'We use Postgres.\n'), 'notes/Free.md': note({ title: 'Free', author: 'bob' }, 'Anyone writes here.\n') });
  // Free is an agent's note (bob's): outside the proposal namespaces agents change it at once.
  await h.engine.services.coordination.ensureAgent('bob');
  await h.engine.services.governance.policy.set({ propose_namespaces: ['decisions'] });
  await h.engine.reconcile();
  const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: h.engine, deleteTo: 'trash_folder' }));
  call = (name, args, caller) => tools.call(name, args, caller);
});
afterEach(async () => {
  await h.engine.close();
});

/** The version a caller read, as an agent's update names it. */
const version = async (path: string, caller: ToolCaller = ALICE): Promise<string> => (await call('lithos_read', { path }, caller)).version;
const actions = async () => (await h.engine.services.governance.audit.recent({ limit: 100 })).reverse().map((e) => `${e.action} by ${e.actor.kind}${e.actor.id ? `:${e.actor.id}` : ''}`);

test('lifecycle: an agent proposes, the note is untouched, the person accepts, the write lands with the agent as author', async () => {
  const before = h.vault.paths();
  const p = await call('lithos_write', { title: 'ADR 2', namespace: 'decisions', content: 'We cache with Redis.\n', tags: ['adr'] }, ALICE);
  expect(p).toMatchObject({ proposal_id: expect.any(String), status: 'pending', path: 'decisions/ADR 2.md' });
  expect(h.vault.paths()).toEqual(before);

  // alice sees her proposal, bob sees none, the person sees it
  const mine = await call('lithos_proposal_list', {}, ALICE);
  expect(mine.proposals).toEqual([expect.objectContaining({ proposal_id: p.proposal_id, status: 'pending', agent: 'alice', content: 'We cache with Redis.\n', mode: 'create' })]);
  expect((await call('lithos_proposal_list', {}, BOB)).proposals).toEqual([]);
  expect((await call('lithos_proposal_list', { status: 'pending' }, HUMAN)).proposals.map((x: { proposal_id: string }) => x.proposal_id)).toEqual([p.proposal_id]);

  // agents cannot decide, not even on their own proposal
  expect((await failure(call('lithos_proposal_accept', { proposal_id: p.proposal_id }, ALICE))).code).toBe('forbidden');
  expect((await failure(call('lithos_proposal_reject', { proposal_id: p.proposal_id }, ALICE))).code).toBe('forbidden');

  const accepted = await call('lithos_proposal_accept', { proposal_id: p.proposal_id }, HUMAN);
  expect(accepted.proposal).toMatchObject({ status: 'accepted', decided_by: 'human', result: { path: 'decisions/ADR 2.md', created: true } });
  const written = await call('lithos_read', { path: 'decisions/ADR 2.md' }, HUMAN);
  expect(written.content).toBe('We cache with Redis.\n');
  expect(written.frontmatter).toMatchObject({ author: 'alice', contributors: ['alice'], namespace: 'decisions', tags: ['adr'] });

  expect((await failure(call('lithos_proposal_accept', { proposal_id: p.proposal_id }, HUMAN))).code).toBe('conflict');
  expect((await call('lithos_proposal_list', {}, ALICE)).proposals[0].status).toBe('accepted');
  expect((await actions()).filter((a) => /^(proposal|note)\./.test(a))).toEqual(['proposal.create by agent:alice', 'note.write by agent:alice', 'proposal.accept by human']);
});

test('an update is pinned to the version the agent saw: a change in between makes accept a conflict, and the person rejects', async () => {
  const p = await call('lithos_write', { path: ADR, content: 'We use MySQL.\n', expected_version: await version(ADR) }, ALICE);
  expect(p.status).toBe('pending');
  expect(h.vault.text(ADR)).toContain('We use Postgres.');

  await call('lithos_write', { path: ADR, content: 'We use Postgres 16.\n' }, HUMAN);
  const err = await failure(call('lithos_proposal_accept', { proposal_id: p.proposal_id }, HUMAN));
  expect(err.code).toBe('conflict');
  expect(err.message).toContain('It stays pending: reject it, and the agent can propose again from the current note.');
  expect(err.message).not.toContain('expected_version'); // advice for agents, not for the person accepting
  expect((await call('lithos_proposal_list', {}, HUMAN)).proposals[0].status).toBe('pending');

  const rejected = await call('lithos_proposal_reject', { proposal_id: p.proposal_id, reason: 'We stay on Postgres.' }, HUMAN);
  expect(rejected.proposal).toMatchObject({ status: 'rejected', reason: 'We stay on Postgres.' });
  expect(h.vault.text(ADR)).toContain('We use Postgres 16.');
  expect((await call('lithos_proposal_list', {}, ALICE)).proposals).toEqual([expect.objectContaining({ status: 'rejected', reason: 'We stay on Postgres.' })]);
  expect(await actions()).toContain('proposal.reject by human');
});

test('accepting an update keeps the author and adds the agent as contributor', async () => {
  const p = await call('lithos_write', { path: ADR, content: 'We use Postgres, with PgBouncer.\n', expected_version: await version(ADR) }, ALICE);
  await call('lithos_proposal_accept', { proposal_id: p.proposal_id }, HUMAN);
  const fm = (await call('lithos_read', { path: ADR }, HUMAN)).frontmatter;
  expect(fm.author).toBe('human');
  expect(fm.contributors).toEqual(['alice']);
});

test('outside the proposal namespaces agents write directly; the person writes directly everywhere', async () => {
  expect((await call('lithos_write', { path: 'notes/Free.md', content: 'Changed.\n', expected_version: await version('notes/Free.md') }, ALICE)).version).toEqual(expect.any(String));
  expect((await call('lithos_write', { path: ADR, content: 'We use Postgres 17.\n' }, HUMAN)).version).toEqual(expect.any(String));
  expect((await call('lithos_proposal_list', {}, HUMAN)).proposals).toEqual([]);
});

test('moving a note into or out of a proposal namespace is a proposal too', async () => {
  expect((await call('lithos_write', { path: 'notes/Free.md', namespace: 'decisions', expected_version: await version('notes/Free.md') }, ALICE)).status).toBe('pending');
});

test('agents may not delete in a proposal namespace; unknown proposals are not found', async () => {
  const err = await failure(call('lithos_delete', { path: ADR }, ALICE));
  expect(err.code).toBe('forbidden');
  expect(err.message).toMatch(/status "archived"/);
  expect(h.vault.paths()).toContain(ADR);
  expect((await failure(call('lithos_proposal_accept', { proposal_id: '00000000-0000-4000-8000-000000000000' }, HUMAN))).code).toBe('not_found');
  expect((await failure(call('lithos_proposal_reject', { proposal_id: '../policy' }, HUMAN))).code).toBe('not_found');
});

test('a proposal file edited to set a protected field is refused on accept, nothing written', async () => {
  const p = await call('lithos_write', { title: 'ADR 3', namespace: 'decisions', content: 'x\n' }, ALICE);
  const name = `proposals/${p.proposal_id}.json`;
  const stored = JSON.parse(new TextDecoder().decode((await h.blobs.read(name))!));
  stored.request.fields.author = 'mallory';
  await h.blobs.writeAtomic(name, new TextEncoder().encode(JSON.stringify(stored)));
  const err = await failure(call('lithos_proposal_accept', { proposal_id: p.proposal_id }, HUMAN));
  expect(err).toMatchObject({ code: 'invalid_argument', message: expect.stringMatching(/"author" is set by Lithos itself/) });
  expect(h.vault.paths()).not.toContain('decisions/ADR 3.md');
});
