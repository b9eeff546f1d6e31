import { note, openHarness } from '../engine/harness';
import type { MemoryVault } from '../twins/memory-vault';
import { HUMAN, openTools, type ToolHarness } from '../tools/fixture';
import { findBlocks } from '../../shared/conflicts/callout-blocks';

/**
 * A conflict callout is text inside a note, read by every agent that may read that note: it names and
 * quotes the other note only when all of those agents may read the other note too (governance/audience.ts).
 */

const entity = { entities: ['atlas-ingest'] };
const FILES: Record<string, string> = {
  'shared/Pool.md': note({ title: 'Pool', access_scope: 'shared', ...entity }, 'The ingest pool size is 20.\n'),
  'private/Hidden pool.md': note({ title: 'Hidden pool', access_scope: 'shared', ...entity }, 'The ingest pool size is 50.\n'),
  'project/ab/Ab pool.md': note({ title: 'Ab pool', access_scope: 'project', ...entity }, 'The ingest pool size is 60.\n'),
  'project/a/A pool.md': note({ title: 'A pool', access_scope: 'project', ...entity }, 'The ingest pool size is 70.\n'),
  'project/a/A pool two.md': note({ title: 'A pool two', access_scope: 'project', ...entity }, 'The ingest pool size is 75.\n'),
  'Diary.md': note({ title: 'Diary', access_scope: 'user_private', ...entity }, 'The ingest pool size is 90.\n'),
  'agent/agent-b/B pool.md': note({ title: 'B pool', access_scope: 'agent_private', author: 'agent-b', ...entity }, 'The ingest pool size is 80.\n'),
};

/** For each conflict callout in the note: the other note's title when named, else 'narrower'. */
function named(h: ToolHarness, path: string): string[] {
  return namedIn(h.vault, path);
}

function namedIn(vault: MemoryVault, path: string): string[] {
  const text = vault.text(path)!;
  return findBlocks(text)
    .filter((b) => b.key.startsWith('conflict '))
    .map((b) => {
      const block = text.slice(b.start, b.end);
      const m = /Contradicts \[\[([^|\]]+)(?:\|([^\]]+))?\]\]/.exec(block);
      return m ? (m[2] ?? m[1]) : /Contradicts a note with narrower access/.test(block) ? 'narrower' : '?';
    })
    .sort();
}

let h: ToolHarness;
beforeAll(async () => {
  h = await openTools(FILES);
  await h.engine.services.governance.policy.set({ ...h.engine.services.governance.policy.get(), hidden_folders: ['private'], default_namespaces: [], agents: { 'agent-b': { namespaces: ['project/a'] } } });
  await h.engine.services.conflicts.scan();
});
afterAll(() => h.engine.close());

test.each([
  // A shared note is read by every agent: it names only notes every agent reads.
  ['shared/Pool.md', ['narrower', 'narrower', 'narrower', 'narrower', 'narrower', 'narrower']],
  // A project note (read by agent-b only) names shared notes and notes of namespaces agent-b reads, never project/ab (prefix confusion).
  ['project/a/A pool.md', ['A pool two', 'Pool', 'narrower', 'narrower', 'narrower', 'narrower']],
  // agent-b's private note: its owner's allowlist covers project/a, not project/ab.
  ['agent/agent-b/B pool.md', ['A pool', 'A pool two', 'Pool', 'narrower', 'narrower', 'narrower']],
  // No agent reads the person's diary or a hidden folder's note: every other note may be named there.
  ['Diary.md', ['A pool', 'A pool two', 'Ab pool', 'B pool', 'Hidden pool', 'Pool']],
  ['private/Hidden pool.md', ['A pool', 'A pool two', 'Ab pool', 'B pool', 'Diary', 'Pool']],
])('%s names %j', (path, expected) => {
  expect(named(h, path)).toEqual(expected);
});

test('a note that is not named is not quoted either: only this note\'s own sentence', () => {
  const pool = h.vault.text('shared/Pool.md')!;
  for (const hidden of ['50', '60', '70', '75', '80', '90']) expect(pool).not.toContain(`pool size is ${hidden}`);
  expect(pool).toContain('This note: "The ingest pool size is 20".');
  expect(pool).not.toContain('The other:');
  expect(h.vault.text('project/a/A pool.md')).toContain('The other: "The ingest pool size is 20".');
});

