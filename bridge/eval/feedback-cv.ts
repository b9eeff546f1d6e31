/**
 * `lithos eval … --mode pts --feedback-split F --cv grid.json`: the feedback gain, cross-validated, so no
 * learning constant is chosen on the figures reported.
 *
 * The grid file names constants (constant-overrides.ts) and the values to try:
 *   { "params": { "rerank.ignored_penalty": [0, 0.3], "feedback.ignored_class_prior": [-0.03, 0] },
 *     "points": [ { "tag_affinity.pseudo_count": 10 } ], "penalty": 1 }
 * `params` is crossed (every combination), `points` are added as they are, and the defaults (no override)
 * are always a point. Each point runs the feedback split once on every dataset (per-dataset gains). Then,
 * per fold, the point with the best objective on the fold's tuning datasets is chosen and its figures on the
 * fold's held-out datasets are what the fold reports:
 * - a collection of 3 or more datasets (LoCoMo's conversations) holds out each pair (⌈2/5⌉ of them, at
 *   least one) in turn, tuning on the rest of that collection (3 conversations for LoCoMo's 5);
 * - any other dataset (scifact-dev, vmm-general) is held out alone, tuning on everything else (LoCoMo and
 *   the other one).
 * The objective is the tuning datasets' macro gain (macro nDCG@10 / macro baseline − 1) minus `penalty` ×
 * the sum of their losses below baseline (a dataset made worse counts against a point). A dataset's
 * cross-validated figure is the mean of its held-out figures over the folds that hold it out. Points whose
 * constants cannot change the fresh index's ranking share its baseline (constant-overrides.ts baselineKey).
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { LithosError } from '../../shared/errors';
import type { DatasetRef } from './beir';
import { baselineKey, pointLabel, splitPoint, withRetrievalOverrides, type ConstantPoint } from './constant-overrides';
import { evaluateWithFeedback, type BaselineCache } from './feedback-split';

export interface CvGrid {
  points: ConstantPoint[];
  /** Weight of the summed losses below baseline in the objective. */
  penalty: number;
}

const gridSchema = z.strictObject({
  params: z.record(z.string(), z.array(z.number()).min(1)).optional(),
  points: z.array(z.record(z.string(), z.number())).optional(),
  penalty: z.number().min(0).optional(),
});

/** Most points a grid may expand to (each costs a full feedback-split run of every dataset). */
export const MAX_POINTS = 400;

