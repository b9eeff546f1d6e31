import * as fs from 'node:fs';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { nodeGitLog, nodeGitSource } from '../../bridge/git-log';
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
  learning.setGitSource(nodeGitSource(dir));
  expect(await learning.indexGit()).toEqual({ indexed: 0, head: null, repository: dir, added: [] }); // no commit yet

  const first = await commit({ [POOL]: POOL_TEXT }, 'Pool sizing: first notes\n\nWhy the pool was too small.');
  expect(await learning.indexGit()).toMatchObject({ indexed: 1, head: first, added: [{ event_id: `git-${first}`, oid: first, summary: 'Pool sizing: first notes', author: 'Ada Lovelace', links: 1 }] });
  const [c1] = await commits(HUMAN);
  expect(c1).toMatchObject({ summary: 'Pool sizing: first notes', actor: 'Ada Lovelace', scope: 'shared', links: ['6f2a7c1e-2b4d-4c8e-9f10-1a2b3c4d5e6f'] });
  expect(c1.data).toMatchObject({ oid: first, body: 'Why the pool was too small.', changed: 1 });

  const second = await commit({ [POOL]: POOL_TEXT.replace('too small', 'far too small'), 'assets/chart.png': 'png' }, 'Add the chart');
  expect(await learning.indexGit()).toMatchObject({ indexed: 1, head: second, added: [{ oid: second, summary: 'Add the chart' }] });
  expect(await learning.indexGit()).toEqual({ indexed: 0, head: second, repository: dir, added: [] });
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

