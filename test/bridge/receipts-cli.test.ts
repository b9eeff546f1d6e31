import { mkdtempSync, rmSync, writeFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../bridge/cli';
import { cli } from './run-cli';
import { acquireLock } from '../../bridge/lock';
import { NodeBlobStore } from '../../bridge/node-blob-store';
import { ReceiptLog } from '../../shared/retrieval/receipts';
import { systemClock } from '../../shared/ports';
import { HOUR, TERMS, receipt } from '../retrieval/receipt-fixture';

/** `lithos receipts` as a user drives it: a real vault folder whose receipts a ReceiptLog wrote. */
let root: string;
let vault: string;
let poolId: string;

const ago = (hours: number): string => new Date(Date.now() - hours * HOUR).toISOString();
const node = (id: string) => ({ id, score: 0.8, scouts: ['lexical' as const], terms: TERMS });

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'lithos-receipts-'));
  vault = join(root, 'vault');
  mkdirSync(join(vault, 'project/atlas'), { recursive: true });
  writeFileSync(join(vault, 'project/atlas/pool.md'), '---\ntitle: Pool sizing\n---\nThe connection pool was too small.\n');
  writeFileSync(join(vault, 'project/atlas/Index.md'), 'The missing index caused the latency regression.\n');
  // index once so the node registry can name the nodes receipts point at
  expect((await cli('index', vault)).code).toBe(0);
  poolId = (await cli('search', vault, 'connection pool', '--json')).json().results[0].id as string;

  const log = new ReceiptLog(new NodeBlobStore(join(vault, '.lithos')), systemClock);
  await log.append(receipt(1, { ts: ago(72), agent_id: 'claude', task_id: 'T-1', query_text: 'why was the pool too small', final_nodes: [node(poolId)] }));
  await log.append(receipt(2, { ts: ago(5), agent_id: 'codex', query_class: 'debug', temperature: 0.71, query_text: 'latency regression after the release', final_nodes: [node('unknown-node')] }));
  await log.append(receipt(3, { ts: ago(1), agent_id: 'claude', task_id: 'T-2', query_class: 'design', query_text: 'connection pool sizing' }));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

test('--json prints the receipts newest first and the count of skipped lines', async () => {
  const r = await cli('receipts', vault, '--json');
  expect(r.code).toBe(0);
  const { receipts, skipped_lines } = r.json();
  expect(receipts.map((x: { receipt_id: string }) => x.receipt_id)).toEqual(['r3', 'r2', 'r1']);
  expect(receipts[2]).toMatchObject({ agent_id: 'claude', task_id: 'T-1', final_nodes: [{ id: poolId }] });
  expect(skipped_lines).toBe(0);
});

test('filters: --agent, --task, --node (id or note path), --since, --until, --limit', async () => {
  const idsOf = async (...flags: string[]) => (await cli('receipts', vault, '--json', ...flags)).json().receipts.map((x: { receipt_id: string }) => x.receipt_id) as string[];
  expect(await idsOf('--agent', 'claude')).toEqual(['r3', 'r1']);
  expect(await idsOf('--task', 'T-1')).toEqual(['r1']);
  expect(await idsOf('--node', poolId)).toEqual(['r1']);
  expect(await idsOf('--node', 'project/atlas/pool.md')).toEqual(['r1']);
  expect(await idsOf('--since', '2d')).toEqual(['r3', 'r2']);
  expect(await idsOf('--since', ago(6), '--until', ago(2))).toEqual(['r2']);
  expect(await idsOf('--since', '3h', '--agent', 'codex')).toEqual([]);
  expect(await idsOf('--limit', '1')).toEqual(['r3']);
});

test('the table shows time, agent, class, query, temperature and top nodes by name', async () => {
  const r = await cli('receipts', vault);
  expect(r.code).toBe(0);
  const lines = r.out.split('\n');
  expect(lines[0]).toMatch(/^time\s+agent\s+class\s+query\s+temp\s+top nodes$/);
  expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ\s+claude\s+design\s+connection pool sizing\s+0\.30\s+n1$/);
  expect(lines[2]).toMatch(/codex\s+debug\s+latency regression after the release\s+0\.71\s+unknown-node$/);
  expect(lines[3]).toMatch(/claude\s+lookup\s+why was the pool too small\s+0\.30\s+pool$/);
  expect(lines[4]).toBe('3 receipts, newest first.');
  expect((await cli('receipts', vault, '--agent', 'nobody')).out).toBe('No receipts.');
});

test('damaged lines are skipped and counted, in JSON and in the table', async () => {
  writeFileSync(join(vault, '.lithos/receipts.jsonl'), readFileSync(join(vault, '.lithos/receipts.jsonl'), 'utf8') + '{"receipt_id": "r4", "ts"');
  expect((await cli('receipts', vault, '--json')).json().skipped_lines).toBe(1);
  expect((await cli('receipts', vault)).out).toMatch(/3 receipts, newest first \(1 damaged line skipped\)\.$/);
});

test('runs beside the process holding the writer lock and changes no file', async () => {
  const lock = await acquireLock(join(vault, '.lithos'), { owner: 'plugin' });
  try {
    const before = readdirSync(join(vault, '.lithos')).sort();
    const receiptsBefore = readFileSync(join(vault, '.lithos/receipts.jsonl'));
    expect((await cli('receipts', vault, '--json')).json().receipts).toHaveLength(3);
    expect((await cli('receipts', vault)).out).toMatch(/pool$/m);
    expect(readdirSync(join(vault, '.lithos')).sort()).toEqual(before);
    expect(readFileSync(join(vault, '.lithos/receipts.jsonl')).equals(receiptsBefore)).toBe(true);
  } finally {
    await lock.release();
  }
});

test('a vault with no receipts yet, and one never indexed, answer cleanly', async () => {
  rmSync(join(vault, '.lithos'), { recursive: true });
  expect((await cli('receipts', vault, '--json')).json()).toEqual({ receipts: [], skipped_lines: 0 });
  expect((await cli('receipts', vault)).out).toBe('No receipts.');
  expect(readdirSync(vault)).not.toContain('.lithos');
});

test('bad arguments: a clear message and a non-zero exit', async () => {
  await expect(cli('receipts', vault, '--since', 'yesterday')).rejects.toMatchObject({
    code: 'invalid_argument',
    message: expect.stringMatching(/^--since must be an ISO time .* \(got "yesterday"\)\.$/),
  });
  await expect(cli('receipts', vault, '--since', '1h', '--until', '2h')).rejects.toMatchObject({ code: 'invalid_argument' });
  const errs: string[] = [];
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((s) => (errs.push(String(s)), true));
  try {
    expect(await run(['receipts', vault, '--limit', 'all'])).toBe(2);
    expect(await run(['receipts'])).toBe(2);
    expect(await run(['receipts', join(root, 'nope')])).toBe(1);
    expect(await run(['receipts', vault, '--until', 'later'])).toBe(1);
  } finally {
    spy.mockRestore();
  }
  expect(errs[0]).toMatch(/--limit must be a whole number from 1 to 10000/);
  expect(errs[2]).toMatch(/does not exist/);
  expect(errs[3]).toMatch(/^lithos: --until must be an ISO time .* \[invalid_argument\]\n$/);
});
