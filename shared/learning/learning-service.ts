/**
 * What the engine learns from use, over memory.sqlite's signals: feedback on a retrieval (feedback.ts),
 * quarantine (quarantine.ts), working memory (working-memory.ts), decay at open and on a schedule
 * (decay.ts), and consolidation (consolidator.ts). A retrieval by itself teaches nothing.
 */
import { LithosError } from '../errors';
import type { Timers } from '../ports';
import type { MemoryStore } from '../stores/memory-store';
import type { Receipt } from '../retrieval/types';
import { DECAY } from './constants';
import { Consolidator } from './consolidator';
import { runDecay, type DecayReport } from './decay';
import { applyFeedbackOnce, type FeedbackInput, type FeedbackResult } from './feedback';
import type { LearningStore } from './learning-store';
import type { LearningPorts } from './learning-ports';
import { Periodic } from './periodic';
import { listQuarantined, type QuarantinedNote } from './quarantine';
import { workingMemory, type WorkingMemory, type WorkingMemoryQuery } from './working-memory';

export interface LearningDeps extends LearningPorts {
  memory: MemoryStore;
  tunables: LearningStore;
  timers: Timers;
}

export class LearningService {
  /** memory.sqlite: nodes, edges, stats, coactivation and learned marks, each through its own facade. */
  readonly memory: MemoryStore;
  /** `.lithos/learning.json`: the vault's overrides of the learning constants (learning-store.ts). */
  readonly tunables: LearningStore;
  /** Consolidation on demand, or on its schedule once a host starts it. */
  readonly consolidator: Consolidator;
  /** Decay at open, then every DECAY.interval_ms. */
  private readonly decayRuns: Periodic;
  /** Feedback applies one call at a time, so two calls for one receipt cannot both pass the applied-once check. */
  private feedbackChain: Promise<unknown> = Promise.resolve();

  constructor(private readonly d: LearningDeps) {
    this.memory = d.memory;
    this.tunables = d.tunables;
    this.consolidator = new Consolidator(d, d.timers, d.logger);
    this.decayRuns = new Periodic(d.timers, () => this.decayLogged(), DECAY.interval_ms);
  }

  /** Post-task feedback on one receipt (feedback.ts). */
  feedback(input: FeedbackInput): Promise<FeedbackResult> {
    const run = this.feedbackChain.catch(() => undefined).then(() => applyFeedbackOnce(this.d, input));
    this.feedbackChain = run;
    return run;
  }

  /** Every quarantined note, most misleading first; `allow` is the caller's scope gate. */
  quarantined(allow?: (id: string) => boolean): QuarantinedNote[] {
    return listQuarantined(this.d, allow);
  }

  /** The working memory of an agent, a task or both (working-memory.ts). */
  workingMemory(q: WorkingMemoryQuery): Promise<WorkingMemory> {
    return workingMemory(this.d, q);
  }

  /**
   * After each recorded retrieval: the consolidator's size trigger, nothing more. (A re-query near the
   * task's previous result once raised salience; it was learning from being shown, so it went.)
   */
  async retrievalRecorded(receipt: Receipt): Promise<void> {
    this.consolidator.noteRetrieval(receipt);
  }

  /** One decay run at `now` (decay.ts). */
  decay(now: number = this.d.clock.now()): Promise<DecayReport> {
    return runDecay(this.d, now);
  }

  /** Decays now, then every interval until stop(). */
  async start(): Promise<void> {
    await this.decayLogged();
    this.decayRuns.start();
  }

  /** How often decay runs while open (the plugin's settings); a pending run is re-armed to `ms` from now. */
  setDecayInterval(ms: number): void {
    if (!Number.isFinite(ms) || ms <= 0) throw new LithosError('invalid_argument', `The decay interval must be a positive number of milliseconds (got ${ms}).`, { interval_ms: ms });
    this.decayRuns.reschedule(ms);
  }

  /** Cancels decay and consolidation schedules and waits for runs in progress. */
  async stop(): Promise<void> {
    await this.decayRuns.stop();
    await this.consolidator.stop();
  }

  /** A failed run is logged, never thrown at the host. */
  private decayLogged(): Promise<void> {
    return this.decay().then(
      () => undefined,
      (err: unknown) => this.d.logger.warn('decay failed', { error: String(err) }),
    );
  }
}
