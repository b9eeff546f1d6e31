import { connect as connectRaw, createServer, type Server, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { chmod, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { BRIDGE_FILE, BridgeFileSchema } from '../../../shared/protocol/bridge-file';
import { PROTOCOL_VERSION } from '../../../shared/protocol/version';
import { CLOSE_CODES } from '../../../shared/protocol/handshake';
import { BridgeHost, MAX_SOCKETS } from '../../../plugin/bridge-host/bridge-host';
import { TOKEN_FILE } from '../../../plugin/bridge-host/token';
import { makeVault, startTestHost, type TestHost } from './test-host';
import { eventually } from '../../eventually';

type Outcome = { status: number; body: string } | { error: string };

/** One raw upgrade attempt: the HTTP status the host answered with (101 = accepted), or the socket error. */
function upgrade(url: string, headers: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body });
        req.destroy();
      });
    });
    ws.on('open', () => {
      resolve({ status: 101, body: '' });
      ws.terminate();
    });
    ws.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
  });
}

/** A TCP connection that sends nothing (an idle or slowloris peer). */
function openRaw(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connectRaw(port, '127.0.0.1', () => resolve(s));
    s.on('error', reject);
  });
}

const readBridge = async (root: string) => BridgeFileSchema.parse(JSON.parse(await readFile(join(root, '.lithos', BRIDGE_FILE), 'utf8')));
const exists = (p: string) => stat(p).then(() => true, () => false);

describe('BridgeHost: who may connect', () => {
  let a: TestHost;
  let b: TestHost;
  let tokenA: string;
  let url: string;

  beforeAll(async () => {
    a = await startTestHost(await makeVault(2));
    b = await startTestHost(await makeVault(1));
    tokenA = (await readBridge(a.root)).token;
    url = `ws://127.0.0.1:${a.port}/`;
  });
  afterAll(async () => {
    for (const h of [a, b]) {
      await h.stop();
      await rm(h.root, { recursive: true, force: true });
    }
  });

  it('accepts the vault token from a non-browser client', async () => {
    expect(await upgrade(url, { Authorization: `Bearer ${tokenA}` })).toEqual({ status: 101, body: '' });
  });

  it.each([
    ['no token', 401, {}, /Missing "Authorization: Bearer <token>"/],
    ['a wrong token', 401, { Authorization: `Bearer ${'0'.repeat(64)}` }, /Wrong bridge token/],
    ['a malformed Authorization header', 401, { Authorization: 'Basic dXNlcjpwYXNz' }, /Missing/],
  ])('refuses %s at the upgrade with HTTP %d', async (_name, status, headers, body) => {
    const r = await upgrade(url, headers);
    expect(r).toMatchObject({ status });
    expect((r as { body: string }).body).toMatch(body);
  });

  it('refuses the token of another vault', async () => {
    const tokenB = (await readBridge(b.root)).token;
    expect(tokenB).not.toBe(tokenA);
    expect(await upgrade(url, { Authorization: `Bearer ${tokenB}` })).toMatchObject({ status: 401 });
  });

  it.each(['https://evil.example', 'null', 'app://obsidian.md'])('refuses any browser Origin (%s) even with the right token', async (origin) => {
    expect(await upgrade(url, { Authorization: `Bearer ${tokenA}`, Origin: origin })).toMatchObject({ status: 403, body: expect.stringContaining('Browser origins') });
  });

  it('refuses a non-loopback Host header (DNS rebinding) even with the right token', async () => {
    expect(await upgrade(url, { Authorization: `Bearer ${tokenA}`, Host: `attacker.example:${a.port}` })).toMatchObject({ status: 403 });
  });

  it('no refused upgrade left a connection behind', () => {
    expect(a.host.connectedAgents).toEqual([]);
  });

  it('answers plain HTTP with 426 and nothing else', async () => {
    const res = await fetch(`http://127.0.0.1:${a.port}/`);
    expect(res.status).toBe(426);
    expect(await res.text()).toMatch(/websocket only/);
  });

  it('is not reachable on a non-loopback address of this machine', async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && !i.internal && (i.family === 'IPv4' || !i.address.startsWith('fe80')));
    if (!external) {
      console.warn('skipped: this machine has no non-loopback network address to try');
      return;
    }
    const host = external.family === 'IPv4' ? external.address : `[${external.address}]`;
    const r = await upgrade(`ws://${host}:${a.port}/`, { Authorization: `Bearer ${tokenA}` });
    expect(r).toEqual({ error: 'ECONNREFUSED' });
  });
});

