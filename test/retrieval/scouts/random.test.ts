import { agentViewer } from '../../../shared/governance/gate';
import { seededRandom } from '../../../shared/retrieval/rng';
import { RANDOM_DRAWS, randomScout } from '../../../shared/retrieval/scouts/random';
import { MemoryCorpus, twinScoutInput } from '../../twins/memory-corpus';

/** True serendipity: up to RANDOM_DRAWS distinct visible notes, drawn with the seeded generator. */
const ids = Array.from({ length: 30 }, (_, i) => `n${String(i).padStart(2, '0')}`);
const corpus = new MemoryCorpus([...ids.map((id) => ({ id })), { id: 'secret', access_scope: 'user_private' as const }]);

const draw = async (seed: number) =>
  (await randomScout.run(twinScoutInput(corpus, { viewer: agentViewer('alice'), random: seededRandom(seed) }))).map((h) => h.id);

test(`draws ${RANDOM_DRAWS} distinct visible notes, each scored 1 with its reason`, async () => {
  const hits = await randomScout.run(twinScoutInput(corpus, { viewer: agentViewer('alice'), random: seededRandom(7) }));
  expect(hits).toHaveLength(RANDOM_DRAWS);
  expect(new Set(hits.map((h) => h.id)).size).toBe(RANDOM_DRAWS);
  for (const h of hits) {
    expect(ids).toContain(h.id);
    expect(h).toMatchObject({ score: 1, reasons: ['random draw (serendipity)'] });
  }
});

test('the same seed draws the same notes; other seeds draw others', async () => {
  expect(await draw(42)).toEqual(await draw(42));
  const seen = new Set<string>();
  for (let seed = 1; seed <= 5; seed++) for (const id of await draw(seed)) seen.add(id);
  expect(seen.size).toBeGreaterThan(RANDOM_DRAWS);
});

test('a gated note is never drawn, even when the generator points straight at it', async () => {
  const at = ([...ids, 'secret'].sort().indexOf('secret') + 0.5) / (ids.length + 1);
  const alwaysSecret = () => at;
  expect(await randomScout.run(twinScoutInput(corpus, { viewer: agentViewer('alice'), random: alwaysSecret }))).toEqual([]);
  // the person may see it
  expect((await randomScout.run(twinScoutInput(corpus, { random: alwaysSecret }))).map((h) => h.id)).toEqual(['secret']);
});

test('an empty vault draws nothing', async () => {
  expect(await randomScout.run(twinScoutInput(new MemoryCorpus([]), { random: seededRandom(1) }))).toEqual([]);
});
