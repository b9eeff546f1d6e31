import { openHarness, type Harness } from '../engine/harness';
import { failure } from '../twins/error-code';
import { PERSON, type SessionCaller } from '../../shared/session/caller';
import type { Proposal } from '../../shared/governance/proposals';

/** The proposals room: agents follow their own proposals; the person sees all and alone decides. */

const ALICE: SessionCaller = { kind: 'agent', agent_id: 'alice' };
const BOB: SessionCaller = { kind: 'agent', agent_id: 'bob' };

let h: Harness;
let mine: Proposal;
let theirs: Proposal;
beforeEach(async () => {
  h = await openHarness({});
  await h.engine.services.governance.policy.set({ propose_namespaces: ['decisions'] });
  const propose = (agent: string, title: string) =>
    h.engine.services.governance.proposals.create(agent, { path: `decisions/${title}.md`, mode: 'create', content: `${title}.\n`, fields: { title } }, { namespace: 'decisions', title });
  mine = await propose('alice', 'ADR 1');
  h.clock.advance(1000); // oldest first: one after the other
  theirs = await propose('bob', 'ADR 2');
});
afterEach(async () => {
  await h.engine.close();
});

const listed = async (caller: SessionCaller, q: { agent?: string; status?: Proposal['status'] } = {}) =>
  (await (await h.engine.as(caller)).proposals.list(q)).proposals.map((p) => p.proposal_id);

describe('listing proposals', () => {
  it('an agent gets only its own, whatever agent it names; the person gets all, or one agent’s', async () => {
    expect(await listed(ALICE)).toEqual([mine.proposal_id]);
    expect(await listed(ALICE, { agent: 'bob' })).toEqual([mine.proposal_id]);
    expect(await listed(BOB, { status: 'pending' })).toEqual([theirs.proposal_id]);
    expect(await listed(PERSON)).toEqual([mine.proposal_id, theirs.proposal_id]);
    expect(await listed(PERSON, { agent: 'bob' })).toEqual([theirs.proposal_id]);
    // An agent the bridge did not name has no proposals of its own.
    expect(await listed({ kind: 'agent', agent_id: null })).toEqual([]);
  });
});

describe('deciding on proposals', () => {
  it('an agent may neither accept nor reject, not even its own proposal: forbidden, naming the tool, the proposal still pending', async () => {
    const alice = await h.engine.as(ALICE);
    expect(await failure(alice.proposals.accept(mine.proposal_id, 'lithos_proposal_accept'))).toMatchObject({
      code: 'forbidden',
      message: 'lithos_proposal_accept is for the person: agents propose, a person confirms. Use lithos_proposal_list to follow your proposals.',
      data: { tool: 'lithos_proposal_accept' },
    });
    expect((await failure(alice.proposals.reject(mine.proposal_id, 'no', 'lithos_proposal_reject'))).code).toBe('forbidden');
    expect((await h.engine.services.governance.proposals.get(mine.proposal_id)).status).toBe('pending');
    expect(h.vault.paths()).toEqual([]);
  });

  it('the person accepts (the write lands as the agent’s) and rejects with a reason, both audited as the person', async () => {
    const person = await h.engine.as(PERSON);
    expect(await person.proposals.accept(mine.proposal_id, 'lithos_proposal_accept')).toMatchObject({ status: 'accepted', decided_by: 'human', result: { path: 'decisions/ADR 1.md', created: true } });
    expect(h.engine.services.notes.note('decisions/ADR 1.md')!.cached.meta.author).toBe('alice');
    expect(await person.proposals.reject(theirs.proposal_id, 'not yet', 'lithos_proposal_reject')).toMatchObject({ status: 'rejected', decided_by: 'human', reason: 'not yet' });
    const decided = (await h.engine.services.governance.audit.recent({ limit: 10 })).filter((e) => /^proposal\.(accept|reject)$/.test(e.action));
    expect(decided.map((e) => [e.action, e.actor])).toEqual([
      ['proposal.reject', { kind: 'human', id: null }],
      ['proposal.accept', { kind: 'human', id: null }],
    ]);
  });
});