describe('BridgeHost: bridge.json and the token', () => {
  let root: string;
  beforeEach(async () => {
    root = await makeVault(1);
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('writes bridge.json owner-only with port, token, pid and versions, and removes it on stop', async () => {
    const h = await startTestHost(root);
    const file = join(root, '.lithos', BRIDGE_FILE);
    try {
      const raw = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      expect(Object.keys(raw).sort()).toEqual(['pid', 'plugin_version', 'port', 'protocol_version', 'token']);
      expect(raw).toEqual({ port: h.port, token: expect.stringMatching(/^[0-9a-f]{64}$/), pid: process.pid, protocol_version: PROTOCOL_VERSION, plugin_version: '0.1.0-test' });
      if (process.platform !== 'win32') {
        expect((await stat(file)).mode & 0o777).toBe(0o600);
        expect((await stat(join(root, '.lithos', TOKEN_FILE))).mode & 0o777).toBe(0o600);
      }
    } finally {
      await h.stop();
    }
    expect(await exists(file)).toBe(false);
  });

  it('keeps the same token across restarts', async () => {
    const first = await startTestHost(root);
    const t1 = (await readBridge(root)).token;
    await first.stop();
    const second = await startTestHost(root);
    try {
      expect((await readBridge(root)).token).toBe(t1);
    } finally {
      await second.stop();
    }
  });

  it('regenerating the token locks the old one out at once and drops current connections', async () => {
    const h = await startTestHost(root);
    try {
      const old = (await readBridge(root)).token;
      const ws = new WebSocket(`ws://127.0.0.1:${h.port}/`, { headers: { Authorization: `Bearer ${old}` } });
      await new Promise((r) => ws.once('open', r));
      const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
      await h.host.regenerateToken();
      expect(await closed).toBe(CLOSE_CODES.tokenRevoked);
      const fresh = (await readBridge(root)).token;
      expect(fresh).not.toBe(old);
      expect(await upgrade(`ws://127.0.0.1:${h.port}/`, { Authorization: `Bearer ${old}` })).toMatchObject({ status: 401 });
      expect(await upgrade(`ws://127.0.0.1:${h.port}/`, { Authorization: `Bearer ${fresh}` })).toMatchObject({ status: 101 });
    } finally {
      await h.stop();
    }
  });

  it('makes an existing token file owner-only (one restored from a backup or synced in may be readable by others)', async () => {
    if (process.platform === 'win32') return;
    const first = await startTestHost(root);
    await first.stop();
    const file = join(root, '.lithos', TOKEN_FILE);
    await chmod(file, 0o644);
    const h = await startTestHost(root);
    try {
      expect((await stat(file)).mode & 0o777).toBe(0o600);
    } finally {
      await h.stop();
    }
  });

  it('bounds the open sockets: past MAX_SOCKETS a new one is closed at once, and a well-behaved client gets in again once they go', async () => {
    const h = await startTestHost(root);
    const idle: Socket[] = [];
    try {
      const token = (await readBridge(root)).token;
      for (let i = 0; i < MAX_SOCKETS; i++) idle.push(await openRaw(h.port));
      await new Promise((r) => setTimeout(r, 50));
      expect(await upgrade(`ws://127.0.0.1:${h.port}/`, { Authorization: `Bearer ${token}` })).toEqual({ error: expect.stringMatching(/ECONNRESET|socket hang up/) });
      for (const s of idle.splice(0)) s.destroy();
      await eventually(async () => 'status' in (await upgrade(`ws://127.0.0.1:${h.port}/`, { Authorization: `Bearer ${token}` })));
      expect(await upgrade(`ws://127.0.0.1:${h.port}/`, { Authorization: `Bearer ${token}` })).toEqual({ status: 101, body: '' });
    } finally {
      for (const s of idle) s.destroy();
      await h.stop();
    }
  });

  it('replaces a damaged token file with a new token', async () => {
    const first = await startTestHost(root);
    await first.stop();
    await writeFile(join(root, '.lithos', TOKEN_FILE), 'not a token');
    const h = await startTestHost(root);
    try {
      expect((await readBridge(root)).token).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await h.stop();
    }
  });

  it('falls back to a free port when the configured one is taken, and bridge.json names the real one', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const taken = (blocker.address() as { port: number }).port;
    try {
      const h = await startTestHost(root, { port: taken });
      try {
        expect(h.port).not.toBe(taken);
        expect((await readBridge(root)).port).toBe(h.port);
      } finally {
        await h.stop();
      }
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it('a missing vault folder is a clear vault_unavailable, and nothing is listening', async () => {
    const host = new BridgeHost({ lithosDir: join(root, 'nope', '.lithos'), vaultName: 'nope', pluginVersion: '0', dispatcher: { list: () => [], call: async () => null }, port: 0 });
    await expect(host.start()).rejects.toMatchObject({ code: 'vault_unavailable', message: expect.stringContaining('is the vault folder there?') });
    expect(host.port).toBeNull();
    expect(await exists(join(root, 'nope'))).toBe(false);
  });
});
