import { CAUSE_SUBJECT, claimsOf, noteClaims, sentencesOf } from '../../shared/conflicts/claims';
import { compareClaims } from '../../shared/conflicts/rules';

/** Findings between two note bodies, as the detector compares them. */
function findings(a: string, b: string) {
  return compareClaims(noteClaims(a, 400), noteClaims(b, 400), 3);
}

describe('rule detection: claims', () => {
  it('reads a number claim with its subject, mode and unit', () => {
    expect(claimsOf('The pool size is 20 connections')).toEqual([
      { kind: 'number', subject: 'pool size', mode: 'present', value: 20, unit: 'connection', sentence: 'The pool size is 20 connections' },
    ]);
  });

  it('reads negation and status claims', () => {
    expect(claimsOf('Request coalescing is not enabled')).toMatchObject([{ kind: 'polar', subject: 'request coalescing', predicate: 'enabled', negated: true }]);
    expect(claimsOf('The v1 endpoint is deprecated')).toMatchObject([{ kind: 'status', subject: 'v1 endpoint', group: 'lifecycle', positive: false }]);
    expect(claimsOf("The nightly export doesn't work")).toMatchObject([{ kind: 'status', subject: 'nightly export', group: 'health', positive: false }]);
  });

  it('reads nothing from hedged, reported, approximate, ranged or subjectless sentences', () => {
    for (const s of [
      'If traffic doubles, the pool size is 50',
      'scout-7 said the pool size is 20',
      'Is the pool size 20?',
      'The pool size is about 20',
      'The pool size is 10 to 20',
      'It is 20',
      'The pool size might be 20',
      'The pool size is larger than the worker count',
      'The treated group remembered more (p = 0.0374)', // statistical notation, not a subject
      'Forty-five percent (n = 15) had received therapy',
      'BMI correlated inversely with recovery (R = -0.768; P = .07)',
    ]) {
      expect({ s, claims: claimsOf(s) }).toEqual({ s, claims: [] });
    }
  });

  it('reads causal claims: what is caused, the asserted cause and an explicit denial, in content words', () => {
    expect(claimsOf('The p95 regression on atlas-ingest was caused by a missing index, not by the connection pool')).toEqual([
      {
        kind: 'cause',
        subject: CAUSE_SUBJECT,
        about: ['p95', 'regression', 'atlas-ingest'],
        asserted: ['missing', 'index'],
        denied: ['connection', 'pool'],
        sentence: 'The p95 regression on atlas-ingest was caused by a missing index, not by the connection pool',
      },
    ]);
    expect(claimsOf("The ingest service's p95 regression is due to pool exhaustion")).toMatchObject([{ kind: 'cause', about: ['ingest', 'service', 'p95', 'regression'], asserted: ['pool', 'exhaustion'], denied: [] }]);
    expect(claimsOf('The p95 regression was not caused by the connection pool')).toMatchObject([{ kind: 'cause', asserted: [], denied: ['connection', 'pool'] }]);
    for (const s of ['It was caused by the pool', 'The regression might be caused by the pool', 'The regression is caused by the pool rather than the index']) {
      expect({ s, claims: claimsOf(s) }).toEqual({ s, claims: [] });
    }
  });

  it('turns Markdown into plain sentences, skipping code and managed callouts', () => {
    const body = [
      '%% lithos:begin conflict e1 %%',
      '> [!lithos-conflict] The pool size is 99',
      '',
      '%% lithos:end %%',
      '',
      '# Pool',
      '- The **pool size** is 20. Workers are [[Worker fleet|stable]].',
      '```',
      'pool size is 70',
      '```',
    ].join('\n');
    expect(sentencesOf(body)).toEqual(['Pool', 'The pool size is 20', 'Workers are stable']);
  });
});

