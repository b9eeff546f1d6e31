import { normaliseTarget, scoreTarget, suggestTargets, SUGGEST_MIN_SCORE } from '../../shared/ledger/target-names';

describe('normaliseTarget: one key for every spelling of a target', () => {
  test.each([
    ['Auth Service', 'auth-service'],
    ['auth-service', 'auth-service'],
    ['auth_service', 'auth-service'],
    ['auth.service', 'auth-service'],
    ['  AUTH   SERVICE ', 'auth-service'],
    ['AuthService', 'auth-service'],
    ['Auth Services', 'auth-service'],
    ['auth-service/Session Stores', 'auth-service/session-store'],
    ['auth-service / session_store/', 'auth-service/session-store'],
    ['Policies', 'policy'],
    ['boxes', 'box'],
    ['status', 'status'],
    ['analysis', 'analysis'],
    ['access', 'access'],
    ['OAuth', 'oauth'],
    ['GraphQL gateway', 'graphql-gateway'],
    ['ＡＵＴＨ', 'auth'],
    ['k8s', 'k8s'],
    ['---', ''],
  ])('%s → %s', (name, key) => {
    expect(normaliseTarget(name)).toBe(key);
  });
});

describe('suggestTargets: the existing targets a new name probably means', () => {
  const existing = ['auth-service', 'auth-service/session-store', 'billing', 'search-index', 'user-profile'];

  test('authsvc → auth-service first, as an abbreviation (a subsequence of its letters)', () => {
    const [first] = suggestTargets('authsvc', existing);
    expect(first).toEqual({ target: 'auth-service', score: expect.any(Number), why: 'subsequence' });
    expect(first.score).toBeGreaterThan(0.75);
  });

  test('initials, typos and spellings of the same key', () => {
    expect(suggestTargets('as', existing)[0]).toMatchObject({ target: 'auth-service', why: 'initials', score: 0.9 });
    expect(suggestTargets('Auth Services', existing)[0]).toMatchObject({ target: 'auth-service', why: 'same', score: 1 });
    expect(suggestTargets('saerch index', existing)[0]).toMatchObject({ target: 'search-index', why: 'trigrams' });
    expect(suggestTargets('index search', existing)[0]).toMatchObject({ target: 'search-index', why: 'trigrams' });
  });

  test('an unrelated name gets nothing, and the list is bounded and ordered', () => {
    expect(suggestTargets('kubernetes', existing)).toEqual([]);
    expect(suggestTargets('', existing)).toEqual([]);
    const all = suggestTargets('auth', existing, 1);
    expect(all).toHaveLength(1);
    const many = suggestTargets('auth', existing);
    expect(many.map((s) => s.score)).toEqual([...many.map((s) => s.score)].sort((a, b) => b - a));
    for (const s of many) expect(s.score).toBeGreaterThanOrEqual(SUGGEST_MIN_SCORE);
  });

  test('scores: same 1, a longer cover beats a shorter one', () => {
    expect(scoreTarget('auth-service', 'auth-service').score).toBe(1);
    expect(scoreTarget('authservic', 'auth-service').score).toBeGreaterThan(scoreTarget('authsvc', 'auth-service').score);
    expect(scoreTarget('billing', 'auth-service').score).toBeLessThan(SUGGEST_MIN_SCORE);
  });
});
