import { AGENT, HUMAN, openTools, type ToolHarness } from '../tools/fixture';
import { parseNote } from '../../shared/model/note';
import { reconstruct } from '../../shared/ledger/graveyard';
import { contentHash } from '../../shared/model/hash';

/**
 * Accepting a proposal is a write like any other (docs/ledger.md → Graveyard): when the accepted write retires a
 * ledger entry, the entry is buried (stub + graveyard entry) and its state change is audited `ledger.state`,
 * exactly as the proposing agent's own write would have been.
 */

let h: ToolHarness;
beforeEach(async () => {
  h = await openTools({});
});
afterEach(async () => {
  await h.engine.close();
});

const text = (path: string): string => h.vault.text(path) ?? '';
const fromDisk = (note: string) => h.vault.text(`${note}.md`) ?? null;
const audited = (action: string) => h.engine.services.governance.audit.recent({ action });

/** The person's entry; the agent's write of it becomes a proposal (the note is the person's), which the person accepts. */
async function retireByProposal(create: Record<string, unknown>, retire: Record<string, unknown>) {
  const w = await h.call('lithos_write', create, HUMAN);
  const proposed = await h.call('lithos_write', { id: w.id, expected_version: w.version, ...retire }, AGENT);
  expect(proposed).toMatchObject({ status: 'pending', why: 'person_note' });
  expect(text(`${String(create.title)}.md`)).not.toContain('stub'); // nothing moved while it waits
  const accepted = await h.call('lithos_proposal_accept', { proposal_id: proposed.proposal_id }, HUMAN);
  return { w, proposalId: proposed.proposal_id as string, accepted: accepted.proposal };
}

const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
  ['decision', { note_type: 'decision', target: 'session-store', content: 'Use Redis, because sessions must survive a restart.\n' }, { state: 'deprecated' }],
  ['claim', { note_type: 'claim', evidence: ['Backtest 1'], content: 'A pool of 20 is enough.\n\nMeasured twice.\n' }, { state: 'refuted', evidence: ['Backtest 1', { ref: 'Backtest 2', stance: 'refutes' }] }],
  ['workflow', { note_type: 'workflow', context: 'deploys', trigger: 'a release', content: 'Steps:\n\n```sh\nmake\n```\n' }, { state: 'superseded' }],
  ['construct', { note_type: 'construct', code: ['src/pool.ts'], content: '# Pool\n\nThe pool.\nSecond line.\nThird line.\nFourth line.\n' }, { state: 'dead' }],
];

describe('an accepted proposal that retires a ledger entry buries it, as a direct write does', () => {
  for (const [kind, create, retire] of cases) {
    test(kind, async () => {
      const title = `A ${kind}`;
      const { w, proposalId, accepted } = await retireByProposal({ title, ...create }, retire);
      const path = `${title}.md`;
      const stub = text(path);
      expect(stub).toContain(`${String(retire.state).toUpperCase()}.`);
      expect(stub).toContain('[[Lithos/Graveyard/');
      const buried = await reconstruct(stub, fromDisk);
      // The graveyard holds the note exactly as the accepted write left it.
      expect(contentHash(buried)).toBe(accepted.result.version);
      expect(buried).toContain(String(create.content).split('\n')[0]);
      expect(parseNote(path, new TextEncoder().encode(stub)).frontmatter.state).toBe(retire.state);

      // The state change is the agent's (whose write it is), naming the proposal and who accepted it.
      const [state] = await audited('ledger.state');
      expect(state).toMatchObject({
        actor: { kind: 'agent', id: 'agent-a' },
        target: w.id,
        data: { path, kind, from: ({ claim: 'unverified', workflow: 'current' } as Record<string, string>)[kind] ?? 'active', to: retire.state, proposal_id: proposalId, accepted_by: { kind: 'human', id: null } },
      });
      const [move] = await audited('graveyard.move');
      expect(move).toMatchObject({ target: w.id, data: { path, kind, state: retire.state, stubbed: true, cause: { kind: 'agent', id: 'agent-a' } } });
      // Order: the write, its acceptance, then the state change and the move that follow from it.
      const seqs = [(await audited('note.write')).find((e) => e.data.version === accepted.result.version)!.seq, (await audited('proposal.accept'))[0].seq, state.seq, move.seq];
      expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    });
  }

  test('an accepted write that keeps the state moves nothing and audits no state change', async () => {
    await retireByProposal({ title: 'Kept', note_type: 'claim', evidence: ['Backtest 1'], content: 'Still believed.\n' }, { content: 'Still believed, reworded.\n' });
    expect(text('Kept.md')).toContain('Still believed, reworded.');
    expect(await audited('ledger.state')).toEqual([]);
    expect(await audited('graveyard.move')).toEqual([]);
    expect(h.vault.paths().filter((p) => p.startsWith('Lithos/Graveyard/'))).toEqual([]);
  });

  test('a refuted claim brought back by an accepted proposal gets its text back', async () => {
    const { w } = await retireByProposal({ title: 'Back', note_type: 'claim', evidence: ['Backtest 1'], content: 'A pool of 20 is enough.\n' }, { state: 'refuted', evidence: ['Backtest 1', { ref: 'Backtest 2', stance: 'refutes' }] });
    const read = await h.call('lithos_read', { id: w.id }, HUMAN);
    const again = await h.call('lithos_write', { id: w.id, expected_version: read.version, state: 'contested', evidence: ['Backtest 1', { ref: 'Backtest 2', stance: 'refutes' }, 'Backtest 3'] }, AGENT);
    await h.call('lithos_proposal_accept', { proposal_id: again.proposal_id }, HUMAN);
    expect(text('Back.md')).toContain('A pool of 20 is enough.');
    expect((await audited('ledger.state')).map((e) => [e.data.from, e.data.to])).toEqual([['refuted', 'contested'], ['unverified', 'refuted']]);
  });
});
