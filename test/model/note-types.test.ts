import { NOTE_TYPES } from '../../shared/model/types';
import { NOTE_TYPE_TABLE, TYPE_PRIORS, contradictionPrecedence, noteTypeRow } from '../../shared/model/note-types';
import { TYPE_PRIORS as RETRIEVAL_PRIORS } from '../../shared/retrieval/constants';
import { QUERY_CLASSES } from '../../shared/retrieval/types';

/** The note-type table: one source for retrieval priors, decay curves, auto-edit and contradiction precedence. */

test('every note type has a row; every known query class and `default` has a prior in [0,1]', () => {
  expect(Object.keys(NOTE_TYPE_TABLE).sort()).toEqual([...NOTE_TYPES].sort());
  for (const cls of [...QUERY_CLASSES, 'default']) {
    for (const type of NOTE_TYPES) {
      expect(TYPE_PRIORS[cls][type]).toBeGreaterThanOrEqual(0);
      expect(TYPE_PRIORS[cls][type]).toBeLessThanOrEqual(1);
    }
    expect(Object.values(TYPE_PRIORS.default)).toEqual(NOTE_TYPES.map(() => 0.5));
  }
});

test('retrieval reads the same table (no second copy)', () => {
  expect(RETRIEVAL_PRIORS).toBe(TYPE_PRIORS);
  expect(TYPE_PRIORS.debug.agent_finding).toBe(NOTE_TYPE_TABLE.agent_finding.priors.debug);
});

test('floors keep salience off zero; evidence is never auto-edited; summaries and concepts are', () => {
  for (const row of Object.values(NOTE_TYPE_TABLE)) {
    expect(row.floor).toBeGreaterThan(0);
    expect(row.floor).toBeLessThan(0.5);
    expect(row.half_life_days).toBeGreaterThan(0);
  }
  expect([NOTE_TYPE_TABLE.observation.auto_edit, NOTE_TYPE_TABLE.agent_finding.auto_edit]).toEqual([false, false]);
  expect([NOTE_TYPE_TABLE.summary.auto_edit, NOTE_TYPE_TABLE.concept.auto_edit]).toEqual([true, true]);
  expect(noteTypeRow('no-such-type')).toBe(NOTE_TYPE_TABLE.observation);
});

test('timestamps settle a contradiction only for task records and status-like notes', () => {
  expect(contradictionPrecedence({ note_type: 'task_record' })).toBe('newest_wins');
  expect(contradictionPrecedence({ note_type: 'observation', tags: ['Status'] })).toBe('newest_wins');
  for (const t of ['observation', 'agent_finding', 'summary', 'concept', 'hypothesis']) expect(contradictionPrecedence({ note_type: t, tags: ['atlas'] })).toBe('signal');
});
