import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { modeHost, type ModeHost } from '../../../bridge/mcp/mode-host';
import type { Logger } from '../../../shared/ports';
import { PROTOCOL_VERSION } from '../../../shared/protocol/version';
import { TOOL_CATALOG } from '../../../shared/tools/catalog';
import { buildBridge, connect, type Session, toolJson } from './built-bridge';
import { startCatalogHost, type CatalogHost } from './catalog-host';
import { HANG_MS, eventually } from '../../eventually';

/**
 * The BUILT `lithos mcp` driven by the SDK's Client over stdio, with and without a plugin-side host (the real
 * BridgeHost serving the real tool catalog over a real engine, in this process): which mode serves each call,
 * what a caller sees when the host goes away, and the handover from headless to relay.
 */

let build: ReturnType<typeof buildBridge>;
let root: string;
let vault: string;
let host: CatalogHost | null = null;
let session: Session | null = null;

beforeAll(() => {
  build = buildBridge();
}, 60_000);
afterAll(() => build?.cleanup());

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lithos-relay-mode-'));
  vault = join(root, 'vault');
  mkdirSync(join(vault, 'project'), { recursive: true });
  writeFileSync(join(vault, 'project/Pool sizing.md'), '---\ntitle: Pool sizing\n---\nThe connection pool was too small.\n');
});
afterEach(async () => {
  await session?.client.close();
  session = null;
  await host?.stop();
  host = null;
  rmSync(root, { recursive: true, force: true });
});

function errorOf(r: unknown): { code: string; message: string; data: Record<string, unknown> } {
  const res = r as CallToolResult;
  expect(res.isError).toBe(true);
  return JSON.parse((res.content[0] as { type: 'text'; text: string }).text);
}

const lockFile = () => join(vault, '.lithos/lock.json');
const bridgeFile = () => join(vault, '.lithos/bridge.json');

test('with a host running, calls are relayed: its engine sees the write, the caller travels with each call, errors keep {code, message, data}, and the bridge never opens the vault', async () => {
  host = await startCatalogHost(vault);
  session = await connect(build.cli, vault, { agent: 'agent-a' });
  const s = session;

  const w = toolJson(await s.client.callTool({ name: 'lithos_write', arguments: { title: 'Relayed', namespace: 'project', content: 'Through the host.' } }));
  expect(w).toMatchObject({ path: 'project/Relayed.md', created: true });
  expect(host.engine.services.notes.note('project/Relayed.md')).toBeTruthy();
  const r = toolJson(await s.client.callTool({ name: 'lithos_read', arguments: { id: w.id } }));
  expect(r).toMatchObject({ version: w.version, frontmatter: { author: 'agent-a' } });
  // The session acts for agent-a (--agent): a call naming another agent is refused before it reaches the host.
  expect(errorOf(await s.client.callTool({ name: 'lithos_write', arguments: { title: 'By call', content: 'x', agent_id: 'agent-z' } })).code).toBe('forbidden');
  toolJson(await s.client.callTool({ name: 'lithos_write', arguments: { title: 'By call', content: 'x', agent_id: 'agent-a' } }));
  expect(host.calls).toEqual([
    { tool: 'lithos_write', caller: { kind: 'agent', agent_id: 'agent-a' } },
    { tool: 'lithos_read', caller: { kind: 'agent', agent_id: 'agent-a' } },
    { tool: 'lithos_write', caller: { kind: 'agent', agent_id: 'agent-a' } },
  ]);

  const bad = errorOf(await s.client.callTool({ name: 'lithos_write', arguments: { title: 7 } }));
  expect(bad).toMatchObject({ code: 'invalid_argument', message: expect.stringContaining('title'), data: { tool: 'lithos_write', issues: expect.any(Array) } });
  expect(errorOf(await s.client.callTool({ name: 'lithos_read', arguments: { path: 'nope.md' } })).code).toBe('not_found');
  expect(host.calls).toHaveLength(5);
  // The host's engine is the only writer: this bridge took no lock.
  expect(existsSync(lockFile())).toBe(false);
}, 60_000);

