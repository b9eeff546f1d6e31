/**
 * What the engine learns from use, over memory.sqlite's signals: feedback on a retrieval (feedback.ts),
 * quarantine (quarantine.ts), working memory (working-memory.ts), decay at open and on a schedule
 * (decay.ts), and consolidation (consolidator.ts). A retrieval by itself teaches nothing.
 */
import { LithosError } from '../errors';
import { isLedgerKind } from '../model/ledger';
import type { Timers } from '../ports';
import type { MemoryStore } from '../stores/memory-store';
import type { Receipt } from '../retrieval/types';
import { DECAY } from './constants';
import { Consolidator } from './consolidator';
import { runDecay, type DecayReport } from './decay';
import { ageEvents } from './event-ageing';
import { EventLog } from './event-log';
import { ExternalEdits } from './external-edits';
import type { GitIndexReport } from './git-history';
import { GitIndexer, type GitSource } from './git-indexer';
import { applyFeedbackOnce, type FeedbackInput, type FeedbackResult } from './feedback';
import type { LearningStore } from './learning-store';
import type { LearningPorts } from './learning-ports';
import { LedgerPhases } from './ledger-phases';
import { Periodic } from './periodic';
import { reflect, type ReflectReport } from './reflection';
import type { Sampler } from './reflection-wording';
import type { AuditActor } from '../governance/audit';
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
  /** The knowledge ledger's phases and vitality (ledger-phases.ts). */
  readonly ledger: LedgerPhases;
  /** Episodic events: recorded here, aged with decay (event-log.ts, event-ageing.ts). */
  readonly events: EventLog;
  /** Decay at open, then every DECAY.interval_ms. */
  private readonly decayRuns: Periodic;
  private readonly externalEdits: ExternalEdits;
  /** Git history as events, when a host can read repositories (git-indexer.ts). */
  private readonly git: GitIndexer;
  /** Feedback applies one call at a time, so two calls for one receipt cannot both pass the applied-once check. */
  private feedbackChain: Promise<unknown> = Promise.resolve();
  private reflectChain: Promise<unknown> = Promise.resolve();
  /** The MCP client's sampling, where one offers it: reflection's model wording (reflection-wording.ts). */
  private sampler: Sampler | null = null;

  constructor(private readonly d: LearningDeps) {
    this.memory = d.memory;
    this.tunables = d.tunables;
    this.ledger = new LedgerPhases(d);
    this.events = new EventLog(d);
    this.git = new GitIndexer(d, this.events);
    this.externalEdits = new ExternalEdits({ events: this.events, notes: d.notes, clock: d.clock, audit: d.audit });
    // Every ledger entry is evaluated after each consolidation, then reflection proposes repeated procedures.
    this.consolidator = new Consolidator(d, d.timers, d.logger, async (actor, sampler) => {
      await this.ledgerLogged(() => this.ledger.evaluate('all', actor));
      await this.reflect(actor, sampler).catch((err: unknown) => this.d.logger.warn('reflection failed', { error: String(err) }));
    });
    this.decayRuns = new Periodic(d.timers, () => this.decayLogged(), DECAY.interval_ms);
  }

  /** Post-task feedback on one receipt (feedback.ts). */
  feedback(input: FeedbackInput): Promise<FeedbackResult> {
    const run = this.feedbackChain
      .catch(() => undefined)
      .then(() => applyFeedbackOnce(this.d, input))
      .then(async (r) => {
        // The ledger entries the receipt returned: their uses, ignores or misleading marks just moved.
        const actor = input.agent ? { kind: 'agent' as const, id: input.agent } : { kind: 'human' as const, id: null };
        if (r.applied) await this.ledgerLogged(() => this.ledger.evaluate([...r.used, ...r.ignored, ...r.exploration, ...r.misleading], actor));
        return r;
      });
    this.feedbackChain = run;
    return run;
  }

  /**
   * A note changed (sync's hook): a ledger entry is evaluated again, so one superseded or refuted leaves
   * canonical at once. Runs after the feedback in progress; a failure is logged.
   */
  noteChanged(path: string): void {
    const n = this.d.notes.note(path);
    if (!n || !isLedgerKind(n.cached.meta.note_type)) return;
    const id = n.nodeId;
    const run = this.feedbackChain.catch(() => undefined).then(() => this.ledgerLogged(() => this.ledger.evaluate([id])));
    this.feedbackChain = run;
  }

  /** A note changed outside the tools (sync's hook): an `external_edit` event, coalesced per note (external-edits.ts). */
  externalEdit(path: string): void {
    this.externalEdits.seen(path);
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

  /** One decay run at `now` (decay.ts), and the episodic events' ageing with it (event-ageing.ts). */
  async decay(now: number = this.d.clock.now()): Promise<DecayReport> {
    const report = await runDecay(this.d, now);
    const aged = await ageEvents(this.d, now);
    return { ...report, events_archived: aged.archived, events_pruned: aged.pruned };
  }

  /**
   * How this host reads git repositories (`lithos mcp` headless, `lithos git`, the plugin on desktop): the
   * commits of the one the setting `git.repository` names, or of the one holding the vault, are indexed as
   * `commit` events by indexGit() and after each decay run.
   */
  setGitSource(source: GitSource | null): void {
    this.git.setSource(source);
  }

  /** Indexes the commits made since the last run (git-indexer.ts); unsupported when the host set no source. */
  indexGit(): Promise<GitIndexReport> {
    return this.git.run();
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
    await this.feedbackChain.catch(() => undefined);
    await this.git.stop();
    await this.events.stop();
  }

  /** A failed ledger evaluation is logged: the feedback or consolidation it follows stands. */
  private async ledgerLogged(run: () => Promise<unknown>): Promise<void> {
    try {
      await run();
    } catch (err) {
      this.d.logger.warn('ledger phase evaluation failed', { error: String(err) });
    }
  }

  /**
   * One reflection pass (reflection.ts): repeated procedures of completed tasks proposed as workflow notes.
   * Queued tool calls are written first so the trajectories are whole; runs one at a time.
   */
  reflect(actor: AuditActor = { kind: 'rule', id: 'reflection' }, sampler?: Sampler): Promise<ReflectReport> {
    const run = this.reflectChain.catch(() => undefined).then(async () => {
      await this.events.flush();
      // The calling bridge's (relay: a completion's own), else the engine's (headless lithos mcp), else none.
      return reflect(this.d, { actor, sampler: sampler ?? this.sampler, timers: this.d.timers });
    });
    this.reflectChain = run;
    return run;
  }

  /** Sampling of the connected MCP client (headless `lithos mcp`), or null: reflection then words candidates by rule. */
  setSampler(sampler: Sampler | null): void {
    this.sampler = sampler;
  }

  /** A failed run is logged, never thrown at the host. */
  private async decayLogged(): Promise<void> {
    await this.decay().then(
      () => undefined,
      (err: unknown) => this.d.logger.warn('decay failed', { error: String(err) }),
    );
    if (this.git.available) await this.indexGit().catch((err: unknown) => this.d.logger.warn('git history not indexed', { error: String(err) }));
  }
}