/** Validates a grid (every key and value, before anything runs) and expands it; the defaults come first. */
export function parseGrid(raw: unknown): CvGrid {
  const r = gridSchema.safeParse(raw);
  if (!r.success) {
    const issues = r.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`);
    throw new LithosError('invalid_argument', `Not a valid --cv grid: ${issues.join('; ')}.`, { issues });
  }
  let crossed: Record<string, number>[] = [{}];
  for (const [key, values] of Object.entries(r.data.params ?? {})) {
    crossed = crossed.flatMap((p) => values.map((v) => ({ ...p, [key]: v })));
    if (crossed.length > MAX_POINTS) break;
  }
  const all = [{}, ...(r.data.params ? crossed : []), ...(r.data.points ?? [])];
  const seen = new Set<string>();
  const points: ConstantPoint[] = [];
  for (const p of all) {
    const label = pointLabel(p);
    if (seen.has(label)) continue;
    seen.add(label);
    splitPoint(p);
    points.push(Object.freeze({ ...p }));
  }
  if (points.length > MAX_POINTS) throw new LithosError('invalid_argument', `The --cv grid expands to more than ${MAX_POINTS} points; narrow it.`, { points: points.length });
  return { points, penalty: r.data.penalty ?? 1 };
}

/**
 * The earlier results a file holds when it is the `--json` output of a `--cv` run (its `points`, each with
 * `constants` and per-dataset figures), else null. They are reused instead of run again, so two runs' points
 * can be cross-validated together, or the same points again with another penalty.
 */
export function priorResults(raw: unknown): PointResult[] | null {
  const r = z
    .object({
      penalty: z.number().optional(),
      points: z.array(z.object({ constants: z.record(z.string(), z.number()), datasets: z.record(z.string(), z.object({ 'ndcg@10': z.number(), 'baseline_ndcg@10': z.number() })) })),
    })
    .safeParse(raw);
  if (!r.success) return null;
  return r.data.points.map((p) => {
    splitPoint(p.constants);
    return { point: Object.freeze({ ...p.constants }), items: Object.entries(p.datasets).map(([name, f]) => ({ name, baseline: f['baseline_ndcg@10'], after: f['ndcg@10'] })) };
  });
}

/** Grid files and earlier `--cv --json` outputs (priorResults), merged: the points to run and those already run. */
export async function readCvFiles(paths: readonly string[]): Promise<{ grid: CvGrid; done: PointResult[] }> {
  const points: ConstantPoint[] = [];
  const done: PointResult[] = [];
  let penalty: number | undefined;
  for (const path of paths) {
    const raw = await readJson(path);
    const prior = priorResults(raw);
    if (prior) {
      done.push(...prior);
      continue;
    }
    const g = parseGrid(raw);
    points.push(...g.points);
    if ((raw as { penalty?: unknown }).penalty !== undefined) penalty ??= g.penalty;
  }
  return { grid: { points: points.length ? points : [{}], penalty: penalty ?? 1 }, done };
}

export async function readGrid(path: string): Promise<CvGrid> {
  return parseGrid(await readJson(path));
}

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new LithosError('not_found', `Cannot read the --cv file ${path}: ${(err as Error).message}.`, { path });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new LithosError('invalid_argument', `The --cv file ${path} is not JSON: ${(err as Error).message}.`, { path });
  }
}

/** One dataset under one point: nDCG@10 of the held-out queries before and after feedback. */
export interface ItemResult {
  name: string;
  baseline: number;
  after: number;
}

export interface PointResult {
  point: ConstantPoint;
  items: ItemResult[];
}

export interface Fold {
  held_out: string[];
  tune: string[];
}

/** The collection a dataset belongs to: `locomo-turns` for `locomo-turns/conv-26`, else its own name. */
export const collectionOf = (name: string): string => (name.includes('/') ? name.slice(0, name.lastIndexOf('/')) : name);

function combinations<T>(xs: readonly T[], k: number): T[][] {
  if (k === 0) return [[]];
  const out: T[][] = [];
  for (let i = 0; i <= xs.length - k; i++) for (const rest of combinations(xs.slice(i + 1), k - 1)) out.push([xs[i], ...rest]);
  return out;
}

/** The folds (module comment): every dataset is held out at least once, and never tuned on where it is reported. */
export function cvFolds(names: readonly string[]): Fold[] {
  const groups = new Map<string, string[]>();
  for (const n of names) {
    const g = collectionOf(n);
    groups.set(g, [...(groups.get(g) ?? []), n]);
  }
  const folds: Fold[] = [];
  for (const members of groups.values()) {
    if (members.length >= 3) {
      // Tuned on the rest of its own collection: the conversations like it, not datasets of another kind.
      for (const h of combinations(members, Math.max(1, Math.ceil((2 * members.length) / 5)))) folds.push({ held_out: h, tune: members.filter((n) => !h.includes(n)) });
    } else {
      for (const m of members) folds.push({ held_out: [m], tune: names.filter((n) => n !== m) });
    }
  }
  if (folds.some((f) => f.tune.length === 0)) throw new LithosError('invalid_argument', '--cv needs at least two datasets: one to tune on while the other is reported.');
  return folds;
}

const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);
const gainOf = (after: number, before: number): number => (before > 0 ? after / before - 1 : 0);

/** Macro gain of these datasets minus penalty × their summed losses below baseline. */
export function objective(items: readonly ItemResult[], penalty: number): number {
  const macro = gainOf(mean(items.map((i) => i.after)), mean(items.map((i) => i.baseline)));
  return macro - penalty * items.reduce((s, i) => s + Math.max(0, -gainOf(i.after, i.baseline)), 0);
}

export interface FoldReport extends Fold {
  /** Index into the points of the one chosen on the tuning datasets. */
  chosen: number;
  tune_objective: number;
  /** The chosen point's figures on the held-out datasets. */
  held: ItemResult[];
}

export interface CvReport {
  penalty: number;
  points: PointResult[];
  folds: FoldReport[];
  /** Per dataset: the mean of its held-out figures over the folds holding it out. */
  datasets: (ItemResult & { gain: number; folds: number })[];
  /** Per collection of several datasets, and over all: macro of the cross-validated figures. */
  macros: (ItemResult & { gain: number })[];
  /** The point the same objective picks on every dataset: what to ship as the defaults (its figures are in-sample). */
  final: { chosen: number; objective: number };
}

/** Chooses per fold on the tuning datasets only; ties go to the earlier point (the defaults first). */
export function crossValidate(points: readonly PointResult[], penalty: number): CvReport {
  if (points.length === 0) throw new LithosError('invalid_argument', 'No grid point to cross-validate.');
  const names = points[0].items.map((i) => i.name);
  const item = (p: PointResult, n: string): ItemResult => p.items.find((i) => i.name === n)!;
  const pick = (tune: readonly string[]): { chosen: number; objective: number } => {
    let chosen = 0;
    let best = -Infinity;
    points.forEach((p, i) => {
      const o = objective(
        tune.map((n) => item(p, n)),
        penalty,
      );
      if (o > best + 1e-12) [chosen, best] = [i, o];
    });
    return { chosen, objective: best };
  };
  const folds: FoldReport[] = cvFolds(names).map((f) => {
    const { chosen, objective: best } = pick(f.tune);
    return { ...f, chosen, tune_objective: best, held: f.held_out.map((n) => item(points[chosen], n)) };
  });
  const datasets = names.map((name) => {
    const held = folds.flatMap((f) => f.held.filter((h) => h.name === name));
    const baseline = mean(held.map((h) => h.baseline));
    const after = mean(held.map((h) => h.after));
    return { name, baseline, after, gain: gainOf(after, baseline), folds: held.length };
  });
  const macro = (name: string, of: typeof datasets): ItemResult & { gain: number } => {
    const baseline = mean(of.map((d) => d.baseline));
    const after = mean(of.map((d) => d.after));
    return { name, baseline, after, gain: gainOf(after, baseline) };
  };
  const macros = [...new Set(names.map(collectionOf))]
    .map((c) => ({ c, of: datasets.filter((d) => collectionOf(d.name) === c) }))
    .filter((g) => g.of.length > 1)
    .map((g) => macro(`${g.c} macro`, g.of));
  macros.push(macro('macro', datasets));
  return { penalty, points: [...points], folds, datasets, macros, final: pick(names) };
}

/**
 * Runs every point on every dataset (the expensive part), then cross-validates. `done`: points run before
 * (priorResults), on the same datasets, reused; a point in both is not run again.
 */
export async function runFeedbackCv(
  refs: readonly DatasetRef[],
  split: number,
  grid: CvGrid,
  progress: (line: string) => void = () => {},
  done: readonly PointResult[] = [],
): Promise<CvReport> {
  const names = refs.map((r) => r.name).sort();
  const points: PointResult[] = [];
  const seen = new Set<string>();
  for (const p of done) {
    const have = p.items.map((i) => i.name).sort();
    if (have.join('\u0000') !== names.join('\u0000')) {
      throw new LithosError('invalid_argument', `Earlier --cv results for ${pointLabel(p.point)} cover ${have.join(', ')}, not the datasets given (${names.join(', ')}).`);
    }
    if (seen.has(pointLabel(p.point))) continue;
    seen.add(pointLabel(p.point));
    points.push({ point: p.point, items: refs.map((r) => p.items.find((i) => i.name === r.name)!) });
  }
  const baselines: BaselineCache = new Map();
  for (const [i, point] of grid.points.entries()) {
    if (seen.has(pointLabel(point))) continue;
    seen.add(pointLabel(point));
    const { learning, retrieval } = splitPoint(point);
    const items: ItemResult[] = [];
    await withRetrievalOverrides(retrieval, async () => {
      for (const ref of refs) {
        const r = await evaluateWithFeedback(ref, split, learning, { cache: baselines, key: baselineKey(point) });
        items.push({ name: r.name, baseline: r.baseline.ndcg, after: r.scores.ndcg });
      }
    });
    points.push({ point, items });
    const g = gainOf(mean(items.map((x) => x.after)), mean(items.map((x) => x.baseline)));
    progress(`point ${i + 1}/${grid.points.length} (${pointLabel(point)}): macro gain ${pct(g)}`);
  }
  return crossValidate(points, grid.penalty);
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;
const pct = (g: number): string => `${g >= 0 ? '+' : ''}${(g * 100).toFixed(1)}%`;

export function toCvJson(r: CvReport, split: number): unknown {
  const fig = (i: ItemResult & { gain?: number }) => ({ 'ndcg@10': round4(i.after), 'baseline_ndcg@10': round4(i.baseline), gain: round4(i.gain ?? gainOf(i.after, i.baseline)) });
  return {
    feedback_split: split,
    penalty: r.penalty,
    points: r.points.map((p) => ({ constants: p.point, datasets: Object.fromEntries(p.items.map((i) => [i.name, fig(i)])) })),
    folds: r.folds.map((f) => ({
      held_out: f.held_out,
      tune: f.tune,
      chosen: r.points[f.chosen].point,
      tune_objective: round4(f.tune_objective),
      held: Object.fromEntries(f.held.map((i) => [i.name, fig(i)])),
    })),
    datasets: Object.fromEntries(r.datasets.map((d) => [d.name, { ...fig(d), folds: d.folds }])),
    macros: Object.fromEntries(r.macros.map((m) => [m.name, fig(m)])),
    final: { constants: r.points[r.final.chosen].point, objective: round4(r.final.objective) },
  };
}

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '));
}

export function formatCvTable(r: CvReport, split: number): string {
  const names = r.datasets.map((d) => d.name);
  const short = (n: string): string => n.slice(n.lastIndexOf('/') + 1);
  const grid = table([
    ['point', ...names.map(short), 'macro', 'constants'],
    ...r.points.map((p, i) => {
      const g = gainOf(mean(p.items.map((x) => x.after)), mean(p.items.map((x) => x.baseline)));
      return [`#${i}`, ...p.items.map((x) => pct(gainOf(x.after, x.baseline))), pct(g), pointLabel(p.point)];
    }),
  ]);
  const folds = table([
    ['held out', 'chosen', 'tune objective', 'held-out gains'],
    ...r.folds.map((f) => [f.held_out.map(short).join(' '), `#${f.chosen}`, pct(f.tune_objective), f.held.map((h) => `${short(h.name)} ${pct(gainOf(h.after, h.baseline))}`).join(', ')]),
  ]);
  const cv = table([
    ['dataset', 'baseline', 'after (CV)', 'gain (CV)', 'folds'],
    ...r.datasets.map((d) => [d.name, d.baseline.toFixed(4), d.after.toFixed(4), pct(d.gain), String(d.folds)]),
    ...r.macros.map((m) => [m.name, m.baseline.toFixed(4), m.after.toFixed(4), pct(m.gain), '']),
  ]);
  return [
    `mode: pts, feedback split ${split}, cross-validated over ${r.points.length} points (objective: tuning macro gain − ${r.penalty} × losses below baseline)`,
    'Gain of each point on each dataset (not cross-validated):',
    ...grid,
    '',
    'Folds (each chooses on its tuning datasets only):',
    ...folds,
    '',
    'Cross-validated (held-out folds only):',
    ...cv,
    '',
    `Chosen on all datasets (the defaults to ship; its figures above are in-sample): #${r.final.chosen} ${pointLabel(r.points[r.final.chosen].point)}, objective ${pct(r.final.objective)}`,
  ].join('\n');
}
