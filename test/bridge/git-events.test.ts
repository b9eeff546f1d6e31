import * as fs from 'node:fs';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { nodeGitLog } from '../../bridge/git-log';
import { openHarness, note, type Harness } from '../engine/harness';
import { createDispatcher } from '../../shared/tools/dispatcher';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import type { ToolCaller } from '../../shared/tools/types';

/**
 * Git history as episodic events (shared/learning/git-history.ts over bridge/git-log.ts): committing to the
 * repository holding the vault and re-indexing shows the commit as a `commit` event, incrementally; a commit
 * that changed only notes an agent may see is shown to it, any other is the person's only.
 */
const AGENT: ToolCaller = { kind: 'agent', agent_id: 'agent-a' };
const HUMAN: ToolCaller = { kind: 'human', agent_id: null };
const POOL = 'project/pool.md';
const POOL_TEXT = note({ id: '6f2a7c1e-2b4d-4c8e-9f10-1a2b3c4d5e6f', title: 'Pool sizing' }, 'The pool was too small.\n');
const author = { name: 'Ada Lovelace', email: 'ada@example.org' };

let dir: string;
let h: Harness;

async function commit(files: Record<string, string>, message: string): Promise<string> {
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), text);
    await git.add({ fs, dir, filepath: p });
  }
  return git.commit({ fs, dir, message, author });
}

const commits = async (caller: ToolCaller) => {
  const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: h.engine }));
  return ((await tools.call('lithos_events', { kinds: ['commit'] }, caller)) as { events: Array<{ summary: string; actor: string; scope: string; links: string[]; data: Record<string, unknown> }> }).events;
};

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lithos-git-'));
  await git.init({ fs, dir, defaultBranch: 'main' });
  h = await openHarness({ [POOL]: POOL_TEXT });
  await h.engine.reconcile();
});
afterEach(async () => {
  await h.engine.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a commit becomes an event once indexed; the next index adds only what is new', async () => {
  const learning = h.engine.services.learning;
  await expect(learning.indexGit()).rejects.toMatchObject({ code: 'unsupported' });
  const gitLog = await nodeGitLog(dir);
  expect(gitLog).not.toBeNull();
  learning.setGitLog(gitLog);
  expect(await learning.indexGit()).toMatchObject({ indexed: 0, head: null }); // no commit yet

  const first = await commit({ [POOL]: POOL_TEXT }, 'Pool sizing: first notes\n\nWhy the pool was too small.');
  expect(await learning.indexGit()).toEqual({ indexed: 1, head: first });
  const [c1] = await commits(HUMAN);
  expect(c1).toMatchObject({ summary: 'Pool sizing: first notes', actor: 'Ada Lovelace', scope: 'shared', links: ['6f2a7c1e-2b4d-4c8e-9f10-1a2b3c4d5e6f'] });
  expect(c1.data).toMatchObject({ oid: first, body: 'Why the pool was too small.', changed: 1 });

  const second = await commit({ [POOL]: POOL_TEXT.replace('too small', 'far too small'), 'assets/chart.png': 'png' }, 'Add the chart');
  expect(await learning.indexGit()).toEqual({ indexed: 1, head: second });
  expect(await learning.indexGit()).toEqual({ indexed: 0, head: second });
  const runs = await h.engine.services.governance.audit.recent({ action: 'events.git', limit: 10 });
  expect(runs.map((e) => e.data)).toEqual([{ indexed: 1, head: second, since: first }, { indexed: 1, head: first, since: null }]);
  const both = await commits(HUMAN);
  expect(both.map((c) => c.summary)).toEqual(['Add the chart', 'Pool sizing: first notes']);
  // It changed a file that is not a note: its paths could name what an agent may not see, so the person's only.
  expect(both[0]).toMatchObject({ scope: 'user_private', data: { paths: expect.arrayContaining([POOL, 'assets/chart.png']), changed: 2 } });
  expect((await commits(AGENT)).map((c) => c.summary)).toEqual(['Pool sizing: first notes']);
});

test('a folder outside any repository has no git history', async () => {
  const bare = mkdtempSync(join(tmpdir(), 'lithos-nogit-'));
  try {
    expect(await nodeGitLog(bare)).toBeNull();
  } finally {
    rmSync(bare, { recursive: true, force: true });
  }
});
