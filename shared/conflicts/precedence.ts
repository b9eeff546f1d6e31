/**
 * Contradiction precedence (model/note-types.ts, docs/contradictions.md → Precedence): between two notes
 * whose precedence is `newest_wins` (task records, notes tagged `status`), the later one is the truth, so
 * ConflictService settles their conflict on its own as `superseded` with the newer note standing. Every
 * other pair stays for a person or an agent to review.
 */
import type { LiveNote } from '../vault/note-indexer';
import { noteTimeMs } from '../vault/note-indexer';
import { contradictionPrecedence } from '../model/note-types';
import type { ConflictActor } from '../stores/conflict-edges';

/** The resolver named on an automatic resolution (its record says `automatic: true`). */
export const PRECEDENCE_ACTOR: ConflictActor = { kind: 'rule', id: 'rule:newest_wins' };

const precedence = (n: LiveNote) => contradictionPrecedence({ note_type: n.cached.meta.note_type, tags: n.cached.meta.tags });

/**
 * The note that stands when both notes go by newest_wins: the one written later (frontmatter `updated_at`,
 * else `created_at`, else the file's time). null when either is evidence to weigh, or both carry the same time.
 */
export function newestWinner(a: LiveNote, b: LiveNote): LiveNote | null {
  if (precedence(a) !== 'newest_wins' || precedence(b) !== 'newest_wins') return null;
  const ta = noteTimeMs(a);
  const tb = noteTimeMs(b);
  return ta === tb ? null : ta > tb ? a : b;
}
