import { BRIEFING_MAX_LINES } from '../../shared/ledger/briefing';
import { note } from '../engine/harness';
import { HUMAN, openTools } from '../tools/fixture';

/**
 * Done when: lithos_briefing for an agent returns at most 100 lines and contains no note that agent may not
 * read. One hidden entry of each telling kind (an active decision, a refuted claim, a contested claim, a dead
 * construct) per way of being hidden, each with a token in its title and its own target; the agent's briefing
 * names, counts and hints at none of them, while the person's names them all.
 */

const HIDDEN: Record<string, { dir: string; fm: Record<string, unknown> }> = {
  agent_private: { dir: 'agent/agent-b', fm: { access_scope: 'agent_private', author: 'agent-b' } },
  user_private: { dir: 'people', fm: { access_scope: 'user_private', author: 'human' } },
  other_project: { dir: 'project/orion', fm: { namespace: 'project/orion', access_scope: 'project' } },
  hidden_folder: { dir: 'vault-secret', fm: {} },
};
const token = (k: string, what: string) => `qx${k.replace(/_/g, '')}${what}zz`;

const files: Record<string, string> = {
  'project/atlas/Visible.md': note({ title: 'Visible choice', note_type: 'decision', target: 'visible store', namespace: 'project/atlas', access_scope: 'project', ledger_id: 'D001-vvvv' }, 'Chosen.\n'),
  'project/atlas/Refuted.md': note({ title: 'Visible refuted', note_type: 'claim', state: 'refuted', namespace: 'project/atlas', access_scope: 'project', ledger_id: 'E002-vvvv', evidence: [{ ref: '[[Visible]]', stance: 'refutes' }] }, 'No.\n'),
};
let n = 10;
for (const [k, { dir, fm }] of Object.entries(HIDDEN)) {
  const id = (p: string) => `${p}${String(n++).padStart(3, '0')}-hhhh`;
  files[`${dir}/${token(k, 'dec')}.md`] = note({ title: `Decision ${token(k, 'dec')}`, note_type: 'decision', target: `${token(k, 'target')}`, ledger_id: id('D'), ...fm }, 'Chosen.\n');
  files[`${dir}/${token(k, 'ref')}.md`] = note({ title: `Claim ${token(k, 'ref')}`, note_type: 'claim', state: 'refuted', ledger_id: id('E'), evidence: [{ ref: 'x', stance: 'refutes' }], ...fm }, 'No.\n');
  files[`${dir}/${token(k, 'con')}.md`] = note({ title: `Claim ${token(k, 'con')}`, note_type: 'claim', state: 'contested', ledger_id: id('E'), evidence: ['x'], ...fm }, 'Maybe.\n');
  files[`${dir}/${token(k, 'dead')}.md`] = note({ title: `Construct ${token(k, 'dead')}`, note_type: 'construct', state: 'dead', ledger_id: id('C'), ...fm }, '# Gone\nDead.\n');
}

