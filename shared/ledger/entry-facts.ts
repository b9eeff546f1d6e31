/**
 * What the ledger reads of a note's frontmatter: its target, state, stable ID, what superseded it and the
 * intent it was written with. The Markdown is the truth: these are read from the file (model/ledger.ts
 * names the fields), remembered per indexed version of the note, never stored elsewhere.
 */
import { INTENT_TYPES, LEDGER_FIELDS, LEDGER_STATES, type IntentType } from '../model/ledger';
import type { NotesService } from '../vault/notes-service';
import type { LiveNote } from '../vault/note-indexer';

/** The frontmatter field a decision's resolution intent is recorded in (its intent history, with `supersedes`). */
export const INTENT_FIELD = 'intent';

/** A resolution intent: what a new decision does to the decisions it replaces (LedgerMind). */
export interface Intent {
  type: IntentType;
  /** The replaced notes: ledger IDs, note ids, paths or titles. */
  replaces: string[];
}

export interface LedgerFacts {
  /** The target as written (trimmed), null when none. */
  target: string | null;
  /** The kind's state as written, lower case; null when absent. */
  state: string | null;
  ledgerId: string | null;
  supersededBy: string | null;
  intent: Intent | null;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : null);

export function factsFromFrontmatter(fm: Record<string, unknown>): LedgerFacts {
  const raw = fm[INTENT_FIELD];
  let intent: Intent | null = null;
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    const r = raw as Record<string, unknown>;
    const type = text(r.type)?.toLowerCase();
    if (type && (INTENT_TYPES as readonly string[]).includes(type)) {
      const list = Array.isArray(r.replaces) ? r.replaces : r.replaces === undefined ? [] : [r.replaces];
      intent = { type: type as IntentType, replaces: list.map(text).filter((x): x is string => x !== null) };
    }
  }
  return {
    target: text(fm[LEDGER_FIELDS.target]),
    state: text(fm[LEDGER_FIELDS.state])?.toLowerCase() ?? null,
    ledgerId: text(fm[LEDGER_FIELDS.ledgerId]),
    supersededBy: text(fm[LEDGER_FIELDS.supersededBy]),
    intent,
  };
}

const seen = new WeakMap<LiveNote, { hash: string; facts: LedgerFacts }>();

/** A note's ledger facts, read from its file once per indexed version. */
export async function ledgerFacts(notes: Pick<NotesService, 'parse'>, note: LiveNote): Promise<LedgerFacts> {
  const hit = seen.get(note);
  if (hit && hit.hash === note.contentHash) return hit.facts;
  const facts = factsFromFrontmatter((await notes.parse(note.path)).frontmatter);
  seen.set(note, { hash: note.contentHash, facts });
  return facts;
}

export const isDecision = (note: LiveNote): boolean => note.cached.meta.note_type === 'decision';

/**
 * A decision is active while its state is `active` (or not written: a new entry's state) and its note is
 * active: a decision archived, quarantined or superseded as a note no longer holds its target.
 */
export function isActiveDecision(note: LiveNote, facts: LedgerFacts): boolean {
  return isDecision(note) && (facts.state === null || facts.state === LEDGER_STATES.decision[0]) && note.cached.meta.status === 'active';
}

/** How messages name an entry: its ledger ID when it has one, else its note id; then its title and path. */
export function entryName(note: LiveNote, facts: Pick<LedgerFacts, 'ledgerId'>): string {
  return `${facts.ledgerId ?? note.nodeId} "${note.cached.meta.title}" (${note.path})`;
}

/** The id a reference to an entry uses: its ledger ID when it has one, else its note id. */
export const entryRef = (note: LiveNote, facts: Pick<LedgerFacts, 'ledgerId'>): string => facts.ledgerId ?? note.nodeId;
