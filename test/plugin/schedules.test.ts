import { openHarness } from '../engine/harness';
import { DECAY } from '../../shared/learning/constants';
import { CONSOLIDATION_INTERVAL_MS } from '../../shared/learning/consolidator';

/** The engine APIs the plugin's settings drive: a new schedule applies to the pending run, without reopening. */

const HOUR = 3600 * 1000;

describe('schedules set from the plugin settings', () => {
  test('setDecayInterval re-arms the pending decay run to the new interval from now', async () => {
    const { engine, clock } = await openHarness({ 'a.md': '# A\nalpha\n' });
    await engine.settle();
    expect(clock.dueIn()).toContain(DECAY.interval_ms);
    engine.services.learning.setDecayInterval(2 * HOUR);
    expect(clock.dueIn()).toContain(2 * HOUR);
    expect(clock.dueIn()).not.toContain(DECAY.interval_ms);
    expect(() => engine.services.learning.setDecayInterval(0)).toThrow(/positive/);
    await engine.close();
    expect(clock.dueIn()).not.toContain(2 * HOUR);
  });

  test('consolidator.reschedule moves the next scheduled run; before start it only sets the interval', async () => {
    const { engine, clock } = await openHarness({ 'a.md': '# A\nalpha\n' });
    await engine.settle();
    engine.services.learning.setDecayInterval(5 * HOUR); // decay's default interval equals consolidation's: keep them apart
    engine.services.learning.consolidator.reschedule(3 * HOUR);
    expect(engine.services.learning.consolidator.scheduled).toBe(false);
    engine.services.learning.consolidator.start(CONSOLIDATION_INTERVAL_MS);
    expect(clock.dueIn()).toContain(CONSOLIDATION_INTERVAL_MS);
    engine.services.learning.consolidator.reschedule(HOUR);
    expect(engine.services.learning.consolidator.intervalMs).toBe(HOUR);
    expect(clock.dueIn()).toContain(HOUR);
    expect(clock.dueIn()).not.toContain(CONSOLIDATION_INTERVAL_MS);
    await engine.close();
  });
});
