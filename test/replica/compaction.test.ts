import { carryAll, learnedState, makeDevice, type SimDevice } from './devices-sim';

/**
 * Spec (issue 22, docs/devices.md "Compaction"): a busy device's segments are compacted into one segment with
 * every share once they hold over 4× the bytes of its shares (and over 1 MB); a reader that took in the old
 * lines, or one that reads only the compacted segment, ends with the same state. Checking that ratio encodes
 * every share this device has, so it is not done on every round: only once the files have grown past 4× the
 * size last measured.
 */

const PATHS = Array.from({ length: 200 }, (_, i) => `n${String(i).padStart(3, '0')}.md`);

/** One round's worth of learning on every note: 200 changed stats rows, about 80 KB of lines. */
async function learnAll(d: SimDevice, round: number): Promise<void> {
  await d.store.batch(async () => {
    for (const p of PATHS) await d.store.stats.update(d.id(p), { use_count: round, last_used_at: d.clock.now() });
  });
  d.clock.advance(60_000);
}

describe('compaction of a busy device\'s segments', () => {
  it('rewrites them as one segment with every share; readers before and after agree', async () => {
    const busy = await makeDevice(0, PATHS);
    const early = await makeDevice(1, PATHS);
    const late = await makeDevice(2, PATHS);
    let compactedAt = -1;
    for (let round = 1; round <= 40 && compactedAt < 0; round++) {
      await learnAll(busy, round);
      const r = await busy.replicator.sync();
      if (r.compacted) compactedAt = round;
      // `early` follows every round, so it has read the lines compaction removes
      carryAll([busy, early]);
      await early.replicator.sync();
    }
    expect(compactedAt).toBeGreaterThan(0);
    const segments = [...busy.folder.files.keys()].filter((p) => p.startsWith(`${busy.fp}/`) && p.endsWith('.jsonl'));
    expect(segments).toHaveLength(1);
    carryAll([busy, early, late]);
    await early.replicator.sync();
    await late.replicator.sync();
    const want = learnedState(busy);
    expect(learnedState(early)).toEqual(want);
    expect(learnedState(late)).toEqual(want);
    expect(late.store.stats.get(late.id(PATHS[7])).use_count).toBe(compactedAt);
  });

  it('does not encode every share on each round while the files are under 4× the size last measured', async () => {
    // 1000 notes, 100 of them learned on per round: the shares outgrow a quarter of 1 MB, so the first check
    // finds the files under 4× and rounds go on appending before the compaction.
    const paths = Array.from({ length: 1000 }, (_, i) => `m${String(i).padStart(4, '0')}.md`);
    const busy = await makeDevice(0, paths);
    const allShares = jest.spyOn(busy.store.replica, 'sharesOf');
    const ownBytes = (): number => [...busy.folder.files].filter(([p]) => p.endsWith('.jsonl')).reduce((n, [, b]) => n + b.byteLength, 0);
    let checks = 0;
    let overOneMb = 0;
    let compacted = false;
    for (let round = 1; round <= 120 && !compacted; round++) {
      await busy.store.batch(async () => {
        for (const p of paths.slice(((round - 1) % 10) * 100, ((round - 1) % 10) * 100 + 100)) await busy.store.stats.update(busy.id(p), { use_count: round, last_used_at: busy.clock.now() });
      });
      busy.clock.advance(60_000);
      if (ownBytes() > 1024 * 1024) overOneMb++;
      allShares.mockClear();
      compacted = (await busy.replicator.sync()).compacted;
      // sharesOf(me) with no lower bound is this device's whole share: what the compaction check encodes
      if (round > 1 && allShares.mock.calls.some((c) => (c[1] ?? '') === '')) checks++;
    }
    expect(compacted).toBe(true);
    expect(overOneMb).toBeGreaterThan(10);
    // the first check over 1 MB, then the one that compacts
    expect(checks).toBe(2);
  });
});
