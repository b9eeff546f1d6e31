/**
 * The `target` rule (docs/ledger.md → Targets and intents): two active decisions on one target disagree
 * until an intent settles which stands. lithos_write refuses an agent's second decision on a target it can
 * see; this rule covers what reaches the vault another way (a person's note written in Obsidian, a target
 * the writer could not see), so it becomes an open conflict the person resolves, never a blocked edit.
 */
import type { LiveNote } from '../vault/note-indexer';
import type { RuleFinding } from '../stores/conflict-edges';
import { isActiveDecision, isDecision, ledgerFacts } from '../ledger/entry-facts';
import { activeOn, aliasMap, canonicalTarget, decisionEntries } from '../ledger/target-registry';
import type { ConflictPorts } from './conflict-ports';

type TargetPorts = Pick<ConflictPorts, 'notes' | 'memory'>;

/** The other active decisions on this decision's target, each with one `target` finding. */
export async function targetFindings(d: TargetPorts, note: LiveNote, skip: (otherId: string) => boolean): Promise<{ other: LiveNote; findings: RuleFinding[] }[]> {
  if (!isDecision(note)) return [];
  const facts = await ledgerFacts(d.notes, note);
  if (facts.target === null || !isActiveDecision(note, facts)) return [];
  const ports = { notes: d.notes, aliases: d.memory.targets };
  const key = canonicalTarget(facts.target, aliasMap(ports));
  if (key === '') return [];
  return activeOn(await decisionEntries(ports, () => true), key)
    .filter((e) => e.note.nodeId !== note.nodeId && !skip(e.note.nodeId))
    .map((e) => ({ other: e.note, findings: [{ rule: 'target', subject: key, a_sentence: `target: ${facts.target}`, b_sentence: `target: ${e.facts.target}` }] }));
}

/** Whether one of the two notes lists the other in its `supersedes` (by id, path or title, as written). */
export function replaces(d: Pick<ConflictPorts, 'notes'>, note: LiveNote, otherId: string): boolean {
  const other = d.notes.note(otherId);
  if (!other) return false;
  const names = (n: LiveNote) => n.cached.meta.supersedes.map((ref) => d.notes.note(ref)?.nodeId ?? ref);
  return names(note).includes(otherId) || names(other).includes(note.nodeId);
}