describe('the repository named in settings (git.repository in .lithos/learning.json)', () => {
  let other: string;
  beforeEach(async () => {
    other = mkdtempSync(join(tmpdir(), 'lithos-code-'));
    await git.init({ fs, dir: other, defaultBranch: 'main' });
  });
  afterEach(() => rmSync(other, { recursive: true, force: true }));

  const commitIn = async (repo: string, file: string, message: string): Promise<string> => {
    mkdirSync(join(repo, file, '..'), { recursive: true });
    writeFileSync(join(repo, file), `${message}\n`);
    await git.add({ fs, dir: repo, filepath: file });
    return git.commit({ fs, dir: repo, message, author });
  };

  test('is indexed instead of the vault\'s own: its commits are the person\'s, with their repository paths', async () => {
    const learning = h.engine.services.learning;
    await commit({ [POOL]: POOL_TEXT }, 'Notes about the pool');
    const fix = await commitIn(other, 'src/pool.ts', 'Grow the pool to 32');
    learning.setGitSource(nodeGitSource(dir));
    await learning.tunables.set({ git: { repository: other } });

    expect(await learning.indexGit()).toMatchObject({ indexed: 1, head: fix, repository: other, added: [{ oid: fix, summary: 'Grow the pool to 32', links: 0 }] });
    const [c] = await commits(HUMAN);
    // The other repository's paths name no note of the vault (a README.md there is not the vault's README.md).
    expect(c).toMatchObject({ summary: 'Grow the pool to 32', scope: 'user_private', links: [], data: { oid: fix, repository: other, paths: ['src/pool.ts'], changed: 1 } });
    expect(await commits(AGENT)).toEqual([]);
    const [run] = await h.engine.services.governance.audit.recent({ action: 'events.git', limit: 1 });
    expect(run.data).toEqual({ indexed: 1, head: fix, since: null, repository: other });
    const [set] = await h.engine.services.governance.audit.recent({ action: 'learning.set', limit: 1 });
    expect(set.data).toMatchObject({ changed: { 'git.repository': [null, other] } });
  });

  test('a relative setting is read from the vault folder', async () => {
    const learning = h.engine.services.learning;
    const vault = join(other, 'vault');
    mkdirSync(vault);
    const code = mkdtempSync(join(tmpdir(), 'lithos-sibling-'));
    try {
      await git.init({ fs, dir: code, defaultBranch: 'main' });
      const oid = await commitIn(code, 'README.md', 'First');
      learning.setGitSource(nodeGitSource(vault));
      await learning.tunables.set({ git: { repository: join('..', '..', code.split(/[/\\]/).pop() ?? '') } });
      expect(await learning.indexGit()).toMatchObject({ indexed: 1, head: oid, repository: code });
    } finally {
      rmSync(code, { recursive: true, force: true });
    }
  });

  test('a folder that is not a repository is a clear error, and nothing is indexed until it is fixed', async () => {
    const learning = h.engine.services.learning;
    const plain = mkdtempSync(join(tmpdir(), 'lithos-plain-'));
    try {
      learning.setGitSource(nodeGitSource(dir));
      await learning.tunables.set({ git: { repository: plain } });
      await expect(learning.indexGit()).rejects.toMatchObject({
        code: 'invalid_argument',
        message: expect.stringContaining(`names "${plain}" (${plain}), which is not a git repository`),
        data: { field: 'git.repository', repository: plain },
      });
      // A folder inside a repository is not its top folder: the error names the one to set instead.
      mkdirSync(join(other, 'src'));
      await learning.tunables.set({ git: { repository: join(other, 'src') } });
      await expect(learning.indexGit()).rejects.toMatchObject({ code: 'invalid_argument', message: expect.stringContaining(`inside the repository at ${other}; name that folder`) });
      expect(await commits(HUMAN)).toEqual([]);

      const oid = await commitIn(other, 'a.txt', 'Fixed');
      await learning.tunables.set({ git: { repository: other } });
      expect(await learning.indexGit()).toMatchObject({ indexed: 1, head: oid, repository: other });
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });

  test('the setting is validated like every learning setting, and unset goes back to the vault\'s repository', async () => {
    const learning = h.engine.services.learning;
    await expect(learning.tunables.set({ git: { repository: '  ' } })).rejects.toMatchObject({ code: 'invalid_argument', message: expect.stringContaining('git.repository: must name a directory') });
    await expect(learning.tunables.set({ git: { repo: other } })).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(learning.tunables.get().git.repository).toBeNull();
    await learning.tunables.set({ git: { repository: other } });
    expect(learning.tunables.overrides()).toEqual({ git: { repository: other } });
    await learning.tunables.set({ git: { repository: null } });
    expect(learning.tunables.overrides()).toEqual({});
  });
});

test('a vault in no repository indexes nothing: the report names no repository and nothing is audited', async () => {
  const bare = mkdtempSync(join(tmpdir(), 'lithos-nogit-'));
  try {
    const learning = h.engine.services.learning;
    learning.setGitSource(nodeGitSource(bare));
    expect(await learning.indexGit()).toEqual({ indexed: 0, head: null, repository: null, added: [] });
    expect(await learning.indexGit()).toEqual({ indexed: 0, head: null, repository: null, added: [] });
    expect(await h.engine.services.governance.audit.recent({ action: 'events.git', limit: 1 })).toEqual([]);
  } finally {
    rmSync(bare, { recursive: true, force: true });
  }
});

test('a repository made after the vault opened is found at the next run', async () => {
  const later = mkdtempSync(join(tmpdir(), 'lithos-later-'));
  try {
    const learning = h.engine.services.learning;
    learning.setGitSource(nodeGitSource(later));
    expect(await learning.indexGit()).toMatchObject({ repository: null });
    await git.init({ fs, dir: later, defaultBranch: 'main' });
    writeFileSync(join(later, 'a.md'), 'a\n');
    await git.add({ fs, dir: later, filepath: 'a.md' });
    const oid = await git.commit({ fs, dir: later, message: 'First', author });
    expect(await learning.indexGit()).toMatchObject({ indexed: 1, head: oid, repository: later });
  } finally {
    rmSync(later, { recursive: true, force: true });
  }
});