test('the person still sees every pair in the conflict list', async () => {
  expect((await h.call('lithos_conflict_list', {}, HUMAN)).conflicts).toHaveLength(21); // 7 notes, every pair
});

test('with the default policy (every agent reads every project namespace) project notes name each other', async () => {
  const d = await openTools(FILES);
  await d.engine.services.conflicts.followPolicy(); // as the plugin and headless lithos mcp do once open
  await d.engine.services.governance.policy.set({ ...d.engine.services.governance.policy.get(), hidden_folders: ['private'] });
  await d.engine.services.conflicts.scan();
  expect(named(d, 'project/a/A pool.md')).toEqual(['A pool two', 'Ab pool', 'Pool', 'narrower', 'narrower', 'narrower']);
  expect(named(d, 'shared/Pool.md')).toEqual(['A pool', 'A pool two', 'Ab pool', 'narrower', 'narrower', 'narrower']);
  // Narrowing the policy brings the callouts in line at once: project/ab is now read by fewer agents.
  await d.engine.services.governance.policy.set({ ...d.engine.services.governance.policy.get(), default_namespaces: ['project/a'] });
  await d.engine.services.conflicts.drain();
  expect(named(d, 'project/a/A pool.md')).toEqual(['A pool two', 'Pool', 'narrower', 'narrower', 'narrower', 'narrower']);
  expect(named(d, 'shared/Pool.md')).toEqual(['A pool', 'A pool two', 'narrower', 'narrower', 'narrower', 'narrower']);
  await d.engine.close();
});

test('once an agent key is issued, a shared note names shared notes only: an agent without its key reads nothing else', async () => {
  const d = await openTools(FILES);
  await d.engine.services.conflicts.followPolicy();
  await d.engine.services.governance.policy.set({ ...d.engine.services.governance.policy.get(), hidden_folders: ['private'] });
  await d.engine.services.conflicts.scan();
  expect(named(d, 'shared/Pool.md')).toEqual(['A pool', 'A pool two', 'Ab pool', 'narrower', 'narrower', 'narrower']);
  await d.engine.services.governance.agentKeys.issue('agent-b');
  // Keys are issued from the command line (lithos agents key): the callouts follow at the next policy check.
  await d.engine.services.conflicts.policyChanged();
  expect(named(d, 'shared/Pool.md')).toEqual(['narrower', 'narrower', 'narrower', 'narrower', 'narrower', 'narrower']);
  expect(d.vault.text('shared/Pool.md')).not.toContain('pool size is 70');
  // A project note is read by verified agents only: it still names what they all read.
  expect(named(d, 'project/a/A pool.md')).toEqual(['A pool two', 'Ab pool', 'Pool', 'narrower', 'narrower', 'narrower']);
  await d.engine.close();
});

test('a policy changed while no host had the vault open (lithos policy, a hand edit) is applied to the callouts at the next open', async () => {
  const first = await openHarness(FILES);
  await first.engine.reconcile();
  await first.engine.services.governance.policy.set({ ...first.engine.services.governance.policy.get(), hidden_folders: ['private'] });
  await first.engine.services.conflicts.followPolicy();
  await first.engine.services.conflicts.scan();
  expect(namedIn(first.vault, 'project/a/A pool.md')).toContain('Ab pool');
  await first.engine.close();
  // Narrowed from outside: policy.json rewritten while nothing had the vault open.
  const raw = JSON.parse(new TextDecoder().decode((await first.blobs.read('policy.json'))!)) as Record<string, unknown>;
  await first.blobs.writeAtomic('policy.json', new TextEncoder().encode(JSON.stringify({ ...raw, default_namespaces: ['project/a'] })));
  const again = await openHarness({}, { vault: first.vault, blobs: first.blobs, clock: first.clock });
  await again.engine.reconcile();
  await again.engine.services.conflicts.followPolicy();
  expect(namedIn(again.vault, 'project/a/A pool.md')).not.toContain('Ab pool');
  expect(again.vault.text('project/a/A pool.md')).not.toContain('pool size is 60');
  await again.engine.close();
});
