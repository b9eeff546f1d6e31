import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './run-cli';

/**
 * `lithos drift` on a real folder. The CLI runs on the system clock, so the claims' ages come from their
 * updated_at (the engine-level spec, test/learning/drift.test.ts, shifts a FakeClock instead).
 */
const DAY = 24 * 3600 * 1000;
let root: string;
let vault: string;

function write(rel: string, text: string): void {
  const p = join(vault, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
}

const claim = (title: string, state: string, daysAgo: number): string =>
  `---\ntitle: ${title}\nnote_type: claim\nstate: ${state}\nevidence:\n  - "[[Backtest]]"\nupdated_at: ${new Date(Date.now() - daysAgo * DAY).toISOString()}\n---\n${title}.\n`;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lithos-drift-'));
  vault = join(root, 'vault');
  write('Backtest.md', '---\ntitle: Backtest\n---\nThe backtest.\n');
  write('Pool claim.md', claim('Pool claim', 'contested', 20));
  write('Cache claim.md', claim('Cache claim', 'unverified', 40));
  write('Fresh claim.md', claim('Fresh claim', 'unverified', 3));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

test('--json lists the 20-day-old contested claim and the 40-day-old unverified claim with their thresholds', async () => {
  const r = await cli('drift', vault, '--json');
  expect(r.code).toBe(0);
  const alerts = r.json().alerts.map((a: { kind: string; note: { path: string }; age_days: number; threshold: unknown }) => ({ kind: a.kind, path: a.note.path, age_days: a.age_days, threshold: a.threshold }));
  expect(alerts).toEqual([
    { kind: 'contested_claim', path: 'Pool claim.md', age_days: 20, threshold: { key: 'drift.contested_days', days: 14 } },
    { kind: 'unverified_claim', path: 'Cache claim.md', age_days: 40, threshold: { key: 'drift.unverified_days', days: 30 } },
  ]);
});

test('the text form is a table and one line of what to do per alert; thresholds follow learning.json', async () => {
  mkdirSync(join(vault, '.lithos'), { recursive: true });
  writeFileSync(join(vault, '.lithos/learning.json'), JSON.stringify({ version: 1, drift: { contested_days: 30 } }));
  const r = await cli('drift', vault);
  expect(r.out).toMatch(/unverified_claim\s+Cache claim\s+40d\s+drift\.unverified_days 30d\s+Cache claim\.md/);
  expect(r.out).not.toContain('contested_claim');
  expect(r.out).toContain('- Verify Cache claim: add supporting evidence');
});
