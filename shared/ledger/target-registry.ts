/**
 * The target registry (docs/ledger.md → Targets and intents): the targets the decisions name, under one key
 * per target (target-names.ts) and the aliases merges left (memory.sqlite `target_aliases`). Targets come from
 * the decisions' frontmatter; nothing here is a second copy of them. Every read takes `visible`, the caller's
 * gate: a decision it may not see is not counted, listed, suggested or named.
 */
import { LithosError } from '../errors';
import type { AuditActor, AuditLog } from '../governance/audit';
import { LEDGER_FIELDS } from '../model/ledger';
import type { MemoryTargets } from '../stores/memory-targets';
import type { NotesService } from '../vault/notes-service';
import { noteTimeMs, type LiveNote } from '../vault/note-indexer';
import { entryRef, isActiveDecision, isDecision, ledgerFacts, type LedgerFacts } from './entry-facts';
import { normaliseTarget, targetIdentity } from './target-names';

export interface RegistryPorts {
  notes: Pick<NotesService, 'notes' | 'parse'>;
  aliases: Pick<MemoryTargets, 'aliases'>;
}

/** A decision that names a target, with its target's key (aliases applied). */
export interface DecisionEntry {
  note: LiveNote;
  facts: LedgerFacts;
  target: string;
}

/** The key a name resolves to: normalised, then through merged aliases (a chain is followed, a loop stops). */
export function canonicalTarget(name: string, aliases: ReadonlyMap<string, string>): string {
  let key = normaliseTarget(name);
  const seen = new Set<string>();
  while (aliases.has(targetIdentity(key)) && !seen.has(targetIdentity(key))) {
    seen.add(targetIdentity(key));
    key = aliases.get(targetIdentity(key))!;
  }
  return key;
}

/** Whether two keys are one target (target-names.ts targetIdentity). */
export const sameTarget = (a: string, b: string): boolean => targetIdentity(a) === targetIdentity(b);

/** Merged aliases: an alias's identity → the key of the target it means. */
export function aliasMap(d: Pick<RegistryPorts, 'aliases'>): Map<string, string> {
  return new Map(d.aliases.aliases().map((a) => [targetIdentity(a.alias), a.target]));
}

/**
 * Every decision the caller may see that names a target, oldest first. Each target is shown by the key of
 * its oldest spelling among them, so keys differing only in hyphens read as one.
 */
export async function decisionEntries(d: RegistryPorts, visible: (n: LiveNote) => boolean): Promise<DecisionEntry[]> {
  const aliases = aliasMap(d);
  const out: DecisionEntry[] = [];
  for (const note of d.notes.notes()) {
    if (!isDecision(note) || !visible(note)) continue;
    const facts = await ledgerFacts(d.notes, note);
    if (facts.target === null) continue;
    const target = canonicalTarget(facts.target, aliases);
    if (target !== '') out.push({ note, facts, target });
  }
  out.sort(byAge);
  const shown = new Map<string, string>();
  for (const e of out) {
    const id = targetIdentity(e.target);
    if (!shown.has(id)) shown.set(id, e.target);
    e.target = shown.get(id)!;
  }
  return out;
}

/** When a decision was made: its `created_at`, else when it was last written (a note without timestamps: its file's time). */
function madeAt(n: LiveNote): number {
  const t = Date.parse(n.cached.meta.created_at ?? '');
  return Number.isFinite(t) ? t : noteTimeMs(n);
}

function byAge(a: DecisionEntry, b: DecisionEntry): number {
  return madeAt(a.note) - madeAt(b.note) || (a.note.path < b.note.path ? -1 : a.note.path > b.note.path ? 1 : 0);
}

export interface TargetSummary {
  target: string;
  /** The spellings the decisions use, most used first. */
  spellings: string[];
  /** Other names merged into this target. */
  aliases: string[];
  decisions: number;
  active: number;
}

