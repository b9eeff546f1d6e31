/**
 * Puts all-MiniLM-L6-v2 into the plugin's engine and takes it out again, following Settings → Embeddings:
 * with the setting on and the folder complete, the model is loaded and `minilm-l6-v2` added beside the
 * offline space (the bridge's space id, so the CLI and the plugin share the cached vectors); notes
 * without MiniLM vectors are embedded in the background, new and edited ones as they are indexed.
 * Switching back, or another folder, removes the space at once. A failure leaves the offline space alone.
 */
import { asLithosError, LithosError } from '../../shared/errors';
import type { ModelFolderStatus } from '../../shared/index/embedders/model-download';
import { MINILM_SPACE_ID } from '../../shared/index/embedders/transformers-embedder';
import type { Embedder } from '../../shared/ports';
import type { MiniLmEmbedder } from './worker-client';
import type { EngineControls } from '../engine-controls';

/** The engine's embedding spaces, which the switch adds MiniLM to and takes it out of. */
type Spaces = Pick<EngineControls, 'addSpace' | 'removeSpace' | 'notes'>;

export type MiniLmState =
  | { kind: 'off' }
  /** On in the settings, waiting for the memory to open. */
  | { kind: 'waiting' }
  | { kind: 'incomplete'; folder: string; missing: string[] }
  | { kind: 'loading' }
  /** `fallback`: why the model runs on the main thread; null in a worker. */
  | { kind: 'embedding'; done: number; total: number; fallback: string | null }
  | { kind: 'active'; embedded: number; fallback: string | null }
  | { kind: 'failed'; message: string };

export interface MiniLmWish {
  on: boolean;
  /** The Model folder setting. */
  root: string;
}

export interface MiniLmSwitchDeps {
  status(root: string): Promise<ModelFolderStatus>;
  load(root: string): Promise<MiniLmEmbedder>;
  /** The status bar while notes are embedded, and once done. */
  progress(done: number, total: number): void;
  ready(): void;
  notify(message: string): void;
  /** Gives the renderer a turn between two model runs on its thread (the in-thread fallback). */
  yieldTurn(): Promise<void>;
}

interface Live {
  engine: Spaces;
  root: string;
  embedder: MiniLmEmbedder;
  stopped: boolean;
  /** Model runs one at a time; the session is freed only after the last one. */
  queue: Promise<unknown>;
}

export class MiniLmSwitch {
  private live: Live | null = null;
  private current: MiniLmState = { kind: 'off' };
  private view: ((s: MiniLmState) => void) | null = null;
  private chain: Promise<void> = Promise.resolve();
  /** Counts stop() calls: a load that stop() overtook is disposed, not put in (its worker would run on). */
  private stops = 0;

  constructor(private readonly deps: MiniLmSwitchDeps) {}

  get state(): MiniLmState {
    return this.current;
  }

  /** The settings view showing this state; a new rendering replaces the last (null: none). */
  follow(view: ((s: MiniLmState) => void) | null): void {
    this.view = view;
  }

  /** Brings the engine in line with the settings; calls run one after another, never reject. */
  apply(engine: Spaces | null, wish: MiniLmWish): Promise<void> {
    this.chain = this.chain.then(() => this.run(engine, wish)).catch((err: unknown) => this.fail(asLithosError(err).message));
    return this.chain;
  }

  /** Takes the space out (plugin unload, engine closing). */
  stop(): void {
    this.stops++;
    this.takeOut();
    this.set({ kind: 'off' });
  }

  private set(s: MiniLmState): void {
    this.current = s;
    this.view?.(s);
  }

  private fail(message: string): void {
    this.set({ kind: 'failed', message });
    this.deps.notify(`Lithos: all-MiniLM-L6-v2 is not used: ${message} Obsidian keeps searching with the offline space.`);
  }

  private async run(engine: Spaces | null, wish: MiniLmWish): Promise<void> {
    const live = this.live;
    if (live && (!wish.on || live.engine !== engine || live.root !== wish.root)) this.takeOut();
    if (!wish.on) return this.set({ kind: 'off' });
    if (!engine) return this.set({ kind: 'waiting' });
    if (this.live) return;
    const stops = this.stops;
    const disk = await this.deps.status(wish.root);
    if (stops !== this.stops) return;
    if (!disk.complete) return this.set({ kind: 'incomplete', folder: disk.folder, missing: disk.missing });
    this.set({ kind: 'loading' });
    let embedder: MiniLmEmbedder;
    try {
      embedder = await this.deps.load(wish.root);
    } catch (err) {
      if (stops !== this.stops) return;
      return this.fail(asLithosError(err).message);
    }
    if (stops !== this.stops) {
      await embedder.dispose().catch(() => undefined);
      return;
    }
    const next: Live = { engine, root: wish.root, embedder, stopped: false, queue: Promise.resolve() };
    this.live = next;
    const fallback = embedder.fallback;
    this.set({ kind: 'embedding', done: 0, total: engine.notes().length, fallback });
    // In the background: a switch back to offline must not wait for a whole vault to be embedded.
    void engine
      .addSpace(this.stoppable(next), (done, total) => {
        if (next.stopped) return;
        this.set({ kind: 'embedding', done, total, fallback });
        this.deps.progress(done, total);
      })
      .then(
        (embedded) => {
          if (next.stopped) return;
          this.set({ kind: 'active', embedded, fallback });
          this.deps.ready();
        },
        (err: unknown) => {
          if (next.stopped) return;
          this.takeOut();
          this.fail(asLithosError(err).message);
          this.deps.ready();
        },
      );
  }

  /**
   * The space the engine gets; refuses once stopped. A worker takes a note's texts in one request; on the
   * main thread, one text per model run with a turn for the renderer between runs.
   */
  private stoppable(live: Live): Embedder {
    return {
      spaceId: MINILM_SPACE_ID,
      dimensions: live.embedder.dimensions,
      embed: async (texts) => {
        if (live.embedder.runsIn === 'worker') {
          if (live.stopped) throw new LithosError('cancelled', 'all-MiniLM-L6-v2 was switched off.');
          return live.embedder.embed(texts);
        }
        const out: Float32Array[] = [];
        for (const text of texts) {
          await this.deps.yieldTurn();
          if (live.stopped) throw new LithosError('cancelled', 'all-MiniLM-L6-v2 was switched off.');
          const run = live.queue.then(() => live.embedder.embed([text]));
          live.queue = run.catch(() => undefined);
          out.push(...(await run));
        }
        return out;
      },
    };
  }

  private takeOut(): void {
    const live = this.live;
    if (!live) return;
    this.live = null;
    live.stopped = true;
    try {
      live.engine.removeSpace(MINILM_SPACE_ID);
    } catch {
      // The engine closed meanwhile: nothing left to take the space out of.
    }
    void live.queue.then(() => live.embedder.dispose()).catch(() => undefined);
  }
}
