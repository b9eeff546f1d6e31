/**
 * What a write replaces (docs/ledger.md → Targets and intents), worked out before anything is written:
 * the notes its `supersedes` and its decision's resolution intent name (each must be a note the caller
 * sees), and whether its decision's target already has an active decision the write does not replace
 * (then it is a `conflict`, naming that decision and how to proceed). The caller's gate is `visible`:
 * a decision it may not see is never named; it is returned apart (`hidden`) for a conflict the person settles.
 */
import { LithosError } from '../errors';
import { isLedgerKind, type LEDGER_STATES, type IntentType } from '../model/ledger';
import type { NoteStatus } from '../model/types';
import type { NotesService } from '../vault/notes-service';
import type { LiveNote } from '../vault/note-indexer';
import { entryName, entryRef, isActiveDecision, isDecision, ledgerFacts, type Intent, type LedgerFacts } from './entry-facts';
import { activeOn, aliasMap, canonicalTarget, decisionEntries, sameTarget, type RegistryPorts } from './target-registry';

type Visible = (n: LiveNote) => boolean;

/** The state a replaced decision takes, per intent (`supersedes` alone means supersede). */
export const INTENT_STATE: Record<IntentType, (typeof LEDGER_STATES.decision)[number]> = { supersede: 'superseded', deprecate: 'deprecated', abort: 'aborted' };
/** The note status a replaced note takes: out of the active knowledge either way; `superseded` says by what. */
export const INTENT_STATUS: Record<IntentType, NoteStatus> = { supersede: 'superseded', deprecate: 'archived', abort: 'archived' };

export interface Replaced {
  note: LiveNote;
  facts: LedgerFacts;
  type: IntentType;
}

export interface LedgerWriteInput {
  /** The note before the write (null: created). */
  before: LiveNote | null;
  /** The note's type and status after the write. */
  noteType: string;
  status: NoteStatus;
  /** The decision's target after the write (null: none). */
  target: string | null;
  /** `supersedes` as the write gives it (absent: unchanged). */
  supersedes?: readonly string[];
  intent?: Intent;
}

export interface LedgerWritePlan {
  replaced: Replaced[];
  /** The note's `supersedes` to write (resolved note ids, those it had kept), when the write changes it. */
  supersedes?: string[];
  /** The intent to record in the note's frontmatter, its replaced entries named by ledger ID or id. */
  intent?: Intent;
  /** Active decisions on the target that the caller may not see (not named to it; a conflict for the person). */
  hidden: LiveNote[];
  /** The target's key (aliases applied), null when the note is not a decision with a target. */
  target: string | null;
}

/**
 * The note a reference names among those the caller sees: a ledger entry's ID (`D012`, any case; the ID scheme
 * is the allocator's), else its id, path, title or alias.
 */
export async function findEntry(d: { notes: Pick<NotesService, 'notes' | 'parse' | 'note'> }, ref: string, visible: Visible): Promise<LiveNote | null> {
  const r = ref.trim();
  if (r.length <= 64 && !r.includes('/')) {
    for (const n of d.notes.notes()) {
      if (!visible(n) || !isLedgerKind(n.cached.meta.note_type)) continue;
      if ((await ledgerFacts(d.notes, n)).ledgerId?.toUpperCase() === r.toUpperCase()) return n;
    }
  }
  const n = d.notes.note(r);
  return n && visible(n) ? n : null;
}

