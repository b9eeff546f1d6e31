import {
  effectiveConfidence,
  isRetired,
  nextPhase,
  phaseSignals,
  reachesCanonical,
  reachesEmergent,
  vitalityAt,
  vitalitySince,
  type PhaseInput,
  type PhaseSignals,
} from '../../shared/model/phases';
import { ledgerFactor, scaled } from '../../shared/retrieval/ledger-rank';
import { PHASES, VITALITIES } from '../../shared/model/ledger';

/** The ledger's phase and vitality rules (model/phases.ts), boundary by boundary. */

const DAY = 24 * 3600 * 1000;
const NOW = Date.UTC(2026, 5, 1);

/** Signals that pass every rule; each test moves one of them to its boundary. */
const PASSING: PhaseSignals = { seen: 5, confidence: 1, effective_confidence: 1, lived_days: 1, coverage: 1, stability: 1, removal_cost: 1, vitality: 'active' };
const sig = (over: Partial<PhaseSignals>): PhaseSignals => ({ ...PASSING, ...over });

describe('pattern → emergent: (seen ≥ 3 or confidence ≥ 0.5) and (lived > ½ day or seen ≥ 5)', () => {
  test.each([
    // first clause
    [{ seen: 3, confidence: 0, lived_days: 1 }, true],
    [{ seen: 2, confidence: 0.5, lived_days: 1 }, true],
    [{ seen: 2, confidence: 0.4999, lived_days: 1 }, false],
    // second clause
    [{ seen: 3, confidence: 0, lived_days: 0.5 }, false], // lived must be more than half a day
    [{ seen: 3, confidence: 0, lived_days: 0.5001 }, true],
    [{ seen: 4, confidence: 1, lived_days: 0 }, false],
    [{ seen: 5, confidence: 0, lived_days: 0 }, true], // five uses stand in for the half day
  ] as [Partial<PhaseSignals>, boolean][])('%j → %s', (over, expected) => {
    expect(reachesEmergent(sig(over))).toBe(expected);
    expect(nextPhase('pattern', sig(over), false)).toBe(expected ? 'emergent' : 'pattern');
  });
});

describe('emergent → canonical: coverage > 0.3, stability > 0.6, removal cost > 0.5 and active', () => {
  test.each([
    [{}, true],
    [{ coverage: 0.3 }, false],
    [{ coverage: 0.3001 }, true],
    [{ stability: 0.6 }, false],
    [{ stability: 0.6001 }, true],
    [{ removal_cost: 0.5 }, false],
    [{ removal_cost: 0.5001 }, true],
    [{ vitality: 'decaying' }, false],
    [{ vitality: 'dormant' }, false],
  ] as [Partial<PhaseSignals>, boolean][])('%j → %s', (over, expected) => {
    expect(reachesCanonical(sig(over))).toBe(expected);
    expect(nextPhase('emergent', sig(over), false)).toBe(expected ? 'canonical' : 'emergent');
  });
});

describe('phases move forward only, one step per evaluation', () => {
  const nothing = sig({ seen: 0, confidence: 0, lived_days: 0, coverage: 0, stability: 0, removal_cost: 0, vitality: 'dormant' });

  test('a pattern that passes every rule becomes emergent first, not canonical', () => {
    expect(nextPhase('pattern', PASSING, false)).toBe('emergent');
  });

  test('signals falling to nothing move no phase back', () => {
    for (const p of PHASES) expect(nextPhase(p, nothing, false)).toBe(p);
  });

  test('a retired entry leaves canonical (for emergent) and is never promoted', () => {
    expect(nextPhase('canonical', PASSING, true)).toBe('emergent');
    expect(nextPhase('emergent', PASSING, true)).toBe('emergent');
    expect(nextPhase('pattern', PASSING, true)).toBe('pattern');
  });
});

describe('retired entries', () => {
  test.each([
    ['decision', 'active', false],
    ['decision', 'superseded', true],
    ['decision', 'deprecated', true],
    ['decision', 'aborted', true],
    ['claim', 'believed', false],
    ['claim', 'contested', false],
    ['claim', 'refuted', true],
    ['workflow', 'current', false],
    ['workflow', 'merged', true],
    ['construct', 'dead', true],
    ['construct', 'Evolved', true],
    ['construct', 'refuted', false], // not a construct's state: reported by validation, retires nothing
    ['claim', null, false],
  ] as const)('%s in state %s: retired %s', (kind, state, retired) => {
    expect(isRetired(kind, state, false)).toBe(retired);
  });

  test('a superseded_by retires whatever the state says', () => {
    expect(isRetired('decision', 'active', true)).toBe(true);
  });
});

