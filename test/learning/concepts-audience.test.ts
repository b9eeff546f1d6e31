import { note, type Harness } from '../engine/harness';
import { LAG, PRIVATE, SUMMARY, coactivate, openFixture } from './consolidation-fixture';
import { canSee, gatedNote } from '../../shared/governance/gate';
import { conceptMembers as membersOf } from '../../shared/learning/concepts';

/**
 * Concept and summary notes are text the engine writes: whoever may read one must be able to read every
 * note it lists or quotes (governance/audience.ts). The scope probe that found these: a shared-namespace
 * concept listed a project/ab note to agents covering only project/a, and quoted another agent's note.
 */

let h: Harness;
beforeEach(async () => {
  h = await openFixture();
});
afterEach(() => h.engine.close());

const run = () => h.engine.services.learning.consolidator.run();
const concepts = () => h.engine.services.notes.notes().filter((n) => n.cached.meta.note_type === 'concept');
const lagIds = LAG.map((n) => n.id);

/** A project-scope note about Kafka lag in `namespace`. */
async function projectNote(namespace: string, n: number): Promise<string> {
  const id = `0000000${n}-ffff-4fff-8fff-00000000000${n}`;
  h.vault.put(`${namespace}/Lag case p${n}.md`, note({ id, title: `Lag case p${n}`, access_scope: 'project', namespace, tags: ['kafka'] }, 'Kafka consumer lag in the consumer group after a partition rebalance.\n'));
  await h.engine.reconcile();
  return id;
}

test('shared notes and project notes of one namespace make a concept readable only by that namespace\'s agents', async () => {
  const p = await projectNote('project/ab', 1);
  await coactivate(h, [...lagIds.slice(0, 4), p], 3);
  expect((await run()).concepts_created).toHaveLength(1);
  expect(concepts()[0].cached.meta).toMatchObject({ access_scope: 'project', namespace: 'project/ab' });
});

test('project notes of two namespaces never share a concept (project/a and project/ab have different readers)', async () => {
  const a = await projectNote('project/a', 1);
  const ab = await projectNote('project/ab', 2);
  await coactivate(h, [...lagIds.slice(0, 3), a, ab], 3);
  expect((await run()).concepts_created).toEqual([]); // without one of them, four notes: below the minimum size
});

test('notes in a hidden folder take no part', async () => {
  await h.engine.services.governance.policy.set({ ...h.engine.services.governance.policy.get(), hidden_folders: ['project/streams'] });
  await coactivate(h, lagIds, 3);
  expect((await run()).concepts_created).toEqual([]);
});

test('a concept lists only members its readers may still read: a member made private since drops out of the list at the next consolidation', async () => {
  await coactivate(h, lagIds, 3);
  await run();
  const [c] = concepts();
  // Two members narrowed: the four left are below the minimum size, so no cluster is detected again.
  for (const victim of [LAG[4], LAG[5]]) await h.engine.services.notes.updateFrontmatter(victim.path, (fm) => void (fm.access_scope = 'agent_private'));
  await run(); // the list is checked anyway
  const body = (await h.engine.services.notes.parse(c.path)).body;
  for (const victim of [LAG[4], LAG[5]]) expect(body).not.toContain(victim.path.replace(/\.md$/, ''));
  expect(body).toContain(LAG[0].path.replace(/\.md$/, ''));
});

test('a summary note never quotes a note its readers may not read (a project note of a namespace they may not cover, a private note)', async () => {
  await projectNote('project/ab', 3);
  await h.engine.services.governance.policy.set({ ...h.engine.services.governance.policy.get(), default_namespaces: ['project/streams'] }); // agents do not read project/ab
  h.vault.put(SUMMARY.path, note({ id: SUMMARY.id, title: 'Streams summary', note_type: 'summary' }, 'What we know: [[Lag case a1]], [[Lag case p3]] and [[agent/agent-b/Scratch]].\n'));
  await h.engine.reconcile();
  await run();
  const s = (await h.engine.services.notes.parse(SUMMARY.path)).frontmatter.summaries as { long: string };
  expect(s.long).toContain('orders topic'); // Lag case a1, shared
  expect(s.long).not.toContain('partition rebalance');
  expect(s.long).not.toContain('Private scratch');
  expect(h.engine.services.notes.note(PRIVATE.id)).not.toBeNull();
});

describe('a concept never widens anyone’s view', () => {
  /** Every viewer the gate knows: agents with their own allowlists, the default one, and a keyless (unverified) agent. */
  const viewers = () => {
    const g = h.engine.services.governance;
    return [
      g.viewerFor({ kind: 'agent', agent_id: 'agent-a' }),
      g.viewerFor({ kind: 'agent', agent_id: 'agent-ab' }),
      g.viewerFor({ kind: 'agent', agent_id: 'agent-streams' }),
      g.viewerFor({ kind: 'agent', agent_id: 'agent-x', verified: false }),
    ];
  };
  /** The notes a concept lists in its managed block, by path. */
  const listed = async (path: string): Promise<string[]> => {
    const body = (await h.engine.services.notes.parse(path)).body;
    return [...body.matchAll(/\[\[([^|\]]+)\|/g)].map((m) => `${m[1]}.md`);
  };

  const TEAM = '00000009-ffff-4fff-8fff-000000000009';
  async function restrictedVault(): Promise<void> {
    const policy = h.engine.services.governance.policy;
    await policy.set({ ...policy.get(), default_namespaces: ['project/streams'], agents: { 'agent-ab': { namespaces: ['project/ab'] }, 'agent-streams': { namespaces: ['project/streams', 'project/ab'] } }, shared_patterns: ['team/**'] });
    // A project-scope note in a shared-pattern namespace: every agent with a key reads it, a keyless one does not.
    h.vault.put('team/Lag runbook.md', note({ id: TEAM, title: 'Lag runbook', access_scope: 'project', namespace: 'team', tags: ['kafka'] }, 'Kafka consumer lag runbook: check the consumer group and the partition count.\n'));
    await h.engine.reconcile();
  }

  test.each([
    ['shared notes, a project/ab note, a team note and a private note', true],
    ['shared notes and a team note', false],
  ])('whoever may read a concept may read every member it lists and links: used together are %s', async (_what, withProject) => {
    await restrictedVault();
    const extra = withProject ? [await projectNote('project/ab', 1), PRIVATE.id] : [];
    await coactivate(h, [...lagIds, TEAM, ...extra], 3);
    await run();
    const made = concepts();
    expect(made.length).toBeGreaterThan(0);
    const byPath = (path: string) => h.engine.services.notes.note(path)!;
    let checked = 0;
    for (const c of made) {
      const members = [...new Set([...(await listed(c.path)).map((x) => byPath(x).nodeId), ...membersOf({ memory: h.engine.services.learning.memory, notes: h.engine.services.notes }, c.nodeId)])];
      expect(members.length).toBeGreaterThan(0);
      for (const v of viewers()) {
        if (!canSee(v, gatedNote(c))) continue;
        for (const id of members) {
          expect({ viewer: v.agent_id, member: h.engine.services.notes.note(id)!.path, sees: canSee(v, gatedNote(h.engine.services.notes.note(id)!)) }).toMatchObject({ sees: true });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
