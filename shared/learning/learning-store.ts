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
import type { BlobStore, Clock, Logger } from '../ports';
import type { AuditActor, AuditLog } from '../governance/audit';
import { ConfigFile } from '../stores/config-file';
import { effectiveLearning, parseLearningOverrides, sameKinds, TUNABLES, tunable, type LearningConstants, type LearningOverrides } from './tunables';

export const LEARNING_FILE = 'learning.json';

const HUMAN: AuditActor = { kind: 'human', id: null };

export class LearningStore {
  /** The constants the overrides give, kept until the overrides in force change. */
  private derived: { from: LearningOverrides; constants: LearningConstants } | null = null;

  private constructor(
    private readonly file: ConfigFile<LearningOverrides>,
    private readonly audit: AuditLog | null,
  ) {}

  static async open(deps: { blobs: BlobStore; clock: Clock; logger?: Logger; audit?: AuditLog }): Promise<LearningStore> {
    const file = await ConfigFile.open<LearningOverrides>(
      {
        file: LEARNING_FILE,
        parse: parseLearningOverrides,
        empty: {},
        fallback: {},
        meanwhile: `Learning uses the default constants until .lithos/${LEARNING_FILE} is fixed.`,
      },
      deps,
    );
    return new LearningStore(file, deps.audit ?? null);
  }

  /** The constants in force (frozen): the defaults with the overrides applied. */
  get(): LearningConstants {
    const from = this.file.value;
    if (this.derived?.from !== from) this.derived = { from, constants: effectiveLearning(from) };
    return this.derived.constants;
  }

  /** Only the overrides in force (frozen). */
  overrides(): LearningOverrides {
    return this.file.value;
  }

  /** Why the file on disk is not in force (unreadable JSON, a value out of range); null when it is (or absent). */
  get problem(): string | null {
    return this.file.problem;
  }

  /**
   * Replaces every override: validates, writes learning.json atomically, applies at once and audits it
   * ('learning.set', with each changed constant's before and after). Nothing changed: nothing written.
   */
  async set(raw: unknown, actor: AuditActor = HUMAN): Promise<LearningConstants> {
    const next = parseLearningOverrides(raw);
    const before = this.get();
    const after = effectiveLearning(next);
    const changed: Record<string, [unknown, unknown]> = {};
    for (const t of TUNABLES) {
      const a = (before[t.group] as Record<string, number>)[t.name];
      const b = (after[t.group] as Record<string, number>)[t.name];
      if (a !== b) changed[t.key] = [a, b];
    }
    if (!sameKinds(before.events.immortal_kinds, after.events.immortal_kinds)) changed['events.immortal_kinds'] = [before.events.immortal_kinds, after.events.immortal_kinds];
    if (before.devices.folder !== after.devices.folder) changed['devices.folder'] = [before.devices.folder, after.devices.folder];
    if (before.briefing.path !== after.briefing.path) changed['briefing.path'] = [before.briefing.path, after.briefing.path];
    if (before.timeline.path !== after.timeline.path) changed['timeline.path'] = [before.timeline.path, after.timeline.path];
    if (before.git.repository !== after.git.repository) changed['git.repository'] = [before.git.repository, after.git.repository];
    // A damaged file is rewritten even when the constants in force stay the same: `set` is what fixes it.
    if (Object.keys(changed).length === 0 && this.problem === null) return before;
    await this.file.write(next, { version: 1, ...next });
    await this.audit?.append({ action: 'learning.set', actor, target: LEARNING_FILE, data: { overrides: next, changed } });
    return this.get();
  }

  /** One constant (`group.name` or its bare name) set to `value`, or back to its default with null. */
  async update(key: string, value: number | null, actor: AuditActor = HUMAN): Promise<LearningConstants> {
    const t = tunable(key);
    await this.reload(); // a hand edit made since the last read is the base, not lost
    const groups = Object.fromEntries(Object.entries(this.overrides()).map(([g, o]) => [g, { ...o }])) as Record<string, Record<string, number>>;
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
  refresh(): Promise<void> {
    return this.file.refresh();
  }

  /** Re-reads learning.json now. */
  reload(): Promise<void> {
    return this.file.reload();
  }
}