describe('vitality: active under 7 days, decaying from 7 to 30, dormant past 30', () => {
  test.each([
    [0, 'active'],
    [7 * DAY - 1, 'active'],
    [7 * DAY, 'decaying'],
    [30 * DAY, 'decaying'],
    [30 * DAY + 1, 'dormant'],
    [400 * DAY, 'dormant'],
  ] as const)('%d ms since the last activity → %s', (idle, vitality) => {
    expect(vitalityAt(NOW - idle, NOW)).toBe(vitality);
  });

  test('since: the last activity, or 7 / 30 days after it', () => {
    expect(vitalitySince(NOW, 'active')).toBe(NOW);
    expect(vitalitySince(NOW, 'decaying')).toBe(NOW + 7 * DAY);
    expect(vitalitySince(NOW, 'dormant')).toBe(NOW + 30 * DAY);
  });

  test('the effective confidence takes 0, 0.05 or 0.2 off the stated one, never below 0', () => {
    expect(effectiveConfidence(0.9, 'active')).toBe(0.9);
    expect(effectiveConfidence(0.9, 'decaying')).toBeCloseTo(0.85, 10);
    expect(effectiveConfidence(0.9, 'dormant')).toBeCloseTo(0.7, 10);
    expect(effectiveConfidence(0.1, 'dormant')).toBe(0);
  });
});

describe('signals from use', () => {
  const input: PhaseInput = {
    stated_confidence: 0.8,
    use_count: 3,
    ignored_count: 1,
    misleading_count: 0,
    first_used_at: NOW - 2 * DAY,
    last_used_at: NOW - DAY,
    written_at: NOW - 10 * DAY,
    group_uses: 6,
    contradicted: false,
    contested: false,
    dependants: 2,
  };

  test('each signal as docs/ledger.md defines it', () => {
    expect(phaseSignals(input, NOW)).toEqual({
      seen: 3,
      confidence: 0.6, // 0.8 × 3 uses of 4 judgements
      effective_confidence: 0.8,
      lived_days: 1,
      coverage: 0.5, // 3 of the group's 6 uses
      stability: 1,
      removal_cost: 0.5, // 2 / (2 + 2)
      vitality: 'active',
    });
  });

  test('never judged: confidence 0, coverage 0, stability 1; never used: vitality from the write', () => {
    const s = phaseSignals({ ...input, use_count: 0, ignored_count: 0, first_used_at: null, last_used_at: null, group_uses: 0 }, NOW);
    expect(s).toMatchObject({ seen: 0, confidence: 0, lived_days: 0, coverage: 0, stability: 1, vitality: 'decaying' });
  });

  test('misleading marks, an open contradiction and a contest lower stability', () => {
    expect(phaseSignals({ ...input, misleading_count: 1 }, NOW).stability).toBe(0.8); // 1 of 5 judgements
    expect(phaseSignals({ ...input, contradicted: true }, NOW).stability).toBe(0.5);
    expect(phaseSignals({ ...input, contradicted: true, contested: true }, NOW).stability).toBe(0.25);
  });
});

describe('rank factor', () => {
  test('canonical > emergent > pattern; dormant fades to 0.8 of the score, never to 0', () => {
    expect(ledgerFactor('canonical', 'active')).toBeGreaterThan(ledgerFactor('emergent', 'active'));
    expect(ledgerFactor('emergent', 'active')).toBeGreaterThan(ledgerFactor('pattern', 'active'));
    expect(ledgerFactor('pattern', 'active')).toBe(1);
    for (const p of PHASES) for (const v of VITALITIES) expect(ledgerFactor(p, v)).toBeGreaterThanOrEqual(0.8);
  });

  test('a factor above 1 lifts a score and one below 1 lowers it, negative scores included', () => {
    expect(scaled(0.5, 1.1)).toBeGreaterThan(0.5);
    expect(scaled(-0.5, 1.1)).toBeGreaterThan(-0.5);
    expect(scaled(0.5, 0.8)).toBeLessThan(0.5);
    expect(scaled(-0.5, 0.8)).toBeLessThan(-0.5);
  });
});
