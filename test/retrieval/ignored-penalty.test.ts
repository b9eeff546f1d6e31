import { IGNORED_CONFIDENCE_COUNT, IGNORED_FREE, IGNORED_PRIOR_COUNT } from '../../shared/retrieval/constants';
import { ignoredPenalty } from '../../shared/retrieval/rerank';
import { DEFAULT_NODE_STATS, type NodeStats } from '../../shared/stores/memory-types';

/**
 * The re-rank's ignored penalty: the ignored share of a note's retrievals beyond a few free ignores,
 * weighed by how much evidence stands behind it, so one or two ignores (often for unrelated questions) do
 * not move a note while a note passed over in result after result sinks.
 */

const stats = (retrieval_count: number, ignored_count: number, use_count = 0): NodeStats => ({
  node_id: 'n',
  ...DEFAULT_NODE_STATS,
  per_queryclass_priors: {},
  retrieval_count,
  ignored_count,
  use_count,
});

test('a note never retrieved or never ignored carries no penalty', () => {
  expect(ignoredPenalty(stats(0, 0))).toBe(0);
  expect(ignoredPenalty(stats(7, 0, 7))).toBe(0);
});

test('the penalty is the share of ignores beyond the free ones (pseudo-count in the denominator) times retrievals / (retrievals + confidence count)', () => {
  const r = 6;
  const i = 5;
  expect(ignoredPenalty(stats(r, i))).toBeCloseTo(((i - IGNORED_FREE) / (r + IGNORED_PRIOR_COUNT)) * (r / (r + IGNORED_CONFIDENCE_COUNT)), 12);
});

test('the first ignores are free; a chronic record with the same share of ignores sinks', () => {
  for (let n = 1; n <= IGNORED_FREE; n++) expect(ignoredPenalty(stats(n, n))).toBe(0);
  expect(ignoredPenalty(stats(IGNORED_FREE + 1, IGNORED_FREE + 1))).toBeLessThan(0.1);
  expect(ignoredPenalty(stats(12, 12))).toBeGreaterThan(0.5);
  // more of the same evidence never lowers the penalty, and raises it once past the free ignores
  for (let n = IGNORED_FREE; n < 20; n++) expect(ignoredPenalty(stats(n + 1, n + 1))).toBeGreaterThan(ignoredPenalty(stats(n, n)));
});

test('uses count as retrievals that were not ignored: a note used as often as ignored is penalised less', () => {
  expect(ignoredPenalty(stats(8, 4, 4))).toBeLessThan(ignoredPenalty(stats(4, 4)));
  expect(ignoredPenalty(stats(8, 4, 4))).toBeLessThanOrEqual(1);
});
