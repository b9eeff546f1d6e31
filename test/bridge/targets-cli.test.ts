import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './run-cli';

/** `lithos targets` on a real folder: the list, a name's close targets and history, and a merge. */
let root: string;
let vault: string;

function write(rel: string, text: string): void {
  const p = join(vault, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lithos-targets-'));
  vault = join(root, 'vault');
  write('d/Use JWT.md', '---\ntitle: Use JWT\nnote_type: decision\ntarget: Auth Service\n---\nJWT.\n');
  write('d/Rotate.md', '---\ntitle: Rotate keys\nnote_type: decision\ntarget: authsvc\n---\nRotate.\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

test('list, a name, then --merge (with --rewrite); a half-given merge is refused', async () => {
  expect((await cli('targets', vault, '--json')).json().targets.map((t: { target: string }) => t.target)).toEqual(['auth-service', 'authsvc']);
  const named = (await cli('targets', vault, 'AuthService', '--json')).json();
  expect(named.key).toBe('auth-service');
  expect(named.history.map((d: { title: string }) => d.title)).toEqual(['Use JWT']);
  expect((await cli('targets', vault, 'authsv')).out).toContain('Close targets: authsvc');
  await expect(cli('targets', vault, '--merge', 'authsvc')).rejects.toMatchObject({ code: 'invalid_argument' });
  const merged = await cli('targets', vault, '--merge', 'authsvc', '--into', 'auth-service', '--rewrite');
  expect(merged.code).toBe(0);
  expect(merged.out).toContain('now has 2 active decisions');
  expect(readFileSync(join(vault, 'd/Rotate.md'), 'utf8')).toContain('target: Auth Service');
  expect((await cli('targets', vault, '--json')).json().targets).toEqual([{ target: 'auth-service', spellings: ['Auth Service'], aliases: ['authsvc'], decisions: 2, active: 2 }]);
});
