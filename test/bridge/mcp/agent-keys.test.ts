import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { buildBridge, connect, type Session } from './built-bridge';
import { startCatalogHost, type CatalogHost } from './catalog-host';
import { cli } from '../run-cli';

/**
 * Per-agent keys through the BUILT bridge, headless and relayed: once the person issued a key to bob, a
 * bridge acting for bob without the key (LITHOS_AGENT_KEY) is unverified — shared notes only, reads only —
 * and with it bob is himself again.
 */

let build: ReturnType<typeof buildBridge>;
let root: string;
let vault: string;
let host: CatalogHost | null = null;
const sessions: Session[] = [];

beforeAll(() => {
  build = buildBridge();
}, 60_000);
afterAll(() => build?.cleanup());

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lithos-keys-'));
  vault = join(root, 'vault');
  mkdirSync(join(vault, 'agent/bob'), { recursive: true });
  writeFileSync(join(vault, 'agent/bob/Plan.md'), '---\ntitle: Plan\naccess_scope: agent_private\nauthor: bob\n---\nBob keeps the rollout plan here.\n');
  writeFileSync(join(vault, 'Shared.md'), '---\ntitle: Shared\naccess_scope: shared\n---\nEvery agent reads the rollout notes here.\n');
});
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.client.close();
  await host?.stop();
  host = null;
  rmSync(root, { recursive: true, force: true });
});

function result(r: unknown): { error: boolean; json: any } { // eslint-disable-line @typescript-eslint/no-explicit-any -- tool results are JSON
  const res = r as CallToolResult;
  return { error: res.isError === true, json: JSON.parse((res.content[0] as { text: string }).text) };
}

async function session(key?: string): Promise<Session> {
  const s = await connect(build.cli, vault, { agent: 'bob', ...(key ? { env: { LITHOS_AGENT_KEY: key } } : {}) });
  sessions.push(s);
  return s;
}

async function sees(s: Session): Promise<string[]> {
  return result(await s.client.callTool({ name: 'lithos_list', arguments: { limit: 50 } })).json.notes.map((n: { path: string }) => n.path).sort();
}

async function issueKey(): Promise<string> {
  const issued = await cli('agents', 'key', vault, 'bob', '--json');
  expect(issued.code).toBe(0);
  const key = issued.json().key as string;
  expect(readFileSync(join(vault, '.lithos/agent-keys.json'), 'utf8')).not.toContain(key);
  return key;
}

test.each(['headless', 'relay'])('%s: without bob\'s key a bob session sees shared notes only and may not write; with it, bob is himself', async (mode) => {
  const key = await issueKey();
  if (mode === 'relay') host = await startCatalogHost(vault);

  const bare = await session();
  expect(await sees(bare)).toEqual(['Shared.md']);
  const write = result(await bare.client.callTool({ name: 'lithos_write', arguments: { title: 'Forged', content: 'as bob' } }));
  expect(write).toMatchObject({ error: true, json: { code: 'forbidden', data: { verified: false } } });
  await bare.client.close();
  sessions.length = 0;

  const keyed = await session(key);
  expect(await sees(keyed)).toEqual(['Shared.md', 'agent/bob/Plan.md']);
  expect(result(await keyed.client.callTool({ name: 'lithos_write', arguments: { title: 'Signed', content: 'by bob' } })).error).toBe(false);
  if (host) expect(host.calls.every((c) => c.caller.agent_id === 'bob')).toBe(true);
}, 90_000);

test('a wrong key is no key; a revoked key opens nothing; with no key left, agents are trusted by name again', async () => {
  const key = await issueKey();
  expect((await cli('agents', 'key', vault, 'alice')).code).toBe(0);
  const closeAll = async () => {
    for (const s of sessions.splice(0)) await s.client.close();
  };
  expect(await sees(await session(key.slice(0, -2) + (key.endsWith('zz') ? 'yy' : 'zz')))).toEqual(['Shared.md']);
  await closeAll();
  expect((await cli('agents', 'key', vault, 'bob', '--revoke')).code).toBe(0);
  expect(await sees(await session(key))).toEqual(['Shared.md']); // alice's key keeps keys in use
  await closeAll();
  expect((await cli('agents', 'key', vault, 'alice', '--revoke')).code).toBe(0);
  expect(await sees(await session(key))).toEqual(['Shared.md', 'agent/bob/Plan.md']); // no key left: by name, as before
}, 90_000);
