/**
 * Which managed callouts a note should carry, derived from current state only (so syncing twice writes
 * once): one `lithos-conflict` block per unreviewed conflict it is an end of, naming the other end, and
 * one `lithos-status` block when it is quarantined or was superseded by a conflict resolution (a person's,
 * an agent's, or the automatic newest-wins one, which says how to review it).
 */
import type { ConflictPorts } from './conflict-ports';
import type { LiveNote } from '../vault/note-indexer';
import { applyBlocks } from './callout-blocks';
import { CONFLICT_EDGE_TYPE, toConflict, type Conflict } from '../stores/conflict-edges';
import { replacedLines, replacedStatus, type ReplacedStatus } from './replaced-callout';

type CalloutPorts = Pick<ConflictPorts, 'notes' | 'memory' | 'governance'>;

export const CALLOUT_ACTOR = { kind: 'rule', id: 'callouts' } as const;

/** The key → lines the note should carry (empty when callouts are off); `replaced`: how another note replaced it (replaced-callout.ts). */
export function desiredBlocks(d: CalloutPorts, note: LiveNote, replaced: ReplacedStatus | null = null): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const id = note.nodeId;
  const conflicts = [...d.memory.edges.find({ from: id, type: CONFLICT_EDGE_TYPE }), ...d.memory.edges.find({ to: id, type: CONFLICT_EDGE_TYPE })]
    .map(toConflict)
    .sort((x, y) => x.created_at - y.created_at || (x.edge_id < y.edge_id ? -1 : 1));
  const status = statusLines(d, note, conflicts) ?? (replaced && replacedLines(replaced, replaced.by && d.governance.readersMaySee(note, replaced.by) ? linkTo(replaced.by) : null));
  if (status) out.set('status', status);
  for (const c of conflicts) {
    if (c.state !== 'unreviewed' || out.has(`conflict ${c.edge_id}`)) continue;
    const other = d.notes.note(c.a === id ? c.b : c.a);
    if (!other || other.nodeId === id || (other.nodeId !== c.a && other.nodeId !== c.b)) continue; // the other end is gone
    const named = d.governance.readersMaySee(note, other);
    // Two decisions on one target, one of them hidden from this note's readers: only the person's side says so.
    if (!named && c.evidence.rule === 'target') continue;
    out.set(`conflict ${c.edge_id}`, conflictLines(c, note, other, named));
  }
  return out;
}

/** The plugin registers this action (registerObsidianProtocolHandler), so the callout's link opens its resolve dialog. */
export const RESOLVE_ACTION = 'lithos-resolve';
const RESOLVE_URI = `obsidian://${RESOLVE_ACTION}`;

/** `named`: whether this note's readers may learn of the other note (governance/audience.ts); if not, it is neither linked nor quoted. */
function conflictLines(c: Conflict, note: LiveNote, other: LiveNote, named: boolean): string[] {
  const lines = [`[!lithos-conflict] Contradicts ${named ? linkTo(other) : NARROWER}`];
  const f = c.evidence.findings?.[0];
  // Who opened it is withheld too when the other note is: it would tell which agent can see that note.
  const opener = c.provenance_type === 'human' ? 'a person' : named ? c.provenance_actor : 'an agent';
  const found = c.provenance_type === 'rule' && f ? `found by the \`${f.rule}\` rule about "${oneLine(f.subject)}"` : `opened by ${opener}`;
  lines.push(`State: **unreviewed**, ${found}.`);
  if (f) {
    const [mine, theirs] = c.a === note.nodeId ? [f.a_sentence, f.b_sentence] : [f.b_sentence, f.a_sentence];
    lines.push(named ? `This note: "${oneLine(mine)}". The other: "${oneLine(theirs)}".` : `This note: "${oneLine(mine)}".`);
  } else if (typeof c.evidence.summary === 'string' && named) {
    lines.push(`Why: ${oneLine(c.evidence.summary)}`);
  }
  lines.push(
    `Resolve: [in Obsidian](${RESOLVE_URI}?edge=${encodeURIComponent(c.edge_id)}) (the Lithos plugin's resolve dialog), \`lithos conflicts resolve <vault> ${c.edge_id} superseded|refuted|accepted_dual|merged --winner <note id>\`, or the agent tool \`lithos_conflict_resolve\` with edge_id \`${c.edge_id}\`.`,
  );
  return lines;
}

function statusLines(d: CalloutPorts, note: LiveNote, conflicts: readonly Conflict[]): string[] | null {
  if (note.cached.meta.status === 'quarantined') {
    return [
      '[!lithos-status] Quarantined',
      'Marked misleading too often: hidden from default retrieval until reviewed. Set `status: active` in the frontmatter once it is corrected.',
    ];
  }
  for (const c of conflicts) {
    const r = c.evidence.resolution;
    if (c.state !== 'superseded' || !r || r.loser_id !== note.nodeId || !r.winner_id) continue;
    const winner = d.notes.note(r.winner_id);
    if (!winner || winner.nodeId !== r.winner_id) continue;
    const head = `[!lithos-status] Superseded by ${d.governance.readersMaySee(note, winner) ? linkTo(winner) : NARROWER}`;
    if (!r.automatic) return [head, `Archived when conflict \`${c.edge_id}\` was resolved (${r.at.slice(0, 10)}, by ${r.resolver}).`];
    // Newest wins (precedence.ts): nothing was archived, and the settlement is open to review.
    return [
      head,
      `Newest wins between status-like notes: settled automatically on ${r.at.slice(0, 10)}; this note ranks below the newer one and is not archived.`,
      `Review: [in Obsidian](${RESOLVE_URI}?edge=${encodeURIComponent(c.edge_id)}), or \`lithos conflicts resolve <vault> ${c.edge_id} superseded --winner ${r.winner_id}\` to confirm (archives this note), \`accepted_dual\` if both stand, \`superseded --winner ${note.nodeId}\` if this one is right.`,
    ];
  }
  return null;
}

/**
 * When some agent that may read this note may not read the other one (narrower scope, another project
 * namespace, a hidden folder), the callout says so instead of naming or quoting it: the person finds it
 * in the conflicts panel or `lithos conflicts`.
 */
const NARROWER = 'a note with narrower access (see `lithos conflicts`)';

/** A wiki-link to the other note, by path so it is unambiguous. */
function linkTo(other: LiveNote): string {
  const o = other.cached.meta;
  const target = other.path.replace(/\.md$/i, '');
  const title = o.title.replace(/[[\]|]/g, ' ').trim();
  return title && title !== target ? `[[${target}|${title}]]` : `[[${target}]]`;
}

function oneLine(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 160 ? `${t.slice(0, 157)}…` : t;
}

/**
 * Brings one note's managed blocks in line with current state; writes only when they differ. With
 * callouts switched off the desired set is empty, so existing blocks are removed. Returns whether the
 * note was written.
 */
export async function syncCallouts(d: CalloutPorts, ref: string, enabled: boolean): Promise<boolean> {
  const note = d.notes.note(ref);
  if (!note) return false;
  const desired = enabled ? desiredBlocks(d, note, await replacedStatus(d, note)) : new Map<string, string[]>();
  return d.notes.editNoteText(note.path, (text) => applyBlocks(text, desired), CALLOUT_ACTOR);
}