describe('rule detection: disagreements', () => {
  it('numbers: the same subject with different values is a finding; the same value is not', () => {
    expect(findings('The pool size is 20.', 'After the review, the pool size is 50.')).toEqual([
      { rule: 'number', subject: 'pool size', a_sentence: 'The pool size is 20', b_sentence: 'After the review, the pool size is 50' },
    ]);
    expect(findings('The pool size is 20.', 'The pool size is 20.')).toEqual([]);
  });

  it('numbers: different units, different modes or different subjects are not findings', () => {
    expect(findings('The timeout is 2 s.', 'The timeout is 2000 ms.')).toEqual([]);
    expect(findings('The pool size is 10.', 'The pool size should be 40.')).toEqual([]);
    expect(findings('The pool size was 20.', 'The pool size is 10.')).toEqual([]);
    expect(findings('The pool size is 20.', 'The batch size is 50.')).toEqual([]);
  });

  it('negation: asserted in one note, denied in the other', () => {
    expect(findings('Request coalescing is enabled in production.', 'Request coalescing is not enabled.')).toMatchObject([{ rule: 'negation', subject: 'request coalescing' }]);
    expect(findings('The v1 endpoint is deprecated.', 'The v1 endpoint is not deprecated.')).toMatchObject([{ rule: 'negation' }]);
    expect(findings('Request coalescing is enabled.', 'Request coalescing is enabled.')).toEqual([]);
  });

  it('status words: opposite classes of one group (active/deprecated, approved/rejected, works/broken)', () => {
    expect(findings('The v1 endpoint is active.', 'The v1 endpoint is deprecated.')).toMatchObject([{ rule: 'status', subject: 'v1 endpoint' }]);
    expect(findings('The migration plan is approved.', 'The migration plan was rejected.')).toEqual([]); // past vs present
    expect(findings('The migration plan is approved.', 'The migration plan is rejected.')).toMatchObject([{ rule: 'status' }]);
    expect(findings('The nightly export works.', 'The nightly export is broken.')).toMatchObject([{ rule: 'status', subject: 'nightly export' }]);
    expect(findings('The v1 endpoint is deprecated.', 'The v1 endpoint is broken.')).toEqual([]); // different groups
  });

  it('cause: one note explicitly denies the cause the other asserts, about the same thing (is/was alike)', () => {
    const pool = 'The p95 latency regression on atlas-ingest is caused by connection pool exhaustion.';
    const index = 'The p95 latency regression on atlas-ingest was caused by a missing index, not by the connection pool.';
    expect(findings(pool, index)).toEqual([
      { rule: 'cause', subject: 'cause of p95 latency regression atlas-ingest', a_sentence: pool.slice(0, -1), b_sentence: index.slice(0, -1) },
    ]);
    expect(findings(index, pool)).toMatchObject([{ rule: 'cause' }]);
    expect(findings(pool, 'The p95 latency regression on atlas-ingest was not caused by the connection pool.')).toMatchObject([{ rule: 'cause' }]);
  });

  it('cause: two different causes without a denial, a denial of some other cause, or another subject are not findings', () => {
    const pool = 'The p95 latency regression on atlas-ingest is caused by connection pool exhaustion.';
    expect(findings(pool, 'The p95 latency regression on atlas-ingest was caused by a missing index.')).toEqual([]); // an incident can have several causes
    expect(findings(pool, 'The p95 latency regression on atlas-ingest was caused by a missing index, not by the deploy.')).toEqual([]);
    expect(findings(pool, 'The checkout timeout in billing was caused by a missing index, not by the connection pool.')).toEqual([]);
    expect(findings(pool, pool)).toEqual([]);
  });

  it('unrelated notes produce nothing', () => {
    const a = 'The ingest service writes events to Postgres. Its p95 is 140 ms. The team meets on Mondays.';
    const b = 'Redis keys share one TTL. The cache hit rate is 93 %. Deploys are approved by the on-call engineer.';
    expect(findings(a, b)).toEqual([]);
  });
});
