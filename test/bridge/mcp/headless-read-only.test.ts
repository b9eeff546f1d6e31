import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { headlessHost } from '../../../bridge/mcp/headless';
import { TOOL_CATALOG } from '../../../shared/tools/catalog';
import type { Logger } from '../../../shared/ports';
import type { ToolCaller, ToolDef } from '../../../shared/tools/types';
import { z } from 'zod';
import { eventually } from '../../eventually';
import { codeOf } from '../../twins/error-code';

/**
 * Headless lithos mcp over a vault another process writes: it opens read-only, and once that process has
 * gone (its lock removed or silent) the next call reopens it as the writer.
 */

let tmp: string;
let vault: string;
const warnings: string[] = [];
const opens: string[] = [];
const logger: Logger = { debug: () => undefined, info: (m) => void (m.startsWith('vault open') && opens.push(m)), warn: (m) => void warnings.push(m), error: (m) => void warnings.push(m) };
const AGENT: ToolCaller = { kind: 'agent', agent_id: 'agent-a' };

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'lithos-headless-ro-'));
  vault = join(tmp, 'vault');
  cpSync(join(__dirname, '../../../examples/vault'), vault, { recursive: true, filter: (src) => !src.includes('/.lithos') });
  mkdirSync(join(vault, '.lithos'), { recursive: true });
  const now = new Date().toISOString();
  writeFileSync(join(vault, '.lithos/lock.json'), JSON.stringify({ pid: process.pid, hostname: hostname(), started_at: now, heartbeat_at: now, owner: 'cli', token: 'theirs' }));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
  opens.length = 0;
  warnings.length = 0;
});

test('read-only while another process holds the lock; the writer at the next call once it has gone', async () => {
  const host = headlessHost(vault, TOOL_CATALOG, logger, 0);
  try {
    const stats = (await host.dispatcher.call('lithos_stats', {}, AGENT)) as { notes: number };
    expect(stats.notes).toBeGreaterThan(0);
    expect(host.isReadOnly()).toBe(true);
    expect(await codeOf(host.dispatcher.call('lithos_write', { title: 'While locked', content: 'x\n' }, AGENT))).toBe('vault_locked');
    expect(existsSync(join(vault, 'While locked.md'))).toBe(false);

    rmSync(join(vault, '.lithos/lock.json')); // the other process ended
    const w = (await host.dispatcher.call('lithos_write', { title: 'After', content: 'Written once the vault was free.\n' }, AGENT)) as { path: string };
    expect(host.isReadOnly()).toBe(false);
    expect(existsSync(join(vault, w.path))).toBe(true);
    expect(existsSync(join(vault, '.lithos/lock.json'))).toBe(true);
  } finally {
    await host.close();
  }
  expect(existsSync(join(vault, '.lithos/lock.json'))).toBe(false);
}, 60_000);

test('while the holder is alive (only quiet), calls do not reopen the vault: it is reopened once the lock is free', async () => {
  // Silent for a minute, yet alive on this host: the lock keeps it (bridge/lock.ts), so nothing to reopen for.
  const quiet = new Date(Date.now() - 60_000).toISOString();
  writeFileSync(join(vault, '.lithos/lock.json'), JSON.stringify({ pid: process.pid, hostname: hostname(), started_at: quiet, heartbeat_at: quiet, owner: 'cli', token: 'theirs' }));
  const host = headlessHost(vault, TOOL_CATALOG, logger, 0); // 0: "10 s have passed" before every call
  try {
    for (let i = 0; i < 4; i++) await host.dispatcher.call('lithos_stats', {}, AGENT);
    expect(opens).toHaveLength(1);
    expect(host.isReadOnly()).toBe(true);
  } finally {
    await host.close();
  }
}, 60_000);

/** A read-only tool that waits for the test to let it finish: a retrieval waiting on the client's sampling. */
function gatedTool(): { def: ToolDef; release: () => void; engines: unknown[] } {
  let release = (): void => undefined;
  const gate = new Promise<void>((r) => (release = r));
  const engines: unknown[] = [];
  const def: ToolDef = {
    name: 'test_slow_read',
    title: 'Slow read',
    description: 'Waits on a gate, then searches the engine it started on.',
    input: z.strictObject({}),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async handler(_a, ctx) {
      engines.push(ctx.memory);
      await gate;
      // Search refuses on a closed engine: a result proves the call's engine stayed open.
      return { notes: (await ctx.memory.notes.search('note')).length };
    },
  };
  return { def, release: () => release(), engines };
}

test('a slow call holds nobody up: calls meanwhile run read-only, it finishes on its own engine, and the switch comes between calls', async () => {
  const slow = gatedTool();
  const host = headlessHost(vault, [...TOOL_CATALOG, slow.def], logger, 0);
  try {
    await host.dispatcher.call('lithos_stats', {}, AGENT);
    const running = host.dispatcher.call('test_slow_read', {}, AGENT);
    await eventually(() => slow.engines.length === 1);
    rmSync(join(vault, '.lithos/lock.json')); // the other process ended
    // Not held behind the slow call: answered at once, still read-only while that call runs.
    expect(await host.dispatcher.call('lithos_stats', {}, AGENT)).toMatchObject({ notes: expect.any(Number) });
    expect(host.isReadOnly()).toBe(true);
    slow.release();
    expect(await running).toMatchObject({ notes: expect.any(Number) }); // its engine was not closed under it
    await host.dispatcher.call('lithos_stats', {}, AGENT); // between calls: the switch
    expect(host.isReadOnly()).toBe(false);
  } finally {
    await host.close();
  }
}, 60_000);

test('close() during the switch waits for it, and nothing opens the vault after close', async () => {
  const host = headlessHost(vault, TOOL_CATALOG, logger, 0);
  await host.dispatcher.call('lithos_stats', {}, AGENT);
  rmSync(join(vault, '.lithos/lock.json'));
  const during = host.dispatcher.call('lithos_stats', {}, AGENT).catch((e: unknown) => e);
  await host.close();
  await during;
  expect(existsSync(join(vault, '.lithos/lock.json'))).toBe(false);
  expect(await host.dispatcher.call('lithos_stats', {}, AGENT).catch((e: unknown) => e)).toMatchObject({ code: 'unavailable' });
  expect(existsSync(join(vault, '.lithos/lock.json'))).toBe(false);
}, 60_000);

test('calls arriving together while the session becomes the writer all succeed: none runs on the engine being closed', async () => {
  const host = headlessHost(vault, TOOL_CATALOG, logger, 0);
  try {
    await host.dispatcher.call('lithos_stats', {}, AGENT);
    rmSync(join(vault, '.lithos/lock.json'));
    const calls = [
      host.dispatcher.call('lithos_stats', {}, AGENT),
      host.dispatcher.call('lithos_retrieve', { query_text: 'kafka consumer lag' }, AGENT),
      host.dispatcher.call('lithos_search', { query: 'pool' }, AGENT),
    ];
    const results = await Promise.allSettled(calls);
    expect(results.map((r) => (r.status === 'fulfilled' ? 'ok' : String((r).reason)))).toEqual(['ok', 'ok', 'ok']);
    expect(host.isReadOnly()).toBe(false);
  } finally {
    await host.close();
  }
}, 60_000);
