/**
 * When consolidation runs: on demand (lithos_consolidate, `lithos consolidate`, lithos_task_complete),
 * and — once a host turns the schedule on (the plugin, `lithos mcp`) — every CONSOLIDATION_INTERVAL_MS
 * on the engine's timers and as soon as one working memory has gathered more than
 * WORKING_MEMORY_TRIGGER_SIZE distinct notes since it was last consolidated. Runs are serialised (one at
 * a time, in call order); the timer is cancelled when the engine closes.
 */
import type { Logger, Timers } from '../ports';
import type { Receipt } from '../retrieval/types';
import { consolidate, type ConsolidateOptions, type ConsolidatePorts, type ConsolidationReport } from './consolidate';
import { extractiveSummarizer, type Summarizer } from './summarizer';
import { Periodic } from './periodic';

export const CONSOLIDATION_INTERVAL_MS = 6 * 3600 * 1000;
export const WORKING_MEMORY_TRIGGER_SIZE = 50;

export class Consolidator {
  private chain: Promise<unknown> = Promise.resolve();
  private readonly schedule: Periodic;
  /** Distinct notes per working memory since its last consolidation (size trigger). */
  private readonly sizes = new Map<string, Set<string>>();
  summarizer: Summarizer = extractiveSummarizer;

  constructor(
    private readonly d: ConsolidatePorts,
    timers: Timers,
    private readonly logger: Logger,
    /** Runs after each consolidation, as its actor (the ledger's phases). */
    private readonly after: (actor: ConsolidateOptions['actor'], sampler?: ConsolidateOptions['sampler']) => Promise<void> = async () => undefined,
  ) {
    this.schedule = new Periodic(
      timers,
      () => this.run({ actor: { kind: 'rule', id: 'schedule' } }).catch((err: unknown) => this.logger.warn('scheduled consolidation failed', { error: String(err) })),
      CONSOLIDATION_INTERVAL_MS,
    );
  }

  /** Queues one run; resolves with its report. */
  run(opts: Omit<ConsolidateOptions, 'summarizer'> = {}): Promise<ConsolidationReport> {
    const next = this.chain.then(async () => {
      const report = await consolidate(this.d, { ...opts, summarizer: this.summarizer });
      await this.after(opts.actor, opts.sampler);
      return report;
    });
    this.chain = next.catch(() => undefined);
    if (opts.task) this.sizes.delete(`task:${opts.task}`);
    else if (opts.agent) this.sizes.delete(`agent:${opts.agent}`);
    else this.sizes.clear();
    return next;
  }

  /** Turns the schedule and the size trigger on. */
  start(intervalMs = CONSOLIDATION_INTERVAL_MS): void {
    this.schedule.start(intervalMs);
  }

  /** A new interval for a running schedule (the plugin's settings): the next run is `intervalMs` from now. */
  reschedule(intervalMs: number): void {
    this.schedule.reschedule(intervalMs);
  }

  get intervalMs(): number {
    return this.schedule.intervalMs;
  }

  get scheduled(): boolean {
    return this.schedule.scheduled;
  }

  /** After each recorded retrieval: a working memory past the size limit is consolidated at once. */
  noteRetrieval(r: Receipt): void {
    if (!this.schedule.scheduled) return;
    const key = r.task_id ? `task:${r.task_id}` : `agent:${r.agent_id ?? 'human'}`;
    let set = this.sizes.get(key);
    if (!set) this.sizes.set(key, (set = new Set()));
    for (const n of r.final_nodes) set.add(n.id);
    if (set.size <= WORKING_MEMORY_TRIGGER_SIZE) return;
    const opts = r.task_id ? { task: r.task_id } : { agent: r.agent_id ?? undefined };
    this.run({ ...opts, actor: { kind: 'rule', id: 'working-memory-size' } }).catch((err: unknown) => this.logger.warn('consolidation (size trigger) failed', { error: String(err) }));
  }

  /** Cancels the schedule and waits for a run in progress. */
  async stop(): Promise<void> {
    await this.schedule.stop();
    await this.chain;
  }
}