test('stopping the host fails the call in flight as retryable (no hang); with bridge.json gone the next call runs headless and sees the relayed write', async () => {
  host = await startCatalogHost(vault);
  session = await connect(build.cli, vault, { agent: 'agent-a' });
  const s = session;
  const w = toolJson(await s.client.callTool({ name: 'lithos_write', arguments: { title: 'Before stop', content: 'Written through the host.' } }));

  const inFlight = s.client.callTool({ name: 'test_hold', arguments: {} });
  await host.held();
  const h = host;
  host = null;
  await h.stop();
  const e = errorOf(await inFlight);
  expect(e).toMatchObject({ code: 'unavailable', data: { retryable: true, tool: 'test_hold' } });
  expect(existsSync(bridgeFile())).toBe(false);

  // The plugin is gone: this call opens the vault in the bridge (headless, under the lock).
  const r = toolJson(await s.client.callTool({ name: 'lithos_read', arguments: { id: w.id } }));
  expect(r).toMatchObject({ path: 'Before stop.md', version: w.version, frontmatter: { author: 'agent-a' } });
  expect(h.calls.map((c) => c.tool)).toEqual(['lithos_write', 'test_hold']);
  expect(existsSync(lockFile())).toBe(true);
  expect(s.stderr()).toContain('switched from relay to headless');
}, 60_000);

test('headless first, then the host starts: the next call hands over (headless engine closed, lock released) and the headless write is on disk and visible through the host', async () => {
  session = await connect(build.cli, vault, { agent: 'agent-a' });
  const s = session;
  const w = toolJson(await s.client.callTool({ name: 'lithos_write', arguments: { title: 'Written headless', content: 'Before the plugin started.' } }));
  expect(existsSync(lockFile())).toBe(true);
  expect(existsSync(join(vault, 'Written headless.md'))).toBe(true);

  host = await startCatalogHost(vault);
  const r = toolJson(await s.client.callTool({ name: 'lithos_read', arguments: { id: w.id } }));
  expect(r).toMatchObject({ path: 'Written headless.md', version: w.version, frontmatter: { author: 'agent-a' } });
  expect(host.calls.map((c) => c.tool)).toEqual(['lithos_read']);
  // The headless engine flushed and let go of the vault before the first relayed call.
  expect(existsSync(lockFile())).toBe(false);
  expect(existsSync(join(vault, '.lithos/memory.sqlite'))).toBe(true);
  expect(s.stderr()).toContain('switched from headless to relay');

  const after = toolJson(await s.client.callTool({ name: 'lithos_write', arguments: { title: 'After handover', content: 'Through the host.' } }));
  expect(host.engine.services.notes.note(after.path)).toBeTruthy();
  const search = toolJson(await s.client.callTool({ name: 'lithos_search', arguments: { query: 'plugin started' } }));
  expect(search.results.map((x: { path: string }) => x.path)).toContain('Written headless.md');
}, 60_000);

