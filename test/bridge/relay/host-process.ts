/** Runs test-host-main.ts in a child process (bundled once per test file with esbuild). */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';

const REPO = resolve(__dirname, '../../..');

export interface HostProcess {
  child: ChildProcess;
  port: number;
  /** Resolves when the host reports a `hold` call with this key. */
  held(key: string): Promise<void>;
  /** SIGKILL, then wait until the process is gone (so its pid is no longer alive). */
  kill(): Promise<void>;
}

export interface HostBundle {
  start(root: string, port: number): Promise<HostProcess>;
  dispose(): Promise<void>;
}

export async function bundleTestHost(): Promise<HostBundle> {
  const dir = await mkdtemp(join(tmpdir(), 'lithos-test-host-'));
  const outfile = join(dir, 'host.js');
  await build({
    entryPoints: [join(REPO, 'test/bridge/relay/test-host-main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    logLevel: 'error',
  });
  const children = new Set<ChildProcess>();
  return {
    start: (root, port) => {
      // Dependencies stay in the repo's node_modules; NODE_PATH lets the bundle in a temp folder find them.
      const child = spawn(process.execPath, [outfile, root, String(port)], {
        env: { ...process.env, NODE_PATH: join(REPO, 'node_modules') },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.add(child);
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
      const holds = new Set<string>();
      const waiters: { key: string; resolve(): void }[] = [];
      let stderr = '';
      child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      return new Promise<HostProcess>((resolvePromise, reject) => {
        child.once('exit', (code) => reject(new Error(`test host exited (${code}) before it was ready: ${stderr}`)));
        lines.on('line', (line) => {
          const msg = JSON.parse(line) as { ready?: number; hold?: string };
          if (msg.hold !== undefined) {
            holds.add(msg.hold);
            for (const w of waiters.filter((x) => x.key === msg.hold)) w.resolve();
          }
          if (msg.ready !== undefined) {
            resolvePromise({
              child,
              port: msg.ready,
              held: (key) => (holds.has(key) ? Promise.resolve() : new Promise((r) => waiters.push({ key, resolve: r }))),
              kill: async () => {
                child.kill('SIGKILL');
                await exited;
                children.delete(child);
              },
            });
          }
        });
      });
    },
    dispose: async () => {
      for (const c of children) c.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
