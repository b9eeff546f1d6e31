import { IGNORED_CONFIDENCE_COUNT, IGNORED_FREE, IGNORED_PRIOR_COUNT } from '../../shared/retrieval/constants';
import { ignoredPenalty, timesJudged } from '../../shared/retrieval/rerank';
import { DEFAULT_NODE_STATS, type NodeStats } from '../../shared/stores/memory-types';

/**
 * The re-rank's ignored penalty: the ignored share of the times feedback judged a note (used, ignored or
 * misleading) beyond a few free ignores, weighed by how much evidence stands behind it, so one or two
 * ignores (often for unrelated questions) do not move a note while a note passed over in result after
 * result sinks. Retrievals nobody gave feedback on are no evidence either way.
 */

const stats = (ignored_count: number, use_count = 0, misleading_count = 0, retrieval_count = 0): NodeStats => ({
  node_id: 'n',
  ...DEFAULT_NODE_STATS,
  per_queryclass_priors: {},
  retrieval_count,
  ignored_count,
  use_count,
  misleading_count,
});

test('a note never judged or never ignored carries no penalty', () => {
  expect(ignoredPenalty(stats(0))).toBe(0);
  expect(ignoredPenalty(stats(0, 7))).toBe(0);
});

test('the times judged are the uses, ignores and misleading marks', () => {
  expect(timesJudged(stats(5, 3, 1, 40))).toBe(9);
});

test('the penalty is the share of ignores beyond the free ones (pseudo-count in the denominator) times judged / (judged + confidence count)', () => {
  const i = 5;
  const u = 1;
  const r = i + u;
  expect(ignoredPenalty(stats(i, u))).toBeCloseTo(((i - IGNORED_FREE) / (r + IGNORED_PRIOR_COUNT)) * (r / (r + IGNORED_CONFIDENCE_COUNT)), 12);
});

test('the first ignores are free; a chronic record with the same share of ignores sinks', () => {
  for (let n = 1; n <= IGNORED_FREE; n++) expect(ignoredPenalty(stats(n))).toBe(0);
  expect(ignoredPenalty(stats(IGNORED_FREE + 1))).toBeLessThan(0.1);
  expect(ignoredPenalty(stats(12))).toBeGreaterThan(0.5);
  // more of the same evidence never lowers the penalty, and raises it once past the free ignores
  for (let n = IGNORED_FREE; n < 20; n++) expect(ignoredPenalty(stats(n + 1))).toBeGreaterThan(ignoredPenalty(stats(n)));
});

test('a note used as often as ignored is penalised less', () => {
  expect(ignoredPenalty(stats(4, 4))).toBeLessThan(ignoredPenalty(stats(4)));
  expect(ignoredPenalty(stats(4, 4))).toBeLessThanOrEqual(1);
});

test('retrievals without feedback change nothing: the penalty reads no retrieval count', () => {
  for (const [i, u] of [[0, 0], [4, 0], [6, 2]]) expect(ignoredPenalty(stats(i, u, 0, 500))).toBe(ignoredPenalty(stats(i, u)));
});
