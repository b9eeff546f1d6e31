import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baselineKey, splitPoint, withRetrievalOverrides } from '../../bridge/eval/constant-overrides';
import { crossValidate, cvFolds, parseGrid, type PointResult } from '../../bridge/eval/feedback-cv';
import { runEval } from '../../bridge/eval/run-eval';
import { RERANK } from '../../shared/retrieval/constants';

/** `lithos eval … --feedback-split F --cv grid.json`: constants chosen on tuning folds, figures from held-out ones. */

const CONVS = ['locomo/c1', 'locomo/c2', 'locomo/c3', 'locomo/c4', 'locomo/c5'];
const NAMES = [...CONVS, 'scifact', 'vmm'];

test('a collection of five holds out every pair (tuning on its other three); a single dataset is held out alone', () => {
  const folds = cvFolds(NAMES);
  expect(folds).toHaveLength(10 + 2);
  for (const f of folds) expect(f.tune.some((n) => f.held_out.includes(n))).toBe(false);
  for (const f of folds.filter((x) => x.held_out.length === 2)) expect([...f.tune, ...f.held_out].sort()).toEqual(CONVS);
  for (const c of CONVS) expect(folds.filter((f) => f.held_out.includes(c))).toHaveLength(4);
  expect(folds.filter((f) => f.held_out.length === 2)).toHaveLength(10);
  expect(folds.filter((f) => f.held_out.includes('scifact'))).toEqual([{ held_out: ['scifact'], tune: NAMES.filter((n) => n !== 'scifact') }]);
  expect(() => cvFolds(['alone'])).toThrow(/at least two datasets/);
});

/** Every dataset at baseline 0.5; a point's gain per dataset as given. */
function point(constants: Record<string, number>, gains: Record<string, number>): PointResult {
  return { point: constants, items: NAMES.map((name) => ({ name, baseline: 0.5, after: 0.5 * (1 + (gains[name] ?? 0)) })) };
}

test('each fold chooses on its tuning datasets only; a point that hurts a tuning dataset loses; held-out losses are reported', () => {
  const defaults = point({}, {});
  // Good everywhere except c5, where it costs 15%.
  const risky = point({ 'rerank.ignored_penalty': 0 }, { 'locomo/c1': 0.1, 'locomo/c2': 0.1, 'locomo/c3': 0.1, 'locomo/c4': 0.1, 'locomo/c5': -0.15, scifact: 0.05, vmm: 0.05 });
  const r = crossValidate([defaults, risky], 1);
  const fold = (held: string[]) => r.folds.find((f) => f.held_out.join() === held.join())!;
  // c5 held out: tuning never sees the loss, chooses the risky point, and the fold reports the loss.
  expect(fold(['locomo/c4', 'locomo/c5']).chosen).toBe(1);
  expect(fold(['locomo/c4', 'locomo/c5']).held.find((h) => h.name === 'locomo/c5')!.after).toBeCloseTo(0.425);
  // c5 among the tuning conversations: its loss outweighs the gains, the defaults win.
  expect(fold(['locomo/c1', 'locomo/c2']).tune).toEqual(['locomo/c3', 'locomo/c4', 'locomo/c5']);
  expect(fold(['locomo/c1', 'locomo/c2']).chosen).toBe(0);
  expect(fold(['scifact']).chosen).toBe(0);
  // c5 is held out in 4 folds, each chose risky (c5 absent from their tuning): −15%.
  const c5 = r.datasets.find((d) => d.name === 'locomo/c5')!;
  expect(c5.folds).toBe(4);
  expect(c5.gain).toBeCloseTo(-0.15);
  // c1 held out in 4 folds: beside c5 (risky chosen, +10%), and three times with c5 tuning (defaults, 0).
  expect(r.datasets.find((d) => d.name === 'locomo/c1')!.gain).toBeCloseTo(0.025);
  expect(r.macros.map((m) => m.name)).toEqual(['locomo macro', 'macro']);
  // On every dataset c5's loss counts: the defaults are what to ship.
  expect(r.final.chosen).toBe(0);
  // Without the penalty the risky point's macro gain (+1.7% on c3, c4, c5) wins every fold, c5's loss or not.
  expect(crossValidate([defaults, risky], 0).folds.every((f) => f.chosen === 1)).toBe(true);
});

test('a grid crosses its params, adds its points, always starts with the defaults, and names a bad key or value', () => {
  const g = parseGrid({ params: { 'rerank.ignored_penalty': [0, 0.3], 'feedback.ignored_class_prior': [-0.03, 0] }, points: [{ 'tag_affinity.pseudo_count': 10 }], penalty: 2 });
  expect(g.penalty).toBe(2);
  expect(g.points[0]).toEqual({});
  expect(g.points).toHaveLength(1 + 4 + 1);
  expect(parseGrid({}).points).toEqual([{}]);
  expect(() => parseGrid({ params: { 'rerank.nonsense': [1] } })).toThrow(/"rerank.nonsense" is not a constant/);
  expect(() => parseGrid({ params: { 'feedback.used_salience': [2] } })).toThrow(/used_salience/);
  expect(() => parseGrid({ params: { 'rerank.ignored_penalty': [-1] } })).toThrow(/≥ 0/);
  expect(() => parseGrid({ grid: [] })).toThrow(/Not a valid --cv grid/);
});

