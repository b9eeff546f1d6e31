/**
 * The status callout of a note another note replaced (docs/ledger.md → Targets and intents): a decision
 * superseded, deprecated or aborted by a resolution intent, or any note a later note `supersedes`. Derived
 * from the note's frontmatter (`state`, `status`, `superseded_by`) like every managed callout, so a person who
 * sets the note active again sees it go.
 */
import type { LiveNote } from '../vault/note-indexer';
import { isDecision, ledgerFacts } from '../ledger/entry-facts';
import { findEntry } from '../ledger/replacements';
import type { ConflictPorts } from './conflict-ports';

export interface ReplacedStatus {
  /** superseded, deprecated or aborted. */
  state: string;
  /** The note that replaced it, when it is still there. */
  by: LiveNote | null;
}

const REPLACED_STATES = ['superseded', 'deprecated', 'aborted'];

/** How the note was replaced, or null when it was not. Reads the file only for a decision or a note out of the active set. */
export async function replacedStatus(d: Pick<ConflictPorts, 'notes'>, note: LiveNote): Promise<ReplacedStatus | null> {
  const status = note.cached.meta.status;
  if (!isDecision(note) && status !== 'superseded') return null;
  if (status === 'active' && !isDecision(note)) return null;
  const facts = await ledgerFacts(d.notes, note);
  const state = isDecision(note) ? facts.state : status;
  if (state === null || !REPLACED_STATES.includes(state)) return null;
  const by =
    (facts.supersededBy ? await findEntry(d, facts.supersededBy, () => true) : null) ??
    d.notes.notes().find((n) => n.nodeId !== note.nodeId && n.cached.meta.supersedes.includes(note.nodeId)) ??
    null;
  return { state, by };
}

/** The callout's lines; `link` is the replacing note as the callout may name it. */
export function replacedLines(r: ReplacedStatus, link: string | null): string[] {
  const verb = r.state.charAt(0).toUpperCase() + r.state.slice(1);
  return [
    `[!lithos-status] ${verb}${link ? ` by ${link}` : ''}`,
    'Kept as history: retrieval and listings treat it like an archived note. Set `status: active` (and `state: active`) in the frontmatter to bring it back.',
  ];
}
