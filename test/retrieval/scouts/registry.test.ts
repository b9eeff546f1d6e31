import { ALL_SCOUTS, SCOUT_NAMES, SCOUT_WEIGHTS } from '../../../shared/retrieval/scouts';

/** A scout is its file plus one registry line: names, the --without choices and the weights all follow the list. */

test('every registered scout has its own name, a wave and a positive weight — or 0, switched off', () => {
  expect(new Set(SCOUT_NAMES).size).toBe(ALL_SCOUTS.length);
  for (const s of ALL_SCOUTS) {
    expect([1, 2]).toContain(s.wave);
    // Weights are relative (the base is Σ weight × score, the re-rank divides by the best): any finite value ≥ 0.
    expect(Number.isFinite(s.weight)).toBe(true);
    expect(s.weight).toBeGreaterThanOrEqual(0);
  }
  // Only the association scout ships switched off (cross-validation did not keep it; docs/learning.md).
  expect(ALL_SCOUTS.filter((s) => s.weight === 0).map((s) => s.name)).toEqual(['association']);
});

test('SCOUT_NAMES and SCOUT_WEIGHTS are read from the registry, in its order', () => {
  expect(SCOUT_NAMES).toEqual(ALL_SCOUTS.map((s) => s.name));
  expect(Object.keys(SCOUT_WEIGHTS)).toEqual(SCOUT_NAMES);
  for (const s of ALL_SCOUTS) expect(SCOUT_WEIGHTS[s.name]).toBe(s.weight);
});

test('wave-1 scouts come before wave-2 scouts (the merge order of their hits)', () => {
  const waves = ALL_SCOUTS.map((s) => s.wave);
  expect(waves).toEqual([...waves].sort());
});
