/**
 * The ledger's part of a session's write (docs/ledger.md → Targets and intents): before anything is written,
 * the notes the write replaces are found among those the caller sees and its decision's target is checked
 * (ledger/replacements.ts: a `conflict` names the active decision and how to proceed); then the note and every
 * note it replaces change as one: the replaced notes' state, status and `superseded_by`, their status callout,
 * and one `ledger.intent` audit entry. If any part fails, what was already written is put back byte for byte.
 * An active decision on the target that the caller may not see does not stop the write: a `target` conflict
 * is opened for the person, and nothing of it is named to the caller.
 */
import { LithosError } from '../errors';
import { checkNoteWrite } from '../governance/write-policy';
import { LEDGER_FIELDS } from '../model/ledger';
import type { NoteFields, WriteNoteResult } from '../model/note-write';
import type { LiveNote } from '../vault/note-indexer';
import { entryRef, isDecision, ledgerFacts, type Intent } from '../ledger/entry-facts';
import { INTENT_STATE, INTENT_STATUS, planLedgerWrite, type LedgerWritePlan } from '../ledger/replacements';
import type { Services } from './services';
import type { SessionScope } from './session-scope';

/** Works out what a write replaces and whether its target is free; throws before anything is written. */
export async function planLedger(services: Services, sees: (n: LiveNote) => boolean, before: LiveNote | null, fields: NoteFields, intent: Intent | undefined): Promise<LedgerWritePlan> {
  const noteType = fields.note_type ?? before?.cached.meta.note_type ?? 'observation';
  let target: string | null = null;
  if (noteType === 'decision') {
    if (fields.target !== undefined) target = fields.target;
    else if (before) target = (await ledgerFacts(services.notes, before)).target;
  }
  return planLedgerWrite(
    { notes: services.notes, aliases: services.learning.memory.targets },
    { before, noteType, status: fields.status ?? before?.cached.meta.status ?? 'active', target, supersedes: fields.supersedes, intent },
    sees,
  );
}

/**
 * Replacing a note changes it: only as a write the caller may make (never a quarantined note: a person reviews
 * it), and never through a proposal (`proposedIn`: the namespace where the write would become one), whose
 * acceptance would write the note alone.
 */
export function checkReplacements(services: Services, who: SessionScope, plan: LedgerWritePlan, proposedIn: string | null): void {
  if (plan.replaced.length === 0) return;
  if (proposedIn !== null) {
    throw new LithosError('forbidden', `Changes in "${proposedIn}" are confirmed by a person, and a proposal cannot replace other notes: ask the person to supersede them, or propose the note without supersedes/intent.`, { namespace: proposedIn });
  }
  for (const r of plan.replaced) {
    const g = { ...r.note.cached.meta, path: r.note.path };
    if (g.status === 'quarantined') throw new LithosError('forbidden', `Cannot replace "${r.note.path}": it is quarantined, and a person reviews it.`, { path: r.note.path });
    if (checkNoteWrite(who.viewer, services.governance.policy.get(), g, g) === 'propose') {
      throw new LithosError('forbidden', `Cannot replace "${r.note.path}": changes in "${g.namespace}" are confirmed by a person, so a person supersedes it.`, { path: r.note.path, namespace: g.namespace });
    }
  }
}

/**
 * Runs `write` (the note's own write, given its fields with `supersedes` as resolved ids and the intent with its
 * replaced entries named) and applies the plan's replacements with it, as one change: on any failure the
 * replaced notes and the written note are put back as they were, and the error is thrown.
 */
export async function writeWithReplacements(
  services: Services,
  who: SessionScope,
  plan: LedgerWritePlan,
  path: string,
  fields: NoteFields,
  writeWith: (fields: NoteFields) => Promise<WriteNoteResult>,
): Promise<WriteNoteResult> {
  const write = () => writeWith({ ...fields, ...(plan.supersedes && { supersedes: plan.supersedes }), ...(plan.intent && { intent: plan.intent }) });
  if (plan.replaced.length === 0) {
    const r = await write();
    await openHidden(services, plan, r.id);
    return r;
  }
  const notes = services.notes;
  const actor = who.auditActor;
  const undo: (() => Promise<unknown>)[] = [];
  // The text as it is now, read under the note's lock without writing (the edit returns it unchanged).
  const textOf = async (p: string): Promise<string | null> => {
    let text: string | null = null;
    await notes.editNoteText(p, (t) => (text = t), actor);
    return text;
  };
  const restore = (p: string, text: string | null) => async () => {
    if (text !== null) await notes.editNoteText(p, () => text, actor);
  };
  const previous = notes.noteAtPath(path) ? await textOf(path) : null;
  try {
    const result = await write();
    undo.push(result.created ? () => notes.deleteNote(result.path, { actor: who.caller.kind === 'human' ? null : who.caller.agent_id }) : restore(result.path, previous));
    const written = notes.note(result.id);
    if (!written) throw new LithosError('internal', `"${result.path}" was written but is not indexed.`, { path: result.path });
    const by = entryRef(written, await ledgerFacts(notes, written));
    const replaced: Record<string, unknown>[] = [];
    for (const r of plan.replaced) {
      const text = await textOf(r.note.path);
      undo.push(restore(r.note.path, text));
      const decision = isDecision(r.note);
      const state = INTENT_STATE[r.type];
      const status = INTENT_STATUS[r.type];
      await notes.updateFrontmatter(r.note.path, (fm) => {
        const now = typeof fm[LEDGER_FIELDS.state] === 'string' ? String(fm[LEDGER_FIELDS.state]).toLowerCase() : 'active';
        if (decision && now !== 'active') {
          // Changed since the plan was made (another writer replaced it first).
          throw new LithosError('conflict', `${entryRef(r.note, r.facts)} is now ${now}; read it again before replacing it.`, { path: r.note.path, state: now });
        }
        if (decision) fm[LEDGER_FIELDS.state] = state;
        fm.status = status;
        fm[LEDGER_FIELDS.supersededBy] = by;
      });
      await services.conflicts.syncCallouts(r.note.nodeId);
      replaced.push({ ref: entryRef(r.note, r.facts), id: r.note.nodeId, path: r.note.path, intent: r.type, ...(decision && { state }), status });
    }
    await services.governance.audit.append({
      action: 'ledger.intent',
      actor,
      target: result.id,
      data: { path: result.path, ref: by, intent: plan.intent?.type ?? 'supersede', target: plan.target, replaced },
    });
    await openHidden(services, plan, result.id);
    return result;
  } catch (err) {
    // The caller learns the first error; an undo that fails too leaves what the audit trail records.
    for (const u of undo.reverse()) await u().catch(() => undefined);
    throw err;
  }
}

/**
 * Active decisions on the target that the writer may not see: a `target` conflict for the person. Its callout
 * goes into the person's note only (conflicts/callouts.ts); the writer's answer does not mention it.
 */
async function openHidden(services: Services, plan: LedgerWritePlan, noteId: string): Promise<void> {
  for (const other of plan.hidden) {
    try {
      await services.conflicts.open({
        a: noteId,
        b: other.nodeId,
        evidence: { rule: 'target', findings: [{ rule: 'target', subject: plan.target, a_sentence: `target: ${plan.target}`, b_sentence: `target: ${plan.target}` }] },
        actor: { kind: 'rule', id: 'rule:target' },
      });
    } catch {
      // The note is written; rule detection (conflicts/target-rule.ts) opens the conflict on its next pass.
    }
  }
}
