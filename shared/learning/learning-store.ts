/**
 * The vault's learning constants: `.lithos/learning.json` holds only the overrides of the tunable ones
 * (tunables.ts), so the plugin, `lithos mcp` headless and the CLI all learn the same way.
 *
 * { "version": 1, "feedback": { "quarantine_at": 2 }, "decay": { "edge_half_life_days": 60 } }
 *
 * Like the policy (governance/policy.ts): `set` applies at once and is audited ('learning.set'); a hand edit
 * applies at the next `refresh`, which feedback and decay call before each run (reading the file at most
 * every RELOAD_MS). No file: the defaults. A file that cannot be read as a configuration: the defaults,
 * reported in `problem` and logged, and left as it is until it is fixed or replaced by `set`.
 */
import { LithosError } from '../errors';
import { silentLogger, type BlobStore, type Clock, type Logger } from '../ports';
import type { AuditActor, AuditLog } from '../governance/audit';
import { RELOAD_MS } from '../governance/policy';
import { effectiveLearning, parseLearningOverrides, TUNABLES, tunable, type LearningConstants, type LearningOverrides } from './tunables';

export const LEARNING_FILE = 'learning.json';

const enc = new TextEncoder();
const dec = new TextDecoder();
const HUMAN: AuditActor = { kind: 'human', id: null };

export class LearningStore {
  private currentOverrides: LearningOverrides = {};
  private current: LearningConstants = effectiveLearning({});
  private loadedAt: number;
  private lastText: string | null = null;
  /** Why the file on disk is not in force (unreadable JSON, a value out of range); null when it is (or absent). */
  problem: string | null = null;

  private constructor(
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly audit: AuditLog | null,
  ) {
    this.loadedAt = clock.now();
  }

  static async open(deps: { blobs: BlobStore; clock: Clock; logger?: Logger; audit?: AuditLog }): Promise<LearningStore> {
    const store = new LearningStore(deps.blobs, deps.clock, deps.logger ?? silentLogger, deps.audit ?? null);
    await store.reload();
    return store;
  }

  /** The constants in force (frozen): the defaults with the overrides applied. */
  get(): LearningConstants {
    return this.current;
  }

  /** Only the overrides in force (frozen). */
  overrides(): LearningOverrides {
    return this.currentOverrides;
  }

  /**
   * Replaces every override: validates, writes learning.json atomically, applies at once and audits it
   * ('learning.set', with each changed constant's before and after). Nothing changed: nothing written.
   */
  async set(raw: unknown, actor: AuditActor = HUMAN): Promise<LearningConstants> {
    const next = parseLearningOverrides(raw);
    const changed: Record<string, [number, number]> = {};
    const after = effectiveLearning(next);
    for (const t of TUNABLES) {
      const a = (this.current[t.group] as Record<string, number>)[t.name];
      const b = (after[t.group] as Record<string, number>)[t.name];
      if (a !== b) changed[t.key] = [a, b];
    }
    // A damaged file is rewritten even when the constants in force stay the same: `set` is what fixes it.
    if (Object.keys(changed).length === 0 && this.problem === null) return this.current;
    const text = JSON.stringify({ version: 1, ...next }, null, 2) + '\n';
    await this.blobs.writeAtomic(LEARNING_FILE, enc.encode(text));
    this.apply(next, text);
    this.problem = null;
    await this.audit?.append({ action: 'learning.set', actor, target: LEARNING_FILE, data: { overrides: next, changed } });
    return this.current;
  }

  /** One constant (`group.name` or its bare name) set to `value`, or back to its default with null. */
  async update(key: string, value: number | null, actor: AuditActor = HUMAN): Promise<LearningConstants> {
    const t = tunable(key);
    await this.reload(); // a hand edit made since the last read is the base, not lost
    const groups = Object.fromEntries(Object.entries(this.currentOverrides).map(([g, o]) => [g, { ...o }])) as Record<string, Record<string, number>>;
    const group = (groups[t.group] ??= {});
    if (value === null) delete group[t.name];
    else group[t.name] = value;
    return this.set(groups, actor);
  }

  /** Every constant back to its default (learning.json keeps only its version). */
  reset(actor: AuditActor = HUMAN): Promise<LearningConstants> {
    return this.set({}, actor);
  }

  /** Re-reads learning.json when the last read is older than RELOAD_MS (hand edits while running). */
  async refresh(): Promise<void> {
    if (this.clock.now() - this.loadedAt >= RELOAD_MS) await this.reload();
  }

  /** Re-reads learning.json now. */
  async reload(): Promise<void> {
    this.loadedAt = this.clock.now();
    const bytes = await this.blobs.read(LEARNING_FILE);
    const text = bytes ? dec.decode(bytes) : null;
    if (text === this.lastText && this.lastText !== null) return;
    if (text === null) {
      this.apply({}, null);
      this.problem = null;
      return;
    }
    try {
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch (err) {
        throw new LithosError('invalid_argument', `.lithos/${LEARNING_FILE} is not valid JSON (${(err as Error).message}).`);
      }
      this.apply(parseLearningOverrides(raw), text);
      this.problem = null;
    } catch (err) {
      this.apply({}, text);
      this.problem = `${(err as Error).message} Learning uses the default constants until .lithos/${LEARNING_FILE} is fixed.`;
      this.logger.warn(this.problem);
    }
  }

  private apply(overrides: LearningOverrides, text: string | null): void {
    this.currentOverrides = overrides;
    this.current = effectiveLearning(overrides);
    this.lastText = text;
  }
}

