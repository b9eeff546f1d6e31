import { join } from 'node:path';
import { runEval } from '../../bridge/eval/run-eval';
import { evaluateWithFeedback } from '../../bridge/eval/feedback-split';

/** `lithos eval --mode pts --feedback-split F` on a six-query fixture: three give feedback, three are scored. */

const MINI = join(__dirname, '..', 'fixtures', 'feedback-mini');

async function run(args: Partial<Parameters<typeof runEval>[0]>): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await runEval({ datasets: [MINI], mode: 'pts', json: true, out: (s) => lines.push(s), ...args });
  return { code, out: lines.join('\n') };
}

test('the first half of the judged queries (file order) trains, the second half is scored before and after', async () => {
  const r = await evaluateWithFeedback({ name: 'feedback-mini', dir: MINI }, 0.5);
  expect(r).toMatchObject({ trained: 3, queries: 3, skipped: 0, docs: 6, indexErrors: 0 });
  for (const s of [r.scores, r.baseline]) for (const v of Object.values(s)) expect(v).toBeGreaterThanOrEqual(0);
});

test('--json gives ndcg@10, baseline_ndcg@10 and gain per dataset and in macro; gain = ndcg / baseline − 1', async () => {
  const { code, out } = await run({ feedbackSplit: 0.5 });
  expect(code).toBe(0);
  const json = JSON.parse(out) as { feedback_split: number; datasets: Record<string, Record<string, number>>; macro: Record<string, number> };
  expect(json.feedback_split).toBe(0.5);
  expect(Object.keys(json.datasets)).toEqual(['feedback-mini']);
  const row = json.datasets['feedback-mini'];
  expect(row).toEqual(expect.objectContaining({ 'ndcg@10': expect.any(Number), 'baseline_ndcg@10': expect.any(Number), gain: expect.any(Number), queries: 3, trained: 3 }));
  expect(row.gain).toBeCloseTo(row['ndcg@10'] / row['baseline_ndcg@10'] - 1, 3);
  expect(json.macro).toEqual(row); // one dataset: the macro is that dataset
});

test('--json adds the gain\'s 95% bootstrap interval and the baseline notes by their feedback history', async () => {
  const json = JSON.parse((await run({ feedbackSplit: 0.5 })).out) as { datasets: Record<string, { gain: number; gain_ci95: [number, number]; history: Record<string, { notes: number; relevant: number }> }> };
  const row = json.datasets['feedback-mini'];
  const [lo, hi] = row.gain_ci95;
  expect(lo).toBeLessThanOrEqual(row.gain + 1e-4);
  expect(hi).toBeGreaterThanOrEqual(row.gain - 1e-4);
  expect(Object.keys(row.history)).toEqual(['used', 'ignored_1', 'ignored_2', 'ignored_3_plus', 'not_shown']);
  const notes = Object.values(row.history).reduce((s, b) => s + b.notes, 0);
  const relevant = Object.values(row.history).reduce((s, b) => s + b.relevant, 0);
  expect(notes).toBeGreaterThan(0); // three held-out queries, each returned something
  expect(relevant).toBeGreaterThan(0);
  expect(relevant).toBeLessThanOrEqual(notes);
});

test('--json says how many held-out answers were relevant to a training query and how many feedback saw used', async () => {
  const json = JSON.parse((await run({ feedbackSplit: 0.5 })).out) as { datasets: Record<string, { reach: { relevant: number; relevant_in_training: number; used_in_training: number } }> };
  const { reach } = json.datasets['feedback-mini'];
  // h1 → pool and h2 → index were answers to t1 and t2 too; h3 → queue was never asked before.
  expect(reach).toMatchObject({ relevant: 3, relevant_in_training: 2 });
  // A note only a training query's top ten held can have been used; used ⊆ relevant to training here.
  expect(reach.used_in_training).toBeLessThanOrEqual(reach.relevant_in_training);
});

test('the text table prints the before/after figures and the gain', async () => {
  const { code, out } = await run({ feedbackSplit: 0.5, json: false });
  expect(code).toBe(0);
  expect(out).toContain('feedback split 0.5');
  expect(out).toMatch(/feedback-mini\s+\d\.\d{4}\s+\d\.\d{4}\s+[+-]\d+\.\d%/);
  expect(out).toMatch(/^macro\s/m);
  expect(out).toMatch(/[+-]\d+\.\d%…[+-]\d+\.\d%/); // the 95% interval
  expect(out).toMatch(/share relevant by what feedback did with each note: used /);
  expect(out).toMatch(/What feedback could teach — the held-out queries' relevant notes: \d+ relevant · /);
});

test('a split outside (0, 1) or outside pts mode is a usage error (exit 2)', async () => {
  expect((await run({ feedbackSplit: 1 })).code).toBe(2);
  expect((await run({ feedbackSplit: 0 })).code).toBe(2);
  expect((await run({ feedbackSplit: 0.5, mode: 'lexical' })).code).toBe(2);
  expect(JSON.parse((await run({ feedbackSplit: 0.5, mode: 'hybrid' })).out)).toMatchObject({ error: { code: 'invalid_argument' } });
});
