import * as fs from 'node:fs';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { cli } from './run-cli';
import { main } from '../../bridge/cli';

/**
 * `lithos git <vault>`: indexes the commits made since the last run as `commit` events and prints what it
 * added; a second run adds nothing. The repository is the one holding the vault, or git.repository's.
 */
let root: string;
const author = { name: 'Grace Hopper', email: 'grace@example.org' };

async function commit(dir: string, file: string, text: string, message: string): Promise<string> {
  mkdirSync(join(dir, file, '..'), { recursive: true });
  writeFileSync(join(dir, file), text);
  await git.add({ fs, dir, filepath: file });
  return git.commit({ fs, dir, message, author });
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lithos-git-cli-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

test('indexes the vault\'s repository incrementally and lists what each run added', async () => {
  await git.init({ fs, dir: root, defaultBranch: 'main' });
  const vault = join(root, 'vault');
  const first = await commit(root, 'vault/Pool.md', '---\ntitle: Pool\n---\nThe pool was too small.\n', 'Pool notes');
  const second = await commit(root, 'vault/Pool.md', '---\ntitle: Pool\n---\nThe pool was far too small.\n', 'Pool notes, again');

  const r = await cli('git', vault, '--json');
  expect(r.code).toBe(0);
  expect(r.json()).toMatchObject({
    indexed: 2,
    head: second,
    repository: root,
    added: [
      { oid: first, summary: 'Pool notes', author: 'Grace Hopper', links: 1, at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      { oid: second, summary: 'Pool notes, again', links: 1 },
    ],
  });
  expect((await cli('git', vault)).out).toContain(`Up to date: no new commits (HEAD ${second.slice(0, 7)}).`);

  const third = await commit(root, 'README.md', 'About\n', 'Readme outside the vault');
  const text = await cli('git', vault);
  expect(text.out).toMatch(new RegExp(`${third.slice(0, 7)}\\s+\\S+ \\S+\\s+Grace Hopper\\s+0\\s+Readme outside the vault`));
  expect(text.out).toContain('1 commit added as events');
  const events = (await cli('events', vault, '--kind', 'commit', '--json')).json().events as Array<{ summary: string }>;
  expect(events.map((e) => e.summary)).toEqual(['Readme outside the vault', 'Pool notes, again', 'Pool notes']);
});

test('a vault in no repository: nothing to index, said plainly; a bad git.repository is a clear error', async () => {
  const vault = join(root, 'vault');
  mkdirSync(join(vault, '.lithos'), { recursive: true });
  const none = await cli('git', vault);
  expect(none.code).toBe(0);
  expect(none.out).toContain('No git repository holds this vault');
  expect((await cli('git', vault, '--json')).json()).toEqual({ indexed: 0, head: null, repository: null, added: [] });

  writeFileSync(join(vault, '.lithos/learning.json'), JSON.stringify({ version: 1, git: { repository: '../nowhere' } }));
  await expect(main(['git', vault])).rejects.toMatchObject({ code: 'invalid_argument', message: expect.stringContaining(`names "../nowhere" (${join(root, 'nowhere')}), which is not a git repository`) });
});
