/**
 * Pages the engine writes about the memory itself — the graveyard (a retired entry's full text, read through its
 * stub), the person's briefing and timeline (digests of other notes) — are left out of retrieval, search and
 * similar notes: they would crowd out the notes they are made of. They stay readable by path like any note.
 */
import { BRIEFING_TAG } from './briefing';
import { isGraveyardPath } from './graveyard';
import { TIMELINE_TAG } from './timeline';

const DIGEST_TAGS: readonly string[] = [BRIEFING_TAG, TIMELINE_TAG];

export function isGeneratedPage(note: { path: string; tags: readonly string[] }): boolean {
  return isGraveyardPath(note.path) || note.tags.some((t) => DIGEST_TAGS.includes(t.toLowerCase()));
}