describe('mode selection in process (modeHost)', () => {
  const agent = { kind: 'agent', agent_id: 'agent-a' } as const;
  let lines: string[];
  let bridge: ModeHost | null = null;

  const logger: Logger = { debug() {}, info: (m) => void lines.push(m), warn: (m) => void lines.push(m), error: (m) => void lines.push(m) };
  // How long the bridge waits for the host bridge.json names to accept it. With a host listening, only a
  // hang guard: a connection must not lose a race against a busy machine. With nobody listening, short, as
  // every such test waits it out before going headless.
  const LIVE_HOST_WAIT_MS = HANG_MS;
  const NO_HOST_WAIT_MS = 500;
  const open = (connectWaitMs = NO_HOST_WAIT_MS): ModeHost =>
    (bridge = modeHost({ vault, catalog: TOOL_CATALOG, agent: 'agent-a', version: '0.0.0-test', logger, connectWaitMs, relay: { backoff: { initialMs: 20, maxMs: 100 } } }));

  beforeEach(() => {
    lines = [];
  });
  afterEach(async () => {
    await bridge?.close();
    bridge = null;
  });

  /** bridge.json as a host would write it, but naming whatever the test wants. */
  function announce(over: { pid?: number; port?: number; protocol_version?: number }): void {
    mkdirSync(join(vault, '.lithos'), { recursive: true });
    writeFileSync(bridgeFile(), JSON.stringify({ port: 1, token: 'a'.repeat(64), pid: process.pid, protocol_version: PROTOCOL_VERSION, plugin_version: '0.1.0', ...over }));
  }

  /** A loopback port nobody listens on. */
  async function closedPort(): Promise<number> {
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const { port } = srv.address() as { port: number };
    await new Promise<void>((r) => srv.close(() => r()));
    return port;
  }

  test('a host that restarts (a new bridge.json) gets the next call over a fresh connection; the mode stays relay', async () => {
    host = await startCatalogHost(vault);
    const b = open(LIVE_HOST_WAIT_MS);
    await b.dispatcher.call('lithos_stats', {}, agent);
    expect(b.mode()).toBe('relay');
    const first = host;
    host = null;
    await first.stop();
    host = await startCatalogHost(vault);
    expect(await b.dispatcher.call('lithos_stats', {}, agent)).toMatchObject({ notes: 1 });
    expect(b.mode()).toBe('relay');
    expect(host.calls).toEqual([{ tool: 'lithos_stats', caller: agent }]);
    expect(existsSync(lockFile())).toBe(false);
  });

  test('a bridge.json naming a dead process is stale: the first call runs headless', async () => {
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    announce({ pid: dead });
    const b = open();
    expect(await b.dispatcher.call('lithos_stats', {}, agent)).toMatchObject({ notes: 1 });
    expect(b.mode()).toBe('headless');
    expect(existsSync(lockFile())).toBe(true);
  });

  test('a host speaking another protocol is the call\'s protocol_mismatch error, and nothing is opened', async () => {
    announce({ protocol_version: PROTOCOL_VERSION + 1 });
    const b = open();
    await expect(b.dispatcher.call('lithos_stats', {}, agent)).rejects.toMatchObject({ code: 'protocol_mismatch' });
    expect(b.mode()).toBe('unset');
    expect(existsSync(lockFile())).toBe(false);
  });

  test('a live pid with nobody listening: headless, and the reason is logged', async () => {
    announce({ port: await closedPort() });
    const b = open();
    expect(await b.dispatcher.call('lithos_stats', {}, agent)).toMatchObject({ notes: 1 });
    expect(b.mode()).toBe('headless');
    expect(lines.join('\n')).toMatch(/did not connect/);
  });

  test('when the host refuses the bridge and holds the lock, reads work read-only and a write\'s vault_locked error names both', async () => {
    announce({ port: await closedPort() });
    const now = new Date().toISOString();
    writeFileSync(lockFile(), JSON.stringify({ pid: process.pid, hostname: hostname(), started_at: now, heartbeat_at: now, owner: 'plugin', token: 'x' }));
    const b = open();
    expect(await b.dispatcher.call('lithos_stats', {}, agent)).toMatchObject({ notes: 1 });
    const err = await b.dispatcher.call('lithos_write', { title: 'T', content: 'x\n' }, agent).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'vault_locked', message: expect.stringContaining('did not accept this bridge'), data: { relay_error: expect.any(String) } });
  });

  test('an idle headless bridge hands over by itself once a host appears: no call needed, the lock is released', async () => {
    bridge = modeHost({ vault, catalog: TOOL_CATALOG, agent: 'agent-a', version: '0.0.0-test', logger, connectWaitMs: LIVE_HOST_WAIT_MS, watchMs: 50 });
    const b = bridge;
    await b.dispatcher.call('lithos_stats', {}, agent);
    expect(b.mode()).toBe('headless');
    expect(existsSync(lockFile())).toBe(true);
    host = await startCatalogHost(vault);
    await eventually(() => b.mode() === 'relay', () => b.mode());
    expect(existsSync(lockFile())).toBe(false);
    expect(host.calls).toEqual([]);
    expect(lines.join('\n')).toContain('switched from headless to relay');
  });

  test('after close, calls fail as not retryable and nothing reopens', async () => {
    const b = open();
    await b.close();
    await expect(b.dispatcher.call('lithos_stats', {}, agent)).rejects.toMatchObject({ code: 'unavailable', data: { retryable: false } });
    expect(existsSync(lockFile())).toBe(false);
  });
});
