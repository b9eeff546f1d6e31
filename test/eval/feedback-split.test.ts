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

test('the text table prints the before/after figures and the gain', async () => {
  const { code, out } = await run({ feedbackSplit: 0.5, json: false });
  expect(code).toBe(0);
  expect(out).toContain('feedback split 0.5');
  expect(out).toMatch(/feedback-mini\s+\d\.\d{4}\s+\d\.\d{4}\s+[+-]\d+\.\d%/);
  expect(out).toMatch(/^macro\s/m);
});

test('a split outside (0, 1) or outside pts mode is a usage error (exit 2)', async () => {
  expect((await run({ feedbackSplit: 1 })).code).toBe(2);
  expect((await run({ feedbackSplit: 0 })).code).toBe(2);
  expect((await run({ feedbackSplit: 0.5, mode: 'lexical' })).code).toBe(2);
  expect(JSON.parse((await run({ feedbackSplit: 0.5, mode: 'hybrid' })).out)).toMatchObject({ error: { code: 'invalid_argument' } });
});
