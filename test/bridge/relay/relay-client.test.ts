import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { RelayClient, type RelayClientOptions } from '../../../bridge/relay/relay-client';
import { type LithosError } from '../../../shared/errors';
import { BRIDGE_FILE } from '../../../shared/protocol/bridge-file';
import { CLOSE_CODES } from '../../../shared/protocol/handshake';
import { MAX_MESSAGE_BYTES } from '../../../shared/protocol/limits';
import { PROTOCOL_VERSION } from '../../../shared/protocol/version';
import { failure } from '../../twins/error-code';
import { makeVault, startTestHost, type TestHost } from './test-host';
import { HANG_MS } from '../../eventually';

const clients: RelayClient[] = [];
function client(root: string, over: Partial<RelayClientOptions> = {}): RelayClient {
  const c = new RelayClient({ vaultRoot: root, agentId: 'agent-1', bridgeVersion: '0.1.0', backoff: { initialMs: 10, maxMs: 50 }, ...over });
  clients.push(c);
  c.start();
  return c;
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

const bridgeFile = (root: string) => join(root, '.lithos', BRIDGE_FILE);
const nextEvent = <T>(c: RelayClient, name: 'connected' | 'disconnected' | 'connect_failed') => new Promise<T>((r) => c.once(name, (x: unknown) => r(x as T)));

describe('RelayClient against a live host', () => {
  let h: TestHost;
  beforeAll(async () => {
    h = await startTestHost(await makeVault(5), { maxDeadlineMs: 45_000 });
  });
  afterAll(async () => {
    await h.stop();
    await rm(h.root, { recursive: true, force: true });
  });

  it('finds the host through bridge.json, handshakes, and reports the host', async () => {
    const c = client(h.root);
    const connected = nextEvent(c, 'connected');
    const info = await c.waitConnected(HANG_MS);
    expect(info).toEqual({ vault: 'test-vault', plugin_version: '0.1.0-test', protocol_version: PROTOCOL_VERSION, port: h.port });
    expect(await connected).toEqual(info);
    expect(c.state).toBe('connected');
    expect(h.host.connectedAgents).toEqual(['agent-1']);
  });

  it('relays calls to the engine, as this agent; a call naming another agent is refused by the host', async () => {
    const c = client(h.root);
    await c.waitConnected(HANG_MS);
    expect(await c.call('note_count', {})).toBe(5);
    expect(await c.call('read', { path: 'notes/n3.md' })).toEqual({ path: 'notes/n3.md', title: 'Note 3', body: 'Body of note 3, about topic 3.\n' });
    expect(await c.call('echo', { x: 1 })).toEqual({ args: { x: 1 }, caller: { kind: 'agent', agent_id: 'agent-1' } });
    expect(await c.call('echo', {}, { kind: 'agent', agent_id: 'agent-1' })).toEqual({ args: {}, caller: { kind: 'agent', agent_id: 'agent-1' } });
    await expect(c.call('echo', {}, { kind: 'agent', agent_id: 'agent-2' })).rejects.toMatchObject({ code: 'forbidden' });
    // The person never calls through the bridge: a call claiming to be theirs is refused by the host.
    await expect(c.call('echo', {}, { kind: 'human', agent_id: null })).rejects.toMatchObject({ code: 'forbidden' });
  });

  it("passes the tool's error through with its code, message and data", async () => {
    const c = client(h.root);
    await c.waitConnected(HANG_MS);
    const err = await failure(c.call('fail', { message: 'The note changed since version 6.' }));
    expect(err.toJSON()).toEqual({ code: 'conflict', message: 'The note changed since version 6.', data: { current_version: 7 } });
    expect((await failure(c.call('no_such_tool', {}))).code).toBe('not_found');
    expect((await failure(c.call('read', { path: 42 }))).code).toBe('invalid_argument');
  });

  it('answers 200 concurrent calls over one connection, each with its own result', async () => {
    const c = client(h.root);
    await c.waitConnected(HANG_MS);
    const calls = Array.from({ length: 200 }, (_, i) => (i % 4 === 0 ? c.call('read', { path: `notes/n${i % 5}.md` }) : c.call('echo', { i })));
    const results = await Promise.all(calls);
    results.forEach((r, i) => {
      if (i % 4 === 0) expect(r).toMatchObject({ path: `notes/n${i % 5}.md`, title: `Note ${i % 5}` });
      else expect(r).toEqual({ args: { i }, caller: { kind: 'agent', agent_id: 'agent-1' } });
    });
    expect(c.inFlight).toBe(0);
  });

  it('a call past its deadline fails with a retryable `timeout` naming the tool', async () => {
    const c = client(h.root, { deadlineMs: 50 });
    await c.waitConnected(HANG_MS);
    const err = await failure(c.call('hold', { key: 'deadline-1' }));
    expect(err.code).toBe('timeout');
    expect(err.message).toMatch(/^Tool "hold" did not answer within its 50 ms deadline/);
    expect(err.data).toMatchObject({ tool: 'hold', deadline_ms: 50, retryable: true });
    h.tools.release('deadline-1');
    expect(await c.call('echo', { after: true })).toMatchObject({ args: { after: true } }); // the connection is fine
  });

  it('arguments over 1 MB are refused before sending with payload_too_large', async () => {
    const c = client(h.root);
    await c.waitConnected(HANG_MS);
    const err = await failure(c.call('echo', { blob: 'x'.repeat(MAX_MESSAGE_BYTES) }));
    expect(err.code).toBe('payload_too_large');
    expect(err.message).toMatch(/^The call to "echo" is \d+ bytes, over the bridge's limit of 1048576 bytes/);
    expect(c.inFlight).toBe(0);
    expect(await c.call('note_count', {})).toBe(5);
  });

  it('a result over 1 MB comes back as payload_too_large for that call only', async () => {
    const c = client(h.root);
    await c.waitConnected(HANG_MS);
    const [big, small] = await Promise.allSettled([c.call('big', { bytes: MAX_MESSAGE_BYTES + 1 }), c.call('big', { bytes: 3 })]);
    expect(big).toMatchObject({ status: 'rejected', reason: { code: 'payload_too_large', message: expect.stringContaining('The result of tool "big"') } });
    expect(small).toEqual({ status: 'fulfilled', value: 'xxx' });
  });

  it('garbage frames from an authenticated peer get error replies and do not disturb the host', async () => {
    const { token } = JSON.parse(await readFile(bridgeFile(h.root), 'utf8')) as { token: string };
    const raw = new WebSocket(`ws://127.0.0.1:${h.port}/`, { headers: { Authorization: `Bearer ${token}` } });
    const replies: string[] = [];
    raw.on('message', (d: Buffer) => replies.push(d.toString()));
    await new Promise((r) => raw.once('open', r));
    raw.send(JSON.stringify({ type: 'hello', protocol_version: PROTOCOL_VERSION, bridge_version: 'raw', agent_id: 'raw-agent' }));
    const garbage: (string | Buffer)[] = ['}{', '"just a string"', '{"type":"call"}', '{"type":"result","id":"1","ok":true}', Buffer.from([0, 255, 7]), 'x'.repeat(MAX_MESSAGE_BYTES + 100)];
    for (const g of garbage) raw.send(g);
    raw.send(JSON.stringify({ type: 'ping', nonce: 'end' }));
    await new Promise<void>((resolve) => raw.on('message', (d: Buffer) => d.toString().includes('"pong"') && resolve()));
    expect(replies[0]).toContain('"welcome"');
    const errors = replies.slice(1, -1).map((r) => JSON.parse(r) as { type: string; error: { code: string } });
    expect(errors).toHaveLength(garbage.length);
    expect(errors.map((e) => e.error.code)).toEqual(['protocol_error', 'protocol_error', 'protocol_error', 'protocol_error', 'protocol_error', 'payload_too_large']);
    raw.terminate();
    // The host still serves everyone.
    const c = client(h.root);
    await c.waitConnected(HANG_MS);
    expect(await c.call('note_count', {})).toBe(5);
  });

  it('one connection per agent id: a second bridge for a connected agent is refused, and gets in once the first leaves', async () => {
    const first = client(h.root, { agentId: 'solo' });
    await first.waitConnected(HANG_MS);
    const second = client(h.root, { agentId: 'solo' });
    const refused = await nextEvent<LithosError>(second, 'connect_failed');
    expect(refused.code).toBe('conflict');
    expect(refused.message).toMatch(/^Agent "solo" already has a bridge connection to this vault/);
    expect(second.state).toBe('connecting');
    // Other agents are welcome meanwhile.
    const other = client(h.root, { agentId: 'other' });
    await other.waitConnected(HANG_MS);
    await first.close();
    await second.waitConnected(HANG_MS);
    expect(await second.call('echo', {})).toMatchObject({ caller: { agent_id: 'solo' } });
  });

  it('the host refuses a bridge of another protocol version, naming both versions', async () => {
    const { token } = JSON.parse(await readFile(bridgeFile(h.root), 'utf8')) as { token: string };
    const raw = new WebSocket(`ws://127.0.0.1:${h.port}/`, { headers: { Authorization: `Bearer ${token}` } });
    await new Promise((r) => raw.once('open', r));
    const reply = new Promise<string>((r) => raw.once('message', (d: Buffer) => r(d.toString())));
    const closed = new Promise<number>((r) => raw.once('close', (code) => r(code)));
    raw.send(JSON.stringify({ type: 'hello', protocol_version: 99, bridge_version: '9.0.0', agent_id: 'future' }));
    const msg = JSON.parse(await reply) as { error: { code: string; message: string } };
    expect(msg.error.code).toBe('protocol_mismatch');
    expect(msg.error.message).toContain('the lithos bridge 9.0.0 speaks protocol version 99');
    expect(msg.error.message).toContain(`the Lithos Memory plugin 0.1.0-test speaks version ${PROTOCOL_VERSION}`);
    expect(await closed).toBe(CLOSE_CODES.protocolMismatch);
  });

  it('close() fails in-flight calls at once and stops reconnecting', async () => {
    const c = client(h.root);
    await c.waitConnected(HANG_MS);
    const pending = failure(c.call('hold', { key: 'close-1' }));
    await c.close();
    expect((await pending).code).toBe('unavailable');
    expect(c.state).toBe('closed');
    expect((await failure(c.call('echo', {}))).data.retryable).toBe(true);
    h.tools.release('close-1');
  });
});

describe('RelayClient when the host is absent or not the right one', () => {
  let root: string;
  beforeEach(async () => {
    root = await makeVault(1);
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('without bridge.json: calls fail at once as retryable `unavailable`, and waiting says why', async () => {
    const c = client(root);
    const call = await failure(c.call('echo', {}));
    expect(call.code).toBe('unavailable');
    expect(call.data.retryable).toBe(true);
    const wait = await failure(c.waitConnected(100));
    expect(wait.code).toBe('unavailable');
    expect(wait.message).toMatch(/Last attempt: No Lithos host is running for vault .* \(no \.lithos\/bridge\.json\)/);
  });

  it('a bridge.json left by a dead process is recognised by its pid', async () => {
    const child = spawn(process.execPath, ['-e', '']);
    const pid = child.pid as number;
    await new Promise((r) => child.once('exit', r));
    const h = await startTestHost(root);
    await h.stop(); // leaves no bridge.json: write a stale one by hand
    await writeFile(bridgeFile(root), JSON.stringify({ port: h.port, token: 'a'.repeat(64), pid, protocol_version: PROTOCOL_VERSION, plugin_version: '0.1.0' }));
    const c = client(root);
    const err = await nextEvent<LithosError>(c, 'connect_failed');
    expect(err.code).toBe('unavailable');
    expect(err.message).toContain(`names process ${pid}, which is not running`);
  });

  it('a host announcing another protocol version in bridge.json is refused at once, naming both versions', async () => {
    await mkdir(join(root, '.lithos'));
    await writeFile(bridgeFile(root), JSON.stringify({ port: 1, token: 'a'.repeat(64), pid: process.pid, protocol_version: PROTOCOL_VERSION + 1, plugin_version: '0.9.0' }));
    const c = client(root);
    const err = await failure(nextEvent<LithosError>(c, 'connect_failed').then((e) => c.waitConnected(HANG_MS).then(() => e)));
    expect(err.code).toBe('protocol_mismatch');
    expect(err.message).toContain(`the lithos bridge 0.1.0 speaks protocol version ${PROTOCOL_VERSION}`);
    expect(err.message).toContain(`the Lithos Memory plugin 0.9.0 speaks version ${PROTOCOL_VERSION + 1}`);
  });

  it('a wrong token is `unauthorized`, reported at once', async () => {
    const h = await startTestHost(root);
    try {
      const info = JSON.parse(await readFile(bridgeFile(root), 'utf8')) as Record<string, unknown>;
      await writeFile(bridgeFile(root), JSON.stringify({ ...info, token: 'b'.repeat(64) }));
      const c = client(root);
      await nextEvent(c, 'connect_failed');
      const err = await failure(c.waitConnected(HANG_MS));
      expect(err.code).toBe('unauthorized');
      expect(err.message).toMatch(/refused this bridge \(HTTP 401\): Wrong bridge token/);
    } finally {
      await h.stop();
    }
  });

  it('when the host stops mid-call, the call fails at once as retryable; the client reconnects when the host returns', async () => {
    const h1 = await startTestHost(root);
    const c = client(root);
    await c.waitConnected(HANG_MS);
    const inFlight = failure(c.call('hold', { key: 'never' }));
    const disconnected = nextEvent<LithosError>(c, 'disconnected');
    await h1.stop();
    const err = await inFlight;
    expect(err.code).toBe('unavailable');
    expect(err.data.retryable).toBe(true);
    expect(err.message).toMatch(/closed .* while "hold" was in flight/);
    expect((await disconnected).code).toBe('unavailable');
    const reconnected = nextEvent(c, 'connected');
    const h2 = await startTestHost(root, { port: h1.port });
    try {
      expect(await reconnected).toMatchObject({ port: h1.port });
      expect(await c.call('note_count', {})).toBe(1);
    } finally {
      await c.close();
      await h2.stop();
    }
  });
});
