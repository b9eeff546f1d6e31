import { HashingEmbedder } from '../../shared/index/embedders/hashing-embedder';
import { PERSON } from '../../shared/session/caller';
import { openHarness, type Harness } from '../engine/harness';

/** The index room (shared/session/index-room.ts): the engine's own figures, the same for every viewer. */

let h: Harness;
afterEach(async () => {
  await h.engine.close();
});

test('spaces are the active embedding spaces, primary first', async () => {
  h = await openHarness({ 'a.md': 'otters' }, { deps: { embedders: [new HashingEmbedder(), new HashingEmbedder(128)] } });
  await h.engine.reconcile();
  expect((await h.engine.as(PERSON)).index.spaces()).toEqual(['hash-ngram-v2-384', 'hash-ngram-v2-128']);
});

test('pending events count file changes seen but not yet indexed', async () => {
  h = await openHarness({ 'a.md': 'apples' });
  await h.engine.reconcile();
  h.engine.startWatching();
  await h.vault.write('a.md', 'cherries');
  await h.vault.write('b.md', 'plums');
  const agent = await h.engine.as({ kind: 'agent', agent_id: 'alice' });
  expect(agent.index.pendingEvents()).toBe(2);
  await h.engine.settle();
  expect(agent.index.pendingEvents()).toBe(0);
});
