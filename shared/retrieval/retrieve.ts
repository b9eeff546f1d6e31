/**
 * Parallel Terraced Scan, composed of its stages (stages/): the scope gate bound to the viewer (visibility),
 * terrace 0's scout waves and the re-rank (scan), terrace 1's temperature and MMR choice (choose), terrace 2's
 * interpretive pass when the policy wants one and an interpreter is configured (interpret), then the result
 * and its receipt. Scouts are listed in scouts/index.ts.
 */
import type { Clock } from '../ports';
import { agentViewer } from '../governance/gate';
import { intentWeights } from './rerank';
import { resolveQuery } from './query';
import { hashSeed, seededRandom } from './rng';
import type { Interpreter } from './terrace2';
import type { QueryContext, Receipt, RetrievalCorpus, RetrievalResult, RetrieveOptions, Scout, ScoutName } from './types';
import { choose, temperatureOf, widened } from './stages/choose';
import { conflictsAmong, surfacesConflicts } from './stages/conflicts';
import { interpret } from './stages/interpret';
import { receiptOf } from './stages/receipt';
import { emptyResult, resultOf } from './stages/result';
import { scan, type ScanSetup } from './stages/scan';
import { visibilityGate } from './stages/visibility';

export interface RetrieveDeps {
  corpus: RetrievalCorpus;
  scouts: readonly Scout<ScoutName>[];
  clock: Clock;
  /** ms timer for telemetry (performance.now where there is one). */
  elapsed?: () => number;
  interpreter?: Interpreter | null;
  newId: () => string;
  /** Persists the receipt and bumps retrieval stats; absent, `record: false` or a try → nothing is written. */
  record?: (receipt: Receipt) => Promise<void>;
}

const HOUR = 3600 * 1000;

export async function retrieve(ctx: QueryContext, opts: RetrieveOptions, deps: RetrieveDeps): Promise<RetrievalResult> {
  const clockMs = deps.elapsed ?? (() => deps.clock.now());
  const started = clockMs();
  const q = resolveQuery(ctx);
  const now = deps.clock.now();
  const seed = opts.seed ?? hashSeed(`${q.text}|${Math.floor(now / HOUR)}`);
  const { corpus } = deps;
  corpus.beginScan?.();
  const visible = visibilityGate(opts.viewer ?? agentViewer(q.agent_id, q.task_id), q, corpus);
  if (q.text === '' || corpus.size() === 0) return tried(emptyResult(q, q.text === '' ? 'empty query' : 'empty vault', clockMs() - started), opts);

  const without = new Set<ScoutName>(opts.without ?? []);
  const weights = intentWeights(q.intent, opts.jitter === false ? null : seededRandom(seed ^ 0x9e3779b9));
  const setup: ScanSetup = { corpus, scouts: deps.scouts.filter((s) => !without.has(s.name)), without, visible, weights, now, seed, clockMs };
  let first = await scan(q, setup);
  const temp = temperatureOf(first.ranked, corpus, first.contrast);
  // Hot: the first scan's best notes do not hang together, so cast a wider net before choosing.
  if (temp.hot) first = await scan(q, setup, widened(first.width));
  const { ranked, candidates, telemetry } = first;
  for (const name of without) telemetry[name] = { hits: 0, ms: 0, skipped: 'switched off (--without)' };
  const choice = choose(ranked, q, corpus, temp, first.width);
  const surface = surfacesConflicts(ctx, q);
  const conflicts = !surface ? [] : conflictsAmong(choice.final.map((r) => r.id), corpus, visible);
  const pass = await interpret({ ctx, q, ranked, choice, surface, conflicts, visible, corpus, interpreter: deps.interpreter, rescan: (fq) => scan(fq, setup) });
  const result = resultOf(q, corpus, choice.coh, choice.hotPath, pass, telemetry, clockMs() - started);

  if (opts.record !== false && !opts.try && deps.record) {
    const receipt = receiptOf(deps.newId(), now, q, result, candidates);
    await deps.record(receipt);
    result.receipt_id = receipt.receipt_id;
  }
  return tried(result, opts);
}

/** A try's result says so (it has no receipt). */
function tried(result: RetrievalResult, opts: RetrieveOptions): RetrievalResult {
  return opts.try ? { ...result, try: true } : result;
}
