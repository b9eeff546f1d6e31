import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './run-cli';
import { NodeBlobStore } from '../../bridge/node-blob-store';
import { loadSqlJs } from '../../bridge/sql';
import { silentLogger, systemClock, systemTimers } from '../../shared/ports';
import { MemoryStore, type EventRow } from '../../shared/stores/memory-store';

/** `lithos events <vault>`: the episodic events as the person sees them, read-only beside a running engine. */
let root: string;
let vault: string;
const HOUR = 3600 * 1000;

const event = (id: string, over: Partial<EventRow>): EventRow => ({
  event_id: id, kind: 'observation', at: Date.now(), actor: 'claude', actor_kind: 'agent', access_scope: 'agent_private',
  namespace: 'agent/claude', summary: `event ${id}`, data: null, links: [], status: 'active', status_at: Date.now(), ...over,
});

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'lithos-events-'));
  vault = join(root, 'vault');
  mkdirSync(join(vault, 'project'), { recursive: true });
  writeFileSync(join(vault, 'project/pool.md'), '---\ntitle: Pool sizing\n---\nThe connection pool was too small.\n');
  expect((await cli('index', vault)).code).toBe(0);
  const { store } = await MemoryStore.open({ sql: await loadSqlJs(), blobs: new NodeBlobStore(join(vault, '.lithos')), clock: systemClock, timers: systemTimers, logger: silentLogger });
  const pool = store.nodes.byPath('project/pool.md')!.node_id;
  await store.events.add([
    event('e1', { at: Date.now() - 48 * HOUR, kind: 'tool_call', summary: 'lithos_search ok' }),
    event('e2', { at: Date.now() - 2 * HOUR, summary: 'pool saturates', links: [pool] }),
    event('e3', { at: Date.now() - HOUR, kind: 'milestone', summary: 'shipped', actor: 'codex', status: 'archived' }),
  ]);
  await store.close();
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

test('--json lists every event newest first; filters narrow it', async () => {
  const ids = async (...flags: string[]) => (await cli('events', vault, '--json', ...flags)).json().events.map((e: { event_id: string }) => e.event_id) as string[];
  expect(await ids()).toEqual(['e3', 'e2', 'e1']);
  expect(await ids('--kind', 'tool_call')).toEqual(['e1']);
  expect(await ids('--kind', 'tool_call', '--kind', 'milestone')).toEqual(['e3', 'e1']);
  expect(await ids('--since', '1d')).toEqual(['e3', 'e2']);
  expect(await ids('--node', 'project/pool.md')).toEqual(['e2']);
  expect(await ids('--status', 'archived')).toEqual(['e3']);
  expect(await ids('--limit', '1')).toEqual(['e3']);
});

test('the table shows time, kind, actor, scope, summary, links and status', async () => {
  const r = await cli('events', vault);
  expect(r.code).toBe(0);
  expect(r.out).toMatch(/milestone\s+codex\s+agent_private\s+shipped\s+0\s+archived/);
  expect(r.out).toContain('3 events, newest first.');
});