/** One row per target of `entries`, by key. Aliases are listed only for targets the entries show. */
export function summarise(entries: readonly DecisionEntry[], aliases: ReadonlyMap<string, string>): TargetSummary[] {
  const rows = new Map<string, { spellings: Map<string, number>; decisions: number; active: number }>();
  for (const e of entries) {
    const r = rows.get(e.target) ?? { spellings: new Map<string, number>(), decisions: 0, active: 0 };
    r.spellings.set(e.facts.target!, (r.spellings.get(e.facts.target!) ?? 0) + 1);
    r.decisions++;
    if (isActiveDecision(e.note, e.facts)) r.active++;
    rows.set(e.target, r);
  }
  return [...rows.entries()]
    .map(([target, r]) => ({
      target,
      spellings: [...r.spellings.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([s]) => s),
      aliases: aliasesOf(aliases, target),
      decisions: r.decisions,
      active: r.active,
    }))
    .sort((a, b) => (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
}

/** The merged names that lead to a target. */
function aliasesOf(aliases: ReadonlyMap<string, string>, target: string): string[] {
  return [...aliases.entries()].filter(([alias]) => sameTarget(canonicalTarget(alias, aliases), target)).map(([alias]) => alias).sort();
}

/** The active decisions on a target key. */
export function activeOn(entries: readonly DecisionEntry[], target: string): DecisionEntry[] {
  return entries.filter((e) => sameTarget(e.target, target) && isActiveDecision(e.note, e.facts));
}

/** One decision of a target's history, oldest first. */
export interface HistoryRow {
  ref: string;
  id: string;
  ledger_id: string | null;
  title: string;
  path: string;
  target: string;
  state: string;
  status: string;
  intent: LedgerFacts['intent'];
  superseded_by: string | null;
  at: string | null;
}

export function historyRow(e: DecisionEntry): HistoryRow {
  const m = e.note.cached.meta;
  return {
    ref: entryRef(e.note, e.facts),
    id: e.note.nodeId,
    ledger_id: e.facts.ledgerId,
    title: m.title,
    path: e.note.path,
    target: e.facts.target!,
    state: e.facts.state ?? 'active',
    status: m.status,
    intent: e.facts.intent,
    superseded_by: e.facts.supersededBy,
    at: m.created_at ?? m.updated_at,
  };
}

export interface MergePorts extends RegistryPorts {
  notes: Pick<NotesService, 'notes' | 'parse' | 'updateFrontmatter'>;
  aliases: Pick<MemoryTargets, 'aliases' | 'setAlias'>;
  audit: Pick<AuditLog, 'append'>;
}

export interface MergeResult {
  from: string;
  into: string;
  /** The decisions whose `target` was rewritten to `into` (rewrite: true). */
  rewritten: string[];
  /** Active decisions on `into` after the merge: more than one is for a person to settle (an intent). */
  active: string[];
}

/**
 * Merges target `from` into `into`: `from`'s key becomes an alias of `into`'s (so every spelling of `from`
 * means `into` from now on), and with `rewrite` each decision naming `from` gets `into`'s spelling in its
 * frontmatter. Both must be targets of some decision. Audited `target.merge`. For the person: the caller's
 * gate is not applied (the room refuses agents).
 */
export async function mergeTargets(d: MergePorts, from: string, into: string, opts: { rewrite: boolean; actor: AuditActor; actorName: string }): Promise<MergeResult> {
  const entries = await decisionEntries(d, () => true);
  const aliases = aliasMap(d);
  const f = canonicalTarget(from, aliases);
  const t = canonicalTarget(into, aliases);
  const known = new Set(entries.map((e) => targetIdentity(e.target)));
  for (const [field, key, asked] of [['from', f, from], ['into', t, into]] as const) {
    if (!known.has(targetIdentity(key))) throw new LithosError('not_found', `No decision names the target "${asked}"; \`lithos targets\` lists them.`, { field, target: asked });
  }
  if (sameTarget(f, t)) throw new LithosError('invalid_argument', `"${from}" and "${into}" are already one target ("${t}").`, { from, into });
  await d.aliases.setAlias(f, t, opts.actorName);
  // Aliases that led to `from` lead to `into` directly, so no chain grows.
  for (const [alias, target] of aliases) if (sameTarget(target, f)) await d.aliases.setAlias(alias, t, opts.actorName);
  const spelling = summarise(entries.filter((e) => sameTarget(e.target, t)), aliases)[0]?.spellings[0] ?? t;
  const rewritten: string[] = [];
  if (opts.rewrite) {
    for (const e of entries.filter((x) => sameTarget(x.target, f))) {
      await d.notes.updateFrontmatter(e.note.path, (fm) => {
        fm[LEDGER_FIELDS.target] = spelling;
      });
      rewritten.push(entryRef(e.note, e.facts));
    }
  }
  const after = await decisionEntries(d, () => true);
  const active = activeOn(after, t).map((e) => entryRef(e.note, e.facts));
  await d.audit.append({ action: 'target.merge', actor: opts.actor, target: t, data: { from: f, into: t, rewritten, active } });
  return { from: f, into: t, rewritten, active };
}