test('a retrieval constant is patched for the run and put back after it, even when it throws', async () => {
  const before = RERANK.ignored_penalty;
  const { retrieval, learning } = splitPoint({ 'rerank.ignored_penalty': 0.9, 'feedback.used_salience': 0.1 });
  expect(learning).toEqual({ feedback: { used_salience: 0.1 } });
  await withRetrievalOverrides(retrieval, async () => expect(RERANK.ignored_penalty).toBe(0.9));
  await expect(withRetrievalOverrides(retrieval, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  expect(RERANK.ignored_penalty).toBe(before);
});

test('points differing only in constants that act on learned state share one baseline; others get their own', () => {
  expect(baselineKey({})).toBe('defaults');
  expect(baselineKey({ 'scout.expansion': 0.4, 'rerank.ignored_penalty': 0, 'feedback.used_salience': 0.1, 'query_expansion.min_score': 0 })).toBe('defaults');
  expect(baselineKey({ 'scout.lexical': 0.5, 'scout.expansion': 0.4 })).toBe('scout.lexical=0.5');
  expect(baselineKey({ 'rerank.type_prior': 0.1 })).toBe('rerank.type_prior=0.1');
});

test('end to end on a generated collection of three datasets: every fold reported, JSON and table', async () => {
  const root = await mkdtemp(join(tmpdir(), 'lithos-cv-'));
  try {
    const mini = join(__dirname, '..', 'fixtures', 'feedback-mini');
    for (const c of ['a', 'b', 'c']) await cp(mini, join(root, 'coll', c), { recursive: true });
    await writeFile(join(root, 'grid.json'), JSON.stringify({ params: { 'feedback.used_class_prior': [0] } }));
    const lines: string[] = [];
    const progress: string[] = [];
    const run = (json: boolean) => runEval({ datasets: [join(root, 'coll')], mode: 'pts', feedbackSplit: 0.5, cv: [join(root, 'grid.json')], json, out: (s) => lines.push(s), progress: (s) => progress.push(s) });
    expect(await run(true)).toBe(0);
    const json = JSON.parse(lines[0]) as { folds: { held_out: string[]; chosen: Record<string, number> }[]; datasets: Record<string, { folds: number; gain: number }>; points: { datasets: unknown }[] };
    expect(json.points).toHaveLength(2);
    expect(progress).toHaveLength(2);
    // Three datasets in one collection: each pair (⌈6/5⌉ = 2) held out, tuning on the third.
    expect(json.folds.map((f) => f.held_out)).toEqual([['coll/a', 'coll/b'], ['coll/a', 'coll/c'], ['coll/b', 'coll/c']]);
    for (const d of Object.values(json.datasets)) expect(d.folds).toBe(2);
    expect(await run(false)).toBe(0);
    expect(lines[1]).toContain('Cross-validated (held-out folds only):');
    expect(lines[1]).toMatch(/^coll macro\s/m);
    // An earlier --json output is reused: only the new point runs, and the CV covers all three.
    await writeFile(join(root, 'earlier.json'), lines[0]);
    await writeFile(join(root, 'more.json'), JSON.stringify({ points: [{ 'feedback.used_salience': 0 }] }));
    progress.length = 0;
    const more: string[] = [];
    const cv = [join(root, 'earlier.json'), join(root, 'more.json')];
    expect(await runEval({ datasets: [join(root, 'coll')], mode: 'pts', feedbackSplit: 0.5, cv, json: true, out: (s) => more.push(s), progress: (s) => progress.push(s) })).toBe(0);
    expect(progress).toEqual([expect.stringContaining('feedback.used_salience=0')]);
    const merged = JSON.parse(more[0]) as { points: { constants: Record<string, number>; datasets: unknown }[] };
    expect(merged.points.map((p) => p.constants)).toEqual([{}, { 'feedback.used_class_prior': 0 }, { 'feedback.used_salience': 0 }]);
    expect(merged.points[1].datasets).toEqual(json.points[1].datasets);
    // Earlier results on other datasets cannot be mixed in.
    expect(await runEval({ datasets: [join(root, 'coll', 'a')], mode: 'pts', feedbackSplit: 0.5, cv: [join(root, 'earlier.json')], json: true, out: () => {} })).toBe(2);
    // --cv without --feedback-split is a usage error.
    expect(await runEval({ datasets: [join(root, 'coll')], mode: 'pts', cv: [join(root, 'grid.json')], json: true, out: () => {} })).toBe(2);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}, 120_000);
