/**
 * The ledger's targets as a session's viewer may know them (docs/ledger.md → Targets and intents): only the
 * decisions it sees are counted, listed, suggested from or shown in a history, so a target whose decisions
 * are all hidden from it does not exist here. Merging targets changes every caller's view: the person's.
 */
import { LithosError } from '../errors';
import { suggestTargets, normaliseTarget, type TargetSuggestion } from '../ledger/target-names';
import { aliasMap, canonicalTarget, decisionEntries, historyRow, mergeTargets, sameTarget, summarise, type DecisionEntry, type HistoryRow, type MergeResult, type TargetSummary } from '../ledger/target-registry';
import type { NotesRoom } from './notes-room';
import type { Services } from './services';
import type { SessionScope } from './session-scope';

export class TargetsRoom {
  constructor(
    private readonly services: Services,
    private readonly who: SessionScope,
    private readonly notes: NotesRoom,
  ) {}

  private get ports() {
    return { notes: this.services.notes, aliases: this.services.learning.memory.targets };
  }

  private entries(): Promise<DecisionEntry[]> {
    return decisionEntries(this.ports, (n) => this.notes.sees(n));
  }

  /**
   * The key a name means to this viewer: through the merged aliases when that leads to a target it sees,
   * else the name normalised (an alias into a target it may not see is not followed, so it is not named).
   */
  private keyOf(name: string, entries: readonly DecisionEntry[]): string {
    const key = canonicalTarget(name, aliasMap(this.ports));
    return entries.find((e) => sameTarget(e.target, key))?.target ?? normaliseTarget(name);
  }

  /** Every target the viewer's decisions name, by key, with counts of decisions and active ones. */
  async list(): Promise<TargetSummary[]> {
    return summarise(await this.entries(), aliasMap(this.ports));
  }

  /** The existing targets (among those the viewer sees) a name probably means, best first. */
  async suggest(name: string, limit: number): Promise<{ key: string; suggestions: (TargetSuggestion & { active: number })[] }> {
    const entries = await this.entries();
    const key = this.keyOf(name, entries);
    const rows = new Map(summarise(entries, aliasMap(this.ports)).map((t) => [t.target, t]));
    const suggestions = suggestTargets(key, rows.keys(), limit).map((s) => ({ ...s, active: rows.get(s.target)?.active ?? 0 }));
    return { key, suggestions };
  }

  /** A target's decisions the viewer sees, oldest first, with their states and intents. */
  async history(name: string): Promise<{ target: string; decisions: HistoryRow[] }> {
    const entries = await this.entries();
    const key = this.keyOf(name, entries);
    return { target: key, decisions: entries.filter((e) => sameTarget(e.target, key)).map(historyRow) };
  }

  /** Merges target `from` into `into` (ledger/target-registry.ts); the person only. */
  async merge(from: string, into: string, opts: { rewrite: boolean }, tool: string): Promise<MergeResult> {
    if (!this.who.isPerson) throw new LithosError('forbidden', `${tool}: merging targets changes every reader's targets, so the person merges them.`, { tool });
    return mergeTargets({ ...this.ports, audit: this.services.governance.audit }, from, into, { ...opts, actor: this.who.auditActor, actorName: this.who.actor(tool) });
  }
}
