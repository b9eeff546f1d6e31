import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { buildSync } from 'esbuild';
import { SAME_HOST_SILENT_MS, acquireLock, readLock, type LockInfo, type VaultLock } from '../../bridge/lock';
import { LithosError } from '../../shared/errors';
import { codeOf } from '../twins/error-code';
import { HANG_MS } from '../eventually';

let tmp: string;
let vault: string;
let lithos: string;
let lockFile: string;
const held: VaultLock[] = [];

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lithos-lock-'));
  vault = path.join(tmp, 'vault');
  lithos = path.join(vault, '.lithos');
  lockFile = path.join(lithos, 'lock.json');
  fs.mkdirSync(vault);
});

afterEach(async () => {
  for (const l of held.splice(0)) await l.release();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function take(opts: Parameters<typeof acquireLock>[1] = { owner: 'cli' }): Promise<VaultLock> {
  const l = await acquireLock(lithos, opts);
  held.push(l);
  return l;
}

function writeLockByHand(info: Partial<LockInfo>): void {
  fs.mkdirSync(lithos, { recursive: true });
  const now = new Date().toISOString();
  fs.writeFileSync(lockFile, JSON.stringify({ pid: process.pid, hostname: os.hostname(), started_at: now, heartbeat_at: now, owner: 'bridge', ...info }));
}

/** A pid that was just in use and is now free: the child has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '']);
  return r.pid;
}


async function until(cond: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + HANG_MS;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('acquireLock', () => {
  it('creates .lithos/lock.json naming this process', async () => {
    const lock = await take({ owner: 'bridge' });
    const onDisk = JSON.parse(fs.readFileSync(lockFile, 'utf8')) as LockInfo;
    expect(onDisk).toMatchObject({ pid: process.pid, hostname: os.hostname(), owner: 'bridge', token: lock.info.token });
    expect(Date.parse(onDisk.started_at)).not.toBeNaN();
    expect(await readLock(lithos)).toEqual(onDisk);
    expect(lock.isHeld()).toBe(true);
  });

  it('refuses a second writer with vault_locked, naming the holder', async () => {
    await take({ owner: 'cli' });
    const err = await acquireLock(lithos, { owner: 'bridge' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LithosError);
    expect((err as LithosError).code).toBe('vault_locked');
    expect((err as LithosError).message).toContain(`pid ${process.pid}`);
    expect((err as LithosError).message).toContain(vault);
    expect((err as LithosError).message).toContain('cli');
    expect((err as LithosError).data).toMatchObject({ pid: process.pid, owner: 'cli' });
  });

  it('held by Obsidian: the refusal says the vault is open in Obsidian and what works meanwhile', async () => {
    writeLockByHand({ pid: process.pid, owner: 'plugin' });
    const err = (await acquireLock(lithos, { owner: 'cli' }).catch((e: unknown) => e)) as LithosError;
    expect(err.code).toBe('vault_locked');
    expect(err.message).toContain(`Vault "${vault}" is open in Obsidian (the Lithos Memory plugin holds its memory`);
    expect(err.message).toContain('needs Obsidian closed or the plugin turned off; meanwhile search, stats, doctor');
    expect(err.data).toMatchObject({ owner: 'plugin' });
  });

  it('can be taken again once released', async () => {
    const first = await take();
    await first.release();
    expect(fs.existsSync(lockFile)).toBe(false);
    expect(first.isHeld()).toBe(false);
    const second = await take();
    expect(second.isHeld()).toBe(true);
  });

  it('takes over a lock whose process is dead on this host, even with a fresh heartbeat', async () => {
    const pid = deadPid();
    writeLockByHand({ pid });
    const lock = await take();
    expect((await readLock(lithos))?.token).toBe(lock.info.token);
    expect(fs.readdirSync(lithos)).toEqual(['lock.json']); // the takeover's temp file is gone
  });

  // A holder that was suspended (SIGSTOP, a laptop asleep) stops beating but still writes when it resumes:
  // taking its lock would make two writers, forking the stores and the audit chain.
  it('on this host, keeps a lock whose pid is alive through a long silence, and takes it after ten minutes of it', async () => {
    const old = new Date(Date.now() - 60_000).toISOString();
    writeLockByHand({ pid: process.pid, started_at: old, heartbeat_at: old });
    expect(await codeOf(acquireLock(lithos, { owner: 'cli', staleMs: 15_000 }))).toBe('vault_locked');
    // That long, the pid most likely belongs to another program now (a crashed holder's pid reused).
    const silent = new Date(Date.now() - SAME_HOST_SILENT_MS - 1000).toISOString();
    writeLockByHand({ pid: process.pid, started_at: silent, heartbeat_at: silent });
    const lock = await take({ owner: 'cli', staleMs: 15_000 });
    expect((await readLock(lithos))?.token).toBe(lock.info.token);
  });

  it('takes over a lock from before this boot (its pid is someone else now), and one from another host once its heartbeat is old', async () => {
    const beforeBoot = new Date(Date.now() - os.uptime() * 1000 - 60_000).toISOString();
    writeLockByHand({ pid: process.pid, started_at: beforeBoot, heartbeat_at: beforeBoot });
    const first = await take({ owner: 'cli', staleMs: 15_000 });
    expect((await readLock(lithos))?.token).toBe(first.info.token);
    await first.release();

    const old = new Date(Date.now() - 60_000).toISOString();
    writeLockByHand({ pid: process.pid, hostname: 'other-machine', started_at: old, heartbeat_at: old });
    const second = await take({ owner: 'cli', staleMs: 15_000 });
    expect((await readLock(lithos))?.token).toBe(second.info.token);
    const fresh = new Date().toISOString();
    await second.release();
    writeLockByHand({ pid: process.pid, hostname: 'other-machine', started_at: fresh, heartbeat_at: fresh });
    expect(await codeOf(acquireLock(lithos, { owner: 'cli', staleMs: 15_000 }))).toBe('vault_locked');
  });

  it('of processes taking over one stale lock together, exactly one gets it', async () => {
    for (let round = 0; round < 20; round++) {
      const old = new Date(Date.now() - 60_000).toISOString();
      writeLockByHand({ pid: 999_999, hostname: 'other-machine', started_at: old, heartbeat_at: old });
      const tries = await Promise.allSettled([0, 1, 2, 3].map(() => acquireLock(lithos, { owner: 'cli' })));
      const won = tries.filter((t): t is PromiseFulfilledResult<VaultLock> => t.status === 'fulfilled').map((t) => t.value);
      expect(won).toHaveLength(1);
      expect((await readLock(lithos))?.token).toBe(won[0].info.token);
      await won[0].release();
    }
  });

  it('confirm() reads lock.json now: false, for good, once another process holds it', async () => {
    const lost: unknown[] = [];
    const lock = await take({ owner: 'cli', onLost: (by) => lost.push(by?.owner) });
    expect(await lock.confirm()).toBe(true);
    const now = new Date().toISOString();
    writeLockByHand({ pid: process.pid, owner: 'bridge', started_at: now, heartbeat_at: now, token: 'theirs' });
    expect(await lock.confirm()).toBe(false);
    expect(lock.isHeld()).toBe(false);
    expect(lost).toEqual(['bridge']);
  });

  it('treats a half-written lock as live while fresh and as stale once old', async () => {
    fs.mkdirSync(lithos);
    fs.writeFileSync(lockFile, '{"pid": 12');
    expect(await codeOf(acquireLock(lithos, { owner: 'cli' }))).toBe('vault_locked');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lockFile, old, old);
    const lock = await take();
    expect((await readLock(lithos))?.token).toBe(lock.info.token);
  });

  it('refreshes heartbeat_at while held', async () => {
    const lock = await take({ owner: 'cli', heartbeatMs: 20 });
    const first = lock.info.heartbeat_at;
    await until(() => (JSON.parse(fs.readFileSync(lockFile, 'utf8')) as LockInfo).heartbeat_at !== first, 'a heartbeat');
    expect(Date.parse((JSON.parse(fs.readFileSync(lockFile, 'utf8')) as LockInfo).heartbeat_at)).toBeGreaterThan(Date.parse(first));
  });

  it('notices when another process has taken the lock over, and release then leaves theirs alone', async () => {
    const lost: Array<LockInfo | null> = [];
    const lock = await take({ owner: 'cli', heartbeatMs: 20, onLost: (by) => lost.push(by) });
    writeLockByHand({ pid: 4242, token: 'someone-else' });
    await until(() => !lock.isHeld(), 'the loss to be noticed');
    expect(lost).toHaveLength(1);
    expect(lost[0]?.token).toBe('someone-else');
    await lock.release();
    expect((await readLock(lithos))?.token).toBe('someone-else');
  });

  it('release removes the file only if it is still ours', async () => {
    const lock = await take({ owner: 'cli' });
    writeLockByHand({ pid: 4242, token: 'not-mine' }); // replaced before our heartbeat could notice
    await lock.release();
    expect((await readLock(lithos))?.token).toBe('not-mine');
  });

  it('refuses a missing vault folder with vault_unavailable and does not create it', async () => {
    fs.rmSync(vault, { recursive: true });
    expect(await codeOf(acquireLock(lithos, { owner: 'cli' }))).toBe('vault_unavailable');
    expect(fs.existsSync(vault)).toBe(false);
  });
});

describe('lock release when the process ends', () => {
  let bundle: string;

  beforeEach(() => {
    bundle = path.join(tmp, 'lock.cjs');
    buildSync({ entryPoints: [path.join(__dirname, '../../bridge/lock.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: bundle, logLevel: 'silent' });
  });

  /** Starts a child that takes the lock, prints "locked", then runs `then` (JS source). */
  function child(then: string) {
    const script = `require(${JSON.stringify(bundle)}).acquireLock(${JSON.stringify(lithos)}, { owner: 'bridge' })
      .then(() => { process.stdout.write('locked\\n'); ${then} });`;
    const proc = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const locked = new Promise<void>((resolve, reject) => {
      proc.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
      proc.on('exit', () => reject(new Error('child exited before locking')));
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
    return { proc, locked, exited };
  }

  it('removes the lock on SIGTERM and still dies by the signal', async () => {
    const c = child('setInterval(() => {}, 1000);');
    await c.locked;
    expect((await readLock(lithos))?.pid).toBe(c.proc.pid);
    c.proc.kill('SIGTERM');
    expect(await c.exited).toEqual({ code: null, signal: 'SIGTERM' });
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  // lithos mcp handles SIGTERM itself: it finishes the calls in flight and flushes the stores first. The
  // lock must stay until then, or the next writer starts while this one still writes.
  it('with another SIGTERM handler, keeps the lock until that handler is done, then releases it at exit', async () => {
    const c = child(`process.on('SIGTERM', () => setTimeout(() => { process.stdout.write(require('fs').existsSync(${JSON.stringify(lockFile)}) ? 'still held\\n' : 'gone\\n'); process.exit(0); }, 300));
      setInterval(() => {}, 1000);`);
    let out = '';
    c.proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await c.locked;
    c.proc.kill('SIGTERM');
    expect(await c.exited).toEqual({ code: 0, signal: null });
    expect(out).toContain('still held');
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  it('removes the lock on a normal exit', async () => {
    const c = child('process.exit(3);');
    await c.locked;
    expect(await c.exited).toEqual({ code: 3, signal: null });
    expect(fs.existsSync(lockFile)).toBe(false);
  });
});