test('an agent\'s briefing holds at most 100 lines and nothing it may not read; the person\'s holds everything', async () => {
  const h = await openTools(files);
  await h.engine.services.governance.policy.set({
    version: 1,
    default_namespaces: [],
    agents: { 'agent-a': { namespaces: ['project/atlas'] } },
    shared_patterns: [],
    propose_namespaces: [],
    hidden_folders: ['vault-secret'],
  });
  // A conflict between a hidden note and a visible one: the person's to see, not the agent's.
  const visible = h.engine.services.notes.note('project/atlas/Visible.md')!;
  const hiddenDecision = h.engine.services.notes.note(`people/${token('user_private', 'dec')}.md`)!;
  await h.engine.services.conflicts.open({ a: visible.nodeId, b: hiddenDecision.nodeId, actor: { kind: 'human', id: null } });

  const r = await h.call('lithos_briefing', {});
  const text: string = r.briefing;
  expect(text.split('\n').length - 1).toBeLessThanOrEqual(BRIEFING_MAX_LINES);
  expect(r.lines).toBeLessThanOrEqual(BRIEFING_MAX_LINES);
  expect(text).toContain('D001-vvvv "Visible choice"');
  expect(text).toContain('E002-vvvv "Visible refuted" is refuted');
  for (const k of Object.keys(HIDDEN)) expect(text).not.toContain(`qx${k.replace(/_/g, '')}`);
  expect(text).not.toContain('-hhhh');
  for (const p of Object.keys(files).filter((p) => !p.startsWith('project/atlas/'))) expect(text).not.toContain(h.engine.services.notes.note(p)!.nodeId);
  // Not even counted: the agent reads of two entries, and no conflict.
  expect(text).toContain('from 2 ledger entries of 2 kinds');
  expect(text).toMatch(/## Open conflicts\n_None\._/);

  const person: string = (await h.call('lithos_briefing', {}, HUMAN)).briefing;
  for (const k of Object.keys(HIDDEN)) for (const w of ['dec', 'ref', 'con', 'dead']) expect(person).toContain(token(k, w));
  expect(person).toContain(`D001-vvvv "Visible choice" ⟷ ${hiddenDecision.cached.meta.ledger!.ledger_id}`);
  await h.engine.close();
});

test('drift alerts about notes the reader may not see are dropped by the room', async () => {
  const h = await openTools(files);
  await h.engine.services.governance.policy.set({ version: 1, default_namespaces: [], agents: { 'agent-a': { namespaces: ['project/atlas'] } }, shared_patterns: [], propose_namespaces: [] });
  const hidden = h.engine.services.notes.note(`people/${token('user_private', 'con')}.md`)!;
  const shown = h.engine.services.notes.note('project/atlas/Refuted.md')!;
  const session = await h.engine.as({ kind: 'agent', agent_id: 'agent-a' });
  const text = await session.briefing.text({ drift: [{ node_id: hidden.nodeId, reason: 'contested 20 days', urgency: 9 }, { node_id: shown.nodeId, reason: 'unreviewed 15 days', urgency: 1 }] });
  expect(text).toContain('## Drift alerts\n- E002-vvvv "Visible refuted": unreviewed 15 days\n');
  expect(text).not.toContain('contested 20 days');
  await h.engine.close();
});

test('by default the briefing shows the reader\'s own drift triage: a stale contested claim it sees, none it may not see', async () => {
  const old = '2025-12-12T00:00:00.000Z'; // 20 days before the harness's clock
  const h = await openTools({
    'project/atlas/Stale.md': note({ title: 'Stale claim', note_type: 'claim', state: 'contested', namespace: 'project/atlas', access_scope: 'project', ledger_id: 'E030-vvvv', evidence: ['x'], created_at: old, updated_at: old }, 'Maybe.\n'),
    'people/Hidden.md': note({ title: 'Hidden qxstalezz', note_type: 'claim', state: 'contested', access_scope: 'user_private', ledger_id: 'E031-hhhh', evidence: ['x'], created_at: old, updated_at: old }, 'Maybe.\n'),
  });
  await h.engine.services.governance.policy.set({ version: 1, default_namespaces: [], agents: { 'agent-a': { namespaces: ['project/atlas'] } }, shared_patterns: [], propose_namespaces: [] });
  const text: string = (await h.call('lithos_briefing', {})).briefing;
  expect(text).toMatch(/## Drift alerts\n(- .*\n)*- E030-vvvv "Stale claim": contested claim, 20 days \(threshold 14\)/);
  expect(text).not.toContain('E031-hhhh');
  expect(text).not.toContain('qxstalezz');
  const person: string = (await h.call('lithos_briefing', {}, HUMAN)).briefing;
  expect(person).toContain('E031-hhhh "Hidden qxstalezz": contested claim, 20 days (threshold 14)');
  await h.engine.close();
});
