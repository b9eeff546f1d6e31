import fc from 'fast-check';
import { openTools, AGENT, OTHER, POOL_ID, type ToolHarness } from '../tools/fixture';
import { LithosError } from '../../shared/errors';

/** Each call's outcome: its result, or the LithosError code it was refused with. */
async function settle<T>(calls: Promise<T>[]): Promise<({ ok: true; value: T } | { ok: false; code: string; data: unknown })[]> {
  return Promise.all(
    calls.map((c) =>
      c.then(
        (value) => ({ ok: true as const, value }),
        (err: unknown) => {
          if (!(err instanceof LithosError)) throw err;
          return { ok: false as const, code: err.code, data: err.data };
        },
      ),
    ),
  );
}

const PATH = 'project/atlas/Pool sizing.md';

describe('concurrent writes to one note (lithos_write, lithos_delete)', () => {
  let h: ToolHarness;
  beforeEach(async () => {
    h = await openTools();
  });
  afterEach(async () => h.engine.close());

  it('of N writers holding the same expected_version, exactly one succeeds and the rest get conflict', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 12 }), fc.integer({ min: 1, max: 3 }), async (writers, rounds) => {
        for (let round = 0; round < rounds; round++) {
          const { version } = await h.call('lithos_read', { path: PATH });
          // Bodies never repeat across runs: a write of the text already there changes nothing (the fake clock
          // stands still), so a second writer holding that version would rightly succeed too.
          const run = ++runs;
          const bodies = Array.from({ length: writers }, (_, i) => `run ${run} round ${round} writer ${i} of ${writers}\n`);
          const outcomes = await settle(bodies.map((content, i) => h.call('lithos_write', { path: PATH, content, expected_version: version }, i % 2 ? AGENT : OTHER)));
          const won = outcomes.flatMap((o, i) => (o.ok ? [i] : []));
          expect(won).toHaveLength(1);
          expect(outcomes.filter((o) => !o.ok).map((o) => (o.ok ? '' : o.code))).toEqual(Array(writers - 1).fill('conflict'));
          // What the winner was told is what the note holds: nothing overwrote it unseen.
          const after = await h.call('lithos_read', { path: PATH });
          expect(after.content).toBe(bodies[won[0]]);
          const winner = outcomes[won[0]];
          expect(winner.ok && (winner.value as { version: string; previous_version: string })).toMatchObject({ version: after.version, previous_version: version });
        }
      }),
      { numRuns: 15 },
    );
  });

  it('acknowledged writes form one history: each success names the version the one before it produced', async () => {
    // Writers that re-read after a conflict and try again, all at once: every acknowledged write must follow the
    // previous acknowledged one, so none was overwritten by a writer that had not seen it.
    const acked: { version: string; previous_version: string; content: string }[] = [];
    const writer = async (name: string) => {
      for (let attempt = 0; attempt < 40; attempt++) {
        const { version } = await h.call('lithos_read', { path: PATH });
        const content = `${name} attempt ${attempt}\n`;
        const [o] = await settle([h.call('lithos_write', { path: PATH, content, expected_version: version })]);
        if (o.ok) {
          acked.push({ ...(o.value as { version: string; previous_version: string }), content });
          return;
        }
        expect(o.code).toBe('conflict');
      }
      throw new Error(`${name} never got a write through`);
    };
    const start = (await h.call('lithos_read', { path: PATH })).version as string;
    await Promise.all(Array.from({ length: 8 }, (_, i) => writer(`w${i}`)));
    expect(acked).toHaveLength(8);
    let expectedPrevious = start;
    for (const a of acked) {
      expect(a.previous_version).toBe(expectedPrevious);
      expectedPrevious = a.version;
    }
    expect((await h.call('lithos_read', { path: PATH })).content).toBe(acked[acked.length - 1].content);
  });

  it('two creates of one title: one creates the note, the other gets conflict naming the winner’s id', async () => {
    const outcomes = await settle([0, 1, 2].map((i) => h.call('lithos_write', { title: 'Same 0', content: `body ${i}\n` })));
    const winners = outcomes.filter((o) => o.ok);
    expect(winners).toHaveLength(1);
    const winner = winners[0].ok ? (winners[0].value as { id: string; path: string; created: boolean }) : null;
    expect(winner?.created).toBe(true);
    for (const o of outcomes.filter((x) => !x.ok)) expect(o).toMatchObject({ ok: false, code: 'conflict', data: { id: winner?.id, path: winner?.path } });
    const read = await h.call('lithos_read', { id: winner?.id });
    expect(read.content).toBe(`body ${outcomes.findIndex((o) => o.ok)}\n`);
  });

  it('a delete and a write on the same version: one wins, the other gets a clear refusal, nothing half-done', async () => {
    const { version } = await h.call('lithos_read', { id: POOL_ID });
    const [del, write] = await settle([
      h.call('lithos_delete', { id: POOL_ID, expected_version: version }),
      h.call('lithos_write', { id: POOL_ID, content: 'late edit\n', expected_version: version }),
    ]);
    expect([del.ok, write.ok].filter(Boolean)).toHaveLength(1);
    const loser = del.ok ? write : del;
    expect(loser.ok ? '' : loser.code).toMatch(/^(conflict|not_found)$/);
    if (del.ok) expect(h.vault.text(PATH)).toBeUndefined();
    else expect(h.vault.text(PATH)).toContain('late edit');
  });
});
