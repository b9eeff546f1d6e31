import { openHarness } from '../engine/harness';
import { FakeClock } from '../twins/fake-clock';

/**
 * A scan gives the host's event loop a turn whenever it has run 20 ms without one, inside a batch too, so
 * typing in Obsidian never waits long behind indexing. Time here is a clock that moves 10 ms per reading.
 */
class SlowClock extends FakeClock {
  override now(): number {
    this.advance(10);
    return super.now();
  }
}

describe('reconcile yields to the host', () => {
  test('a timer due "now" runs while a single batch of notes is still being indexed', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`n${i}.md`] = `# Note ${i}\nword${i} text\n`;
    let done = 0;
    const h = await openHarness(files, { clock: new SlowClock(), deps: { onProgress: (p) => void (p.phase === 'index' && (done = p.done)) } });
    let seenAt: number | null = null;
    setTimeout(() => (seenAt = done), 0);
    await h.engine.reconcile();
    expect(done).toBe(20);
    expect(seenAt).not.toBeNull();
    expect(seenAt).toBeLessThan(20);
    await h.engine.close();
  });
});
