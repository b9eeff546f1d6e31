import { IGNORED_CONFIDENCE_COUNT, IGNORED_PRIOR_COUNT } from '../../shared/retrieval/constants';
import { ignoredPenalty } from '../../shared/retrieval/rerank';
import { DEFAULT_NODE_STATS, type NodeStats } from '../../shared/stores/memory-types';

/**
 * The re-rank's ignored penalty: the ignored share of a note's retrievals, weighed by how much evidence
 * stands behind it, so one or two ignores (often for unrelated questions) barely move a note while a note
 * passed over in result after result sinks.
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

test('the penalty is the ignored share (pseudo-count in the denominator) times retrievals / (retrievals + confidence count)', () => {
  const r = 4;
  const i = 3;
  expect(ignoredPenalty(stats(r, i))).toBeCloseTo((i / (r + IGNORED_PRIOR_COUNT)) * (r / (r + IGNORED_CONFIDENCE_COUNT)), 12);
});

test('one ignore weighs far less than a chronic record with the same share of ignores', () => {
  const once = ignoredPenalty(stats(1, 1));
  const chronic = ignoredPenalty(stats(12, 12));
  expect(once).toBeLessThan(0.1);
  expect(chronic).toBeGreaterThan(0.6);
  // more of the same evidence never lowers the penalty
  for (let n = 1; n < 20; n++) expect(ignoredPenalty(stats(n + 1, n + 1))).toBeGreaterThan(ignoredPenalty(stats(n, n)));
});

test('uses count as retrievals that were not ignored: a note used as often as ignored is penalised less', () => {
  expect(ignoredPenalty(stats(8, 4, 4))).toBeLessThan(ignoredPenalty(stats(4, 4)));
  expect(ignoredPenalty(stats(8, 4, 4))).toBeLessThanOrEqual(1);
});
