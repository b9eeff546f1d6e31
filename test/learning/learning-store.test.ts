import { BRIEFING_NOTE_PATH } from '../../shared/ledger/briefing';
import { TIMELINE_NOTE_PATH } from '../../shared/ledger/timeline';
import { LEARNING_FILE, LearningStore } from '../../shared/learning/learning-store';
import { DEVICES_FOLDER, DEFAULT_LEARNING, TUNABLES, defaultOf, parseLearningOverrides, tunable } from '../../shared/learning/tunables';
import { DECAY, DRIFT, EVENTS, FEEDBACK, SUPPORT } from '../../shared/learning/constants';
import { DEFAULT_IMMORTAL_EVENT_KINDS } from '../../shared/model/events';
import { RELOAD_MS } from '../../shared/governance/policy';
import { MemoryBlobStore } from '../twins/memory-blobs';
import { FakeClock } from '../twins/fake-clock';
import { failure } from '../twins/error-code';
import { RecordingLogger } from '../stores/helpers';
import { openHarness } from '../engine/harness';

/** `.lithos/learning.json` (shared/learning/learning-store.ts): overrides of the tunable constants, validated, audited. */

const enc = new TextEncoder();
const dec = new TextDecoder();

async function open(file?: string) {
  const blobs = new MemoryBlobStore();
  if (file !== undefined) await blobs.writeAtomic(LEARNING_FILE, enc.encode(file));
  const clock = new FakeClock();
  const logger = new RecordingLogger();
  const store = await LearningStore.open({ blobs, clock, logger });
  const text = async () => {
    const b = await blobs.read(LEARNING_FILE);
    return b ? dec.decode(b) : null;
  };
  return { blobs, clock, logger, store, text };
}

describe('defaults', () => {
  test('no file: every constant is its default from constants.ts, no overrides, no problem', async () => {
    const { store } = await open();
    expect(store.get()).toEqual({
      feedback: { ...FEEDBACK },
      decay: { edge_half_life_days: DECAY.edge_half_life_days, edge_prune_below: DECAY.edge_prune_below },
      support: { ...SUPPORT },
      events: { ttl_days: EVENTS.ttl_days, archive_days: EVENTS.archive_days, immortal_kinds: DEFAULT_IMMORTAL_EVENT_KINDS },
      briefing: { path: BRIEFING_NOTE_PATH },
      timeline: { path: TIMELINE_NOTE_PATH },
      devices: { folder: DEVICES_FOLDER },
      git: { repository: null }, // the repository holding the vault
      drift: { ...DRIFT },
    });
    expect(store.overrides()).toEqual({});
    expect(store.problem).toBeNull();
  });

  test('every tunable default lies within its own range (the table and constants.ts agree)', () => {
    for (const t of TUNABLES) expect(parseLearningOverrides({ [t.group]: { [t.name]: defaultOf(t) } })).toEqual({});
    expect(TUNABLES.map((t) => t.key)).toHaveLength(21);
  });
});

describe('set and read back', () => {
  test('round trip: only the overrides are written; a new store over the same file reads them; defaults dropped', async () => {
    const { blobs, clock, store, text } = await open();
    const after = await store.set({ feedback: { quarantine_at: 2, used_salience: FEEDBACK.used_salience }, decay: { edge_half_life_days: 60 } });
    expect(after.feedback).toMatchObject({ quarantine_at: 2, used_salience: FEEDBACK.used_salience, misleading_salience: FEEDBACK.misleading_salience });
    expect(after.decay.edge_half_life_days).toBe(60);
    expect(JSON.parse((await text())!)).toEqual({ version: 1, feedback: { quarantine_at: 2 }, decay: { edge_half_life_days: 60 } });
    const again = await LearningStore.open({ blobs, clock });
    expect(again.overrides()).toEqual({ feedback: { quarantine_at: 2 }, decay: { edge_half_life_days: 60 } });
    expect(again.get()).toEqual(after);
    expect(Object.isFrozen(again.get().feedback)).toBe(true);
  });

  test('update sets one constant by group.name or bare name; null puts it back to its default; reset clears all', async () => {
    const { store, text } = await open();
    await store.update('feedback.misleading_salience', -0.1);
    await store.update('lexical_share', 0.3);
    expect(store.overrides()).toEqual({ feedback: { misleading_salience: -0.1 }, support: { lexical_share: 0.3 } });
    await store.update('misleading_salience', null);
    expect(store.overrides()).toEqual({ support: { lexical_share: 0.3 } });
    await store.reset();
    expect(store.get()).toEqual(DEFAULT_LEARNING);
    expect(JSON.parse((await text())!)).toEqual({ version: 1 });
  });

  test('an unknown constant is refused, naming the tunable ones', async () => {
    const { store } = await open();
    const err = await failure(store.update('feedback.class_prior_cap', 0.4));
    expect(err.code).toBe('invalid_argument');
    expect(err.message).toContain('"feedback.class_prior_cap" is not a tunable learning constant');
    expect(err.message).toContain('feedback.quarantine_at');
    expect(() => tunable('nope')).toThrow(/not a tunable/);
  });
});

