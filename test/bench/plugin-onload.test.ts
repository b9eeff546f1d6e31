import { builtPluginForSuite } from '../plugin/plugin-harness';
import { measurePluginOnload, pluginOnloadFigure } from '../../bridge/bench/plugin-onload';
import { startStallProbe } from '../../bridge/bench/stall-probe';

/** The bench's onload figure loads the built plugin against its own stand-in host; the stall probe sees a blocked loop. */

const built = builtPluginForSuite();

describe('bench: plugin onload and stalls', () => {
  test('the built plugin loads against the bench host (no Node module, no layout) and its onload is timed', async () => {
    const ms = await measurePluginOnload(built.code, 2);
    expect(Number.isFinite(ms)).toBe(true);
    expect(ms).toBeGreaterThan(0);
  });

  test('without a built plugin the figure is NaN, not a made-up number', async () => {
    expect(await pluginOnloadFigure('/nonexistent/main.js')).toBeNaN();
  });

  test('the stall probe reports at least the longest synchronous block that ran while it watched', async () => {
    const probe = startStallProbe();
    await new Promise((r) => setImmediate(r));
    const t0 = performance.now();
    while (performance.now() - t0 < 20) {
      // a synchronous slice the event loop cannot interrupt
    }
    const blocked = performance.now() - t0;
    await new Promise((r) => setImmediate(r));
    expect(probe.stop()).toBeGreaterThanOrEqual(blocked);
  });
});
