import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acquireLock } from '../../bridge/lock';
import { FencedBlobStore, LockFence } from '../../bridge/fenced-blobs';
import { NodeVault } from '../../bridge/node-vault';
import { NodeBlobStore } from '../../bridge/node-blob-store';
import { codeOf } from '../twins/error-code';

/**
 * A process whose writer lock was taken over (it was suspended for longer than the stale time, or a synced
 * copy of lock.json replaced it) must stop saving at once: its writes fail with vault_locked and leave the
 * new holder's stores alone.
 */

let tmp: string;
let lithos: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lithos-fenced-'));
  lithos = path.join(tmp, '.lithos');
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const bytes = (s: string) => new TextEncoder().encode(s);

test('store and note writes go through while the lock is ours and fail with vault_locked, writing nothing, once another process holds it', async () => {
  const lock = await acquireLock(lithos, { owner: 'bridge' });
  let clock = 1_000_000;
  const fence = new LockFence(lock, () => clock);
  const blobs = new FencedBlobStore(new NodeBlobStore(lithos), fence);
  const vault = new NodeVault(tmp, { beforeChange: (what) => fence.check(what) });
  await vault.write('note.md', 'mine');
  await blobs.append('memory.journal', bytes('one\n'));
  await blobs.writeAtomic('a.json', bytes('{}'));

  const now = new Date().toISOString();
  fs.writeFileSync(path.join(lithos, 'lock.json'), JSON.stringify({ pid: 1, hostname: 'other-machine', started_at: now, heartbeat_at: now, owner: 'plugin', token: 'theirs' }));
  clock += 1_000; // a confirmation holds for a second (a takeover needs 15 s of silence first)
  expect(await codeOf(blobs.append('memory.journal', bytes('two\n')))).toBe('vault_locked');
  expect(await codeOf(blobs.writeAtomic('a.json', bytes('{"x":1}')))).toBe('vault_locked');
  expect(await codeOf(blobs.remove('a.json'))).toBe('vault_locked');
  // The notes too: Markdown written by a writer that lost the lock would be a note nobody indexed or audited.
  expect(await codeOf(vault.write('note.md', 'changed'))).toBe('vault_locked');
  expect(await codeOf(vault.write('other.md', 'new'))).toBe('vault_locked');
  expect(await codeOf(vault.delete('note.md'))).toBe('vault_locked');
  expect(await codeOf(vault.rename('note.md', 'moved.md'))).toBe('vault_locked');
  expect(fs.readFileSync(path.join(tmp, 'note.md'), 'utf8')).toBe('mine');
  expect(fs.existsSync(path.join(tmp, 'other.md'))).toBe(false);
  expect(fs.readFileSync(path.join(lithos, 'memory.journal'), 'utf8')).toBe('one\n');
  expect(fs.readFileSync(path.join(lithos, 'a.json'), 'utf8')).toBe('{}');
  expect(new TextDecoder().decode((await blobs.read('a.json'))!)).toBe('{}'); // reads still work
  await lock.release();
  expect(JSON.parse(fs.readFileSync(path.join(lithos, 'lock.json'), 'utf8')).token).toBe('theirs'); // theirs is left alone
});
