import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './run-cli';

/** `lithos demo` — what `npm start` runs on the bundled example vault (here on a copy of it). */

let root: string;
let vault: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lithos-demo-'));
  vault = join(root, 'vault');
  cpSync(join(__dirname, '../../examples/vault'), vault, { recursive: true, filter: (src) => !src.includes('.lithos') });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const markdown = (): Map<string, string> =>
  new Map((readdirSync(vault, { recursive: true }) as string[]).filter((p) => p.endsWith('.md')).map((p) => [p, readFileSync(join(vault, p), 'utf8')]));

test('indexes the 48 example notes, searches, finds the INC-142 contradiction, surfaces it in a debug retrieval, and lists the planted problems', async () => {
  const { code, out } = await cli('demo', vault);
  expect(code).toBe(0);
  expect(out).toMatch(/Indexed 48 notes \(48 indexed, 0 unchanged\)/);
  expect(out.match(/^search "/gm)).toHaveLength(3);
  expect(out).toMatch(/conflict rules over 48 notes: 1 new, 1 unreviewed\n {2}Ingest p95 regression caused by missing index {2}⟷ {2}Ingest p95 regression caused by pool size {2}\(rule:cause\)/);
  expect(out).toMatch(/retrieve "why did ingestion latency regress" \(class debug\)/);
  expect(out).toMatch(/conflict among these: Ingest p95 regression caused by missing index {2}⟷ {2}Ingest p95 regression caused by pool size \(unreviewed\)/);
  expect(out).toMatch(/Doctor: 2 note problem\(s\), 2 broken link\(s\)\./);
});

test('its retrieval is a try: no receipt written, nothing learned from being shown', async () => {
  const { out } = await cli('demo', vault);
  expect(out).toContain('a try: no receipt, nothing learned');
  expect((await cli('receipts', vault, '--json')).json().receipts).toEqual([]);
});

test('leaves every note as it was (callouts stay off for the demo), and a second run finds nothing new', async () => {
  const before = markdown();
  expect((await cli('demo', vault)).code).toBe(0);
  const again = await cli('demo', vault);
  expect(again.out).toMatch(/Indexed 48 notes \(0 indexed, 48 unchanged\)/);
  expect(again.out).toMatch(/conflict rules over 48 notes: 0 new, 1 unreviewed/);
  expect(markdown()).toEqual(before);
});
