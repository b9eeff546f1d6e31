import { DAY_MS, FEEDBACK } from '../../shared/learning/constants';
import { LEARNING_FILE } from '../../shared/learning/learning-store';
import { RELOAD_MS } from '../../shared/governance/policy';
import type { Harness } from '../engine/harness';
import { A, B, C, D, openLearning, retrieveAll } from './fixture';

/**
 * The vault's learning constants (engine.services.learning.tunables) reach the arithmetic on the next feedback or decay
 * run, without reopening the engine: through the store's set, and through a hand edit of learning.json.
 */

let h: Harness;
beforeEach(async () => {
  h = await openLearning();
});
afterEach(async () => {
  await h.engine.close();
});

const stats = (id: string) => h.engine.services.learning.memory.stats.get(id);
const cite = async (ids: string[]) => h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, cited: ids });

test('a changed used_salience and used_edge apply to the next feedback call, and the one after that', async () => {
  await h.engine.services.learning.tunables.update('feedback.used_salience', 0.1);
  await h.engine.services.learning.tunables.update('used_edge', 0.2);
  await cite([A, B]);
  expect(stats(A).salience).toBeCloseTo(0.6, 6);
  expect(h.engine.services.learning.memory.edges.find({ type: 'related_to' })[0].weight).toBeCloseTo(0.2, 6);
  await h.engine.services.learning.tunables.reset();
  await cite([A, B]);
  expect(stats(A).salience).toBeCloseTo(0.6 + FEEDBACK.used_salience, 6);
  expect(h.engine.services.learning.memory.edges.find({ type: 'related_to' })[0].weight).toBeCloseTo(0.2 + FEEDBACK.used_edge, 6);
});

test('quarantine_at 1: a single misleading mark quarantines the note', async () => {
  await h.engine.services.learning.tunables.update('quarantine_at', 1);
  const out = await h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, misleading: [D] });
  expect(out.quarantined).toEqual([D]);
  expect(h.engine.services.notes.note(D)!.cached.meta.status).toBe('quarantined');
});

test('a hand edit of learning.json applies to feedback once RELOAD_MS has passed', async () => {
  await h.blobs.writeAtomic(LEARNING_FILE, new TextEncoder().encode('{"feedback": {"misleading_salience": -0.3, "misleading_class_prior": -0.2}}'));
  h.clock.advance(RELOAD_MS);
  await h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, misleading: [C] });
  expect(stats(C)).toMatchObject({ salience: 0.2, per_queryclass_priors: { lookup: -0.2 } });
});

test('chronic_ignored_min 0: the first ignore already costs salience, by the tuned ignored_salience', async () => {
  await h.engine.services.learning.tunables.set({ feedback: { chronic_ignored_min: 0, ignored_salience: -0.1 } });
  await cite([A]);
  expect(stats(B)).toMatchObject({ ignored_count: 1, salience: 0.4 });
});

test('decay uses the tuned half-life on its next run', async () => {
  const t0 = h.clock.now();
  const mem = h.engine.services.learning.memory;
  await mem.edges.upsert({ from_id: A, to_id: C, type: 'related_to', weight: 0.4, namespace: 'project', provenance_actor: 'rule', provenance_type: 'rule', evidence: null, conflict_state: null });
  await h.engine.services.learning.decay(t0);
  await h.engine.services.learning.tunables.update('decay.edge_half_life_days', 10);
  await h.engine.services.learning.decay(t0 + 10 * DAY_MS);
  expect(mem.edges.find({ from: A, to: C })[0].weight).toBeCloseTo(0.2, 6);
});

test('the support thresholds: a stricter embedding_cosine drops a note, a lower lexical_share brings it back', async () => {
  // Cosine 0.65 to C with the offline embedder (above the default 0.6); 3 of C's 10 content terms (below 0.5).
  const output = 'We looked at the dashboards and the idle connections.';
  const supported = async () => (await h.engine.services.learning.feedback({ receipt_id: (await retrieveAll(h)).receipt_id, output_text: output })).supported;
  expect(await supported()).toContain(C);
  await h.engine.services.learning.tunables.update('support.embedding_cosine', 0.9);
  expect(await supported()).not.toContain(C);
  await h.engine.services.learning.tunables.update('support.lexical_share', 0.25);
  expect(await supported()).toContain(C);
});
