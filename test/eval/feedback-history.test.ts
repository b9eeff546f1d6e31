import { bucketOf, formatRates, formatReach, historyRates, reachOf, sumRates, sumReach } from '../../bridge/eval/feedback-history';

/** The baseline's returned notes grouped by what feedback later did with them. */

const stats = (use_count: number, ignored_count: number) => ({ use_count, ignored_count });

test('a note used even once is "used"; otherwise it is bucketed by how often it was ignored', () => {
  expect(bucketOf(stats(1, 7))).toBe('used');
  expect(bucketOf(stats(0, 0))).toBe('not_shown');
  expect(bucketOf(stats(0, 1))).toBe('ignored_1');
  expect(bucketOf(stats(0, 2))).toBe('ignored_2');
  expect(bucketOf(stats(0, 3))).toBe('ignored_3_plus');
  expect(bucketOf(stats(0, 12))).toBe('ignored_3_plus');
});

test('each returned note counts once per query that returned it, relevant ones separately', () => {
  const history = new Map([['a', stats(2, 0)], ['b', stats(0, 4)], ['c', stats(0, 0)]]);
  const r = historyRates(
    [
      [{ id: 'a', relevant: true }, { id: 'b', relevant: false }],
      [{ id: 'b', relevant: true }, { id: 'c', relevant: false }, { id: 'a', relevant: false }],
    ],
    (id) => history.get(id)!,
  );
  expect(r.used).toEqual({ notes: 2, relevant: 1 });
  expect(r.ignored_3_plus).toEqual({ notes: 2, relevant: 1 });
  expect(r.not_shown).toEqual({ notes: 1, relevant: 0 });
  expect(r.ignored_1).toEqual({ notes: 0, relevant: 0 });
  expect(sumRates([r, r]).used).toEqual({ notes: 4, relevant: 2 });
  expect(formatRates(r)).toBe('used 50.0% (n=2) · ignored 1× – (n=0) · ignored 2× – (n=0) · ignored 3×+ 50.0% (n=2) · never shown 0.0% (n=1)');
});

test('reach: of the held-out answers, those relevant to a training query and those feedback saw used', () => {
  const r = reachOf([['a', 'b'], ['b', 'c', 'd']], new Set(['b', 'c']), (id) => id === 'b');
  expect(r).toEqual({ relevant: 5, relevant_in_training: 3, used_in_training: 2 });
  expect(sumReach([r, r])).toEqual({ relevant: 10, relevant_in_training: 6, used_in_training: 4 });
  expect(formatReach(r)).toBe('5 relevant · 60.0% relevant to a training query · 40.0% used by feedback');
  expect(formatReach(reachOf([], new Set(), () => false))).toBe('0 relevant · – relevant to a training query · – used by feedback');
});
