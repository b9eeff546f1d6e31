/**
 * MiniLmSwitch when the plugin unloads while all-MiniLM-L6-v2 is still loading: the model that arrives
 * afterwards is disposed (its worker stopped) and never put into the engine. Before, it was put in and its
 * worker ran on after unload, which kept the test process alive ("a worker process has failed to exit").
 */
import { MINILM_SPACE_ID } from '../../shared/index/embedders/transformers-embedder';
import { MiniLmSwitch, type MiniLmState } from '../../plugin/minilm/minilm-switch';
import type { MiniLmEmbedder } from '../../plugin/minilm/worker-client';
import { openHarness } from '../engine/harness';
import { engineControls } from '../../plugin/engine-controls';

/** A model that embeds every text as one fixed unit vector and records its disposal. */
function embedderTwin(): MiniLmEmbedder & { disposed: boolean } {
  return {
    spaceId: MINILM_SPACE_ID,
    modelId: 'Xenova/all-MiniLM-L6-v2',
    dimensions: 2,
    runsIn: 'worker',
    fallback: null,
    disposed: false,
    async embed(texts) {
      return texts.map(() => new Float32Array([1, 0]));
    },
    async dispose() {
      this.disposed = true;
    },
  };
}

function switchWith(load: () => Promise<MiniLmEmbedder>) {
  const states: MiniLmState['kind'][] = [];
  const notices: string[] = [];
  const s = new MiniLmSwitch({
    status: async (root) => ({ folder: `${root}/Xenova/all-MiniLM-L6-v2`, complete: true, bytes: 1, missing: [] }),
    load,
    progress: () => undefined,
    ready: () => undefined,
    notify: (m) => void notices.push(m),
    yieldTurn: async () => undefined,
  });
  s.follow((state) => states.push(state.kind));
  return { s, states, notices };
}

const ON = { on: true, root: '.lithos/models' };

test('stopped while the model loads: the loaded model is disposed, no space is added, the state stays off', async () => {
  const { engine } = await openHarness({ 'a.md': '# A\nalpha\n' });
  const model = embedderTwin();
  let loaded!: (e: MiniLmEmbedder) => void;
  let started!: () => void;
  const loadStarted = new Promise<void>((r) => (started = r));
  const { s, states, notices } = switchWith(
    () =>
      new Promise<MiniLmEmbedder>((resolve) => {
        loaded = resolve;
        started();
      }),
  );
  const applied = s.apply(engineControls(engine.services), ON);
  await loadStarted;
  s.stop(); // the plugin unloads
  loaded(model);
  await applied;
  expect(model.disposed).toBe(true);
  expect(engine.services.search.activeSpaces()).not.toContain(MINILM_SPACE_ID);
  expect(s.state).toEqual({ kind: 'off' });
  expect(states).toEqual(['loading', 'off']);
  expect(notices).toEqual([]);
  await engine.close();
});

test('not stopped: the same load puts the space in, and stop() takes it out', async () => {
  const { engine } = await openHarness({ 'a.md': '# A\nalpha\n' });
  const model = embedderTwin();
  const { s, states } = switchWith(async () => model);
  await s.apply(engineControls(engine.services), ON);
  expect(engine.services.search.activeSpaces()).toContain(MINILM_SPACE_ID);
  expect(model.disposed).toBe(false);
  s.stop();
  expect(engine.services.search.activeSpaces()).not.toContain(MINILM_SPACE_ID);
  expect(states[0]).toBe('loading');
  expect(states[states.length - 1]).toBe('off');
  await engine.close();
});
