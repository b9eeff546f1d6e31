import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeBlobStore } from '../../bridge/node-blob-store';
import { acquireLock } from '../../bridge/lock';
import { systemClock, systemTimers } from '../../shared/ports';
import { HeartbeatLock } from '../../shared/coordination/heartbeat-lock';
import { LOCK_FILE, parseLockInfo } from '../../shared/coordination/lock-info';
import { MemoryBlobStore } from '../twins/memory-blobs';
import { FakeClock } from '../twins/fake-clock';

const settle = () => new Promise((r) => setImmediate(r));

describe('HeartbeatLock: one writer per vault across hosts', () => {
  test('the first claimant holds it; a second sees the holder; release frees it', async () => {
    const blobs = new MemoryBlobStore();
    const clock = new FakeClock();
    const a = new HeartbeatLock(blobs, clock, clock, 'plugin');
    const b = new HeartbeatLock(blobs, clock, clock, 'bridge');
    expect(await a.tryAcquire()).toBeNull();
    expect(await b.tryAcquire()).toMatchObject({ owner: 'plugin' });
    await a.release();
    expect(await blobs.read(LOCK_FILE)).toBeNull();
    expect(await b.tryAcquire()).toBeNull();
  });

  test('a heartbeat keeps the lock live; a holder that stops beating goes stale after 15 s', async () => {
    const blobs = new MemoryBlobStore();
    const clock = new FakeClock();
    const a = new HeartbeatLock(blobs, clock, clock, 'plugin');
    await a.tryAcquire();
    for (let i = 0; i < 6; i++) {
      clock.advance(5000);
      await settle();
    }
    const other = new HeartbeatLock(blobs, clock, clock, 'cli');
    expect(await other.tryAcquire()).toMatchObject({ owner: 'plugin' });
    // a crashed holder: the file stays, the heartbeat stops
    const crashed = new MemoryBlobStore();
    crashed.files.set(LOCK_FILE, blobs.files.get(LOCK_FILE)!);
    clock.advance(15_001);
    expect(await new HeartbeatLock(crashed, clock, clock, 'cli').tryAcquire()).toBeNull();
    expect(parseLockInfo(crashed.files.get(LOCK_FILE)!)?.owner).toBe('cli');
  });

  test('a holder whose lock is taken over is told, and release leaves the new holder alone', async () => {
    const blobs = new MemoryBlobStore();
    const clock = new FakeClock();
    const lost: unknown[] = [];
    const a = new HeartbeatLock(blobs, clock, clock, 'plugin', (by) => lost.push(by));
    await a.tryAcquire();
    blobs.files.set(LOCK_FILE, new TextEncoder().encode(JSON.stringify({ pid: 42, hostname: 'h', started_at: '', heartbeat_at: new Date(clock.now()).toISOString(), owner: 'cli', token: 't' })));
    clock.advance(5000);
    await settle();
    expect(lost).toEqual([expect.objectContaining({ owner: 'cli' })]);
    expect(a.isHeld()).toBe(false);
    await a.release();
    expect(parseLockInfo(blobs.files.get(LOCK_FILE)!)?.owner).toBe('cli');
  });

  test('an unreadable lock file is treated as free', async () => {
    const blobs = new MemoryBlobStore();
    blobs.files.set(LOCK_FILE, new TextEncoder().encode('{"half'));
    const clock = new FakeClock();
    expect(await new HeartbeatLock(blobs, clock, clock, 'plugin').tryAcquire()).toBeNull();
  });
});

describe('the plugin lock and the CLI lock exclude each other on a real .lithos folder', () => {
  test('CLI refuses while the plugin holds it; the plugin waits while the CLI holds it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lithos-lock-'));
    try {
      const lithos = join(dir, '.lithos');
      const plugin = new HeartbeatLock(new NodeBlobStore(lithos), systemClock, systemTimers, 'plugin');
      expect(await plugin.tryAcquire()).toBeNull();
      await expect(acquireLock(lithos, { owner: 'cli' })).rejects.toMatchObject({ code: 'vault_locked' });
      await plugin.release();
      const cli = await acquireLock(lithos, { owner: 'cli' });
      expect(await plugin.tryAcquire()).toMatchObject({ owner: 'cli', pid: process.pid });
      await cli.release();
      expect(await plugin.tryAcquire()).toBeNull();
      await plugin.release();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