describe('validation', () => {
  test('out of range, wrong sign, fraction where a count is due, unknown keys: refused naming each; nothing written or applied', async () => {
    const { store, text } = await open();
    await store.set({ feedback: { quarantine_at: 4 } });
    const err = await failure(
      store.set({ feedback: { ignored_salience: 0.1, misleading_edge: 0.2, quarantine_at: 1.5, used_salience: '0.1', bogus: 1 }, decay: { edge_half_life_days: 0 }, support: { embedding_cosine: 2 }, extra: 1 }),
    );
    expect(err.code).toBe('invalid_argument');
    for (const part of [
      'feedback.ignored_salience: must be a number from -1 to 0 (got 0.1)',
      'feedback.misleading_edge: must be a number from -1 to 0 (got 0.2)',
      'feedback.quarantine_at: must be a whole number from 1 to 1000 (got 1.5)',
      'feedback.used_salience: must be a number from 0 to 1 (got "0.1")',
      'decay.edge_half_life_days: must be a number above 0, at most 3650 (got 0)',
      'support.embedding_cosine: must be a number above 0, at most 1 (got 2)',
      'feedback: Unrecognized key: "bogus"',
      '(top): Unrecognized key: "extra"',
    ]) {
      expect(err.message).toContain(part);
    }
    expect(store.get().feedback.quarantine_at).toBe(4);
    expect(JSON.parse((await text())!)).toEqual({ version: 1, feedback: { quarantine_at: 4 } });
  });

  test.each([
    ['not JSON', '{ "feedback": { "quarantine_at": 2 ', 'is not valid JSON'],
    ['a value out of range', '{ "version": 1, "feedback": { "quarantine_at": 0, "used_salience": 0.05 } }', 'feedback.quarantine_at: must be a whole number from 1 to 1000 (got 0)'],
    ['not an object', '[1, 2]', 'Not a valid learning configuration'],
  ])('a damaged file (%s): the defaults, a recorded and logged problem, the file left as it is', async (_, file, why) => {
    const { store, logger, text } = await open(file);
    expect(store.get()).toEqual(DEFAULT_LEARNING);
    expect(store.problem).toContain(why);
    expect(store.problem).toContain('Learning uses the default constants until .lithos/learning.json is fixed.');
    expect(logger.lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([store.problem]);
    await store.refresh();
    await store.reload();
    expect(await text()).toBe(file);
    expect(logger.lines).toHaveLength(1); // the same damaged text is not re-reported
  });

  test('a file naming a constant that no longer exists (the old spaced-repetition bonus) still applies the rest, and loses the old key at the next save', async () => {
    const { store, text } = await open('{ "version": 1, "feedback": { "used_spaced_rep": 0.1, "quarantine_at": 4 }, "decay": { "spaced_rep_half_life_days": 10 } }');
    expect(store.problem).toBeNull();
    expect(store.get().feedback.quarantine_at).toBe(4);
    expect(store.overrides()).toEqual({ feedback: { quarantine_at: 4 } });
    await store.update('quarantine_at', 5);
    expect(JSON.parse((await text())!)).toEqual({ version: 1, feedback: { quarantine_at: 5 } });
  });

  test('a damaged file is replaced by set, which clears the problem', async () => {
    const { store, text } = await open('{ broken');
    await store.update('quarantine_at', 5);
    expect(store.problem).toBeNull();
    expect(JSON.parse((await text())!)).toEqual({ version: 1, feedback: { quarantine_at: 5 } });
  });

  test('the engine opens over a damaged file: defaults, and the problem among its warnings (lithos doctor)', async () => {
    const blobs = new MemoryBlobStore();
    await blobs.writeAtomic(LEARNING_FILE, enc.encode('{"decay": {"edge_prune_below": -1}}'));
    const h = await openHarness({}, { blobs });
    expect(h.engine.services.learning.tunables.get()).toEqual(DEFAULT_LEARNING);
    expect((await h.engine.doctor()).warnings.join('\n')).toContain('decay.edge_prune_below: must be a number from 0 to 0.5 (got -1)');
    await h.engine.close();
  });
});

describe('hand edits', () => {
  test('apply at the first refresh after RELOAD_MS, not before', async () => {
    const { blobs, clock, store } = await open();
    await blobs.writeAtomic(LEARNING_FILE, enc.encode('{"feedback": {"used_edge": 0.1}}'));
    await store.refresh();
    expect(store.get().feedback.used_edge).toBe(FEEDBACK.used_edge);
    clock.advance(RELOAD_MS);
    await store.refresh();
    expect(store.get().feedback.used_edge).toBe(0.1);
    await blobs.remove(LEARNING_FILE);
    await store.reload();
    expect(store.get()).toEqual(DEFAULT_LEARNING);
  });

  test('update builds on a hand edit made since the last read', async () => {
    const { blobs, store } = await open();
    await blobs.writeAtomic(LEARNING_FILE, enc.encode('{"feedback": {"used_edge": 0.1}}'));
    await store.update('quarantine_at', 2);
    expect(store.overrides()).toEqual({ feedback: { used_edge: 0.1, quarantine_at: 2 } });
  });
});

describe('audit', () => {
  test("a change is audited as learning.set with each changed constant's before and after; no change, no entry", async () => {
    const h = await openHarness();
    await h.engine.services.learning.tunables.update('feedback.quarantine_at', 2);
    await h.engine.services.learning.tunables.set({ feedback: { quarantine_at: 2 }, decay: { edge_half_life_days: 30 } }, { kind: 'agent', id: 'tuner' });
    await h.engine.services.learning.tunables.set({ feedback: { quarantine_at: 2 }, decay: { edge_half_life_days: 30 } });
    const entries = await h.engine.services.governance.audit.recent({ action: 'learning.set' });
    expect(entries).toHaveLength(2);
    const [newest, first] = entries;
    expect(first).toMatchObject({ actor: { kind: 'human', id: null }, target: LEARNING_FILE, data: { changed: { 'feedback.quarantine_at': [3, 2] } } });
    expect(newest).toMatchObject({
      actor: { kind: 'agent', id: 'tuner' },
      data: { overrides: { feedback: { quarantine_at: 2 }, decay: { edge_half_life_days: 30 } }, changed: { 'decay.edge_half_life_days': [90, 30] } },
    });
    expect((await h.engine.services.governance.audit.verify()).ok).toBe(true);
    await h.engine.close();
  });
});