export async function planLedgerWrite(d: RegistryPorts & { notes: Pick<NotesService, 'notes' | 'parse' | 'note'> }, w: LedgerWriteInput, visible: Visible): Promise<LedgerWritePlan> {
  const decision = w.noteType === 'decision';
  if (w.intent && !decision) {
    throw new LithosError('invalid_argument', 'intent is for decisions (note_type "decision"); another note replaces notes with supersedes.', { field: 'intent' });
  }
  const self = w.before?.nodeId ?? null;
  const replaced = new Map<string, Replaced>();
  const resolved = async (refs: readonly string[], type: IntentType, field: string): Promise<string[]> => {
    const ids: string[] = [];
    for (const ref of refs) {
      const note = await findEntry(d, ref, visible);
      if (!note) {
        // The same answer for a note that does not exist and one the caller may not see.
        throw new LithosError('not_found', `${field} names "${ref}": no note you can see has that ledger ID, id, path or title. Nothing was written.`, { field, ref });
      }
      if (note.nodeId === self) throw new LithosError('invalid_argument', `${field} names this note itself ("${ref}").`, { field, ref });
      ids.push(note.nodeId);
      const facts = await ledgerFacts(d.notes, note);
      if (isDecision(note) ? !isActiveDecision(note, facts) : note.cached.meta.status === 'superseded') {
        const already = self !== null && (w.before!.cached.meta.supersedes.includes(note.nodeId) || facts.supersededBy === self);
        if (already) continue; // replaced by this very note before: nothing to do again
        if (field === 'intent.replaces' || isDecision(note)) {
          const state = facts.state ?? note.cached.meta.status;
          throw new LithosError('conflict', `${field} names ${entryName(note, facts)}, which is already ${state}${facts.supersededBy ? ` (by ${facts.supersededBy})` : ''}: only an active decision can be replaced.`, {
            field,
            ref,
            state,
          });
        }
        continue;
      }
      // The intent is resolved first: a note both name takes the intent's effect.
      if (!replaced.has(note.nodeId)) replaced.set(note.nodeId, { note, facts, type });
    }
    return ids;
  };
  const intentIds = w.intent ? await resolved(w.intent.replaces, w.intent.type, 'intent.replaces') : [];
  const supersedeIds = w.supersedes ? await resolved(w.supersedes, 'supersede', 'supersedes') : [];

  const plan: LedgerWritePlan = { replaced: [...replaced.values()], hidden: [], target: null };
  // The note lists every note it replaces by id (a rename never breaks it); a superseding intent adds its own.
  const kept = w.supersedes !== undefined ? [] : (w.before?.cached.meta.supersedes ?? []);
  const listed = [...new Set([...kept, ...supersedeIds, ...(w.intent?.type === 'supersede' ? intentIds : [])])];
  if (w.supersedes !== undefined || (w.intent?.type === 'supersede' && intentIds.length > 0)) plan.supersedes = listed;
  if (w.intent) {
    const names = await Promise.all(intentIds.map(async (id) => {
      const n = d.notes.note(id)!;
      return entryRef(n, await ledgerFacts(d.notes, n));
    }));
    plan.intent = { type: w.intent.type, replaces: names };
  }

  if (!decision || w.target === null || w.status !== 'active') return plan;
  const aliases = aliasMap(d);
  const key = canonicalTarget(w.target, aliases);
  if (key === '') throw new LithosError('invalid_argument', `target "${w.target}" has no letters or digits; name what the decision is about (e.g. "auth-service/session-store").`, { field: 'target' });
  plan.target = key;
  if (w.before) {
    // A decision that already held this target (an edit of its text) is not a new claim on it.
    const bf = await ledgerFacts(d.notes, w.before);
    if (isActiveDecision(w.before, bf) && bf.target !== null && sameTarget(canonicalTarget(bf.target, aliases), key)) return plan;
  }
  const others = activeOn(await decisionEntries(d, () => true), key).filter((e) => e.note.nodeId !== self && !replaced.has(e.note.nodeId));
  const seen = others.filter((e) => visible(e.note));
  // Shown as the target's visible decisions spell it (a hidden one's spelling is not the writer's to learn).
  plan.target = seen[0]?.target ?? key;
  plan.hidden = others.filter((e) => !visible(e.note)).map((e) => e.note);
  if (seen.length > 0) {
    const refs = seen.map((e) => entryRef(e.note, e.facts));
    const names = seen.map((e) => entryName(e.note, e.facts)).join('; ');
    throw new LithosError(
      'conflict',
      `Target "${plan.target}" already has ${seen.length === 1 ? 'an active decision' : `${seen.length} active decisions`}: ${names}. ` +
        `To replace ${seen.length === 1 ? 'it' : 'them'}, write again with intent: {type: "supersede" (or "deprecate", "abort"), replaces: ${JSON.stringify(refs)}}; ` +
        'if this decision is about something else, give it another target (lithos_targets suggests the existing ones).',
      {
        target: plan.target,
        active: seen.map((e) => ({ ref: entryRef(e.note, e.facts), id: e.note.nodeId, ledger_id: e.facts.ledgerId, title: e.note.cached.meta.title, path: e.note.path })),
      },
    );
  }
  return plan;
}
