import type { NoteHeading, NoteLink, NoteMeta, NoteProblem } from '../model/types';

/**
 * What the engine keeps per note in the cache store's `meta` JSON column: everything needed to rebuild the
 * search index, the link resolver and `doctor` at start without re-reading the Markdown.
 */
export interface CachedNoteMeta {
  meta: NoteMeta;
  headings: NoteHeading[];
  links: NoteLink[];
  problems: NoteProblem[];
  hasFrontmatter: boolean;
}

export function encodeCachedMeta(m: CachedNoteMeta): string {
  return JSON.stringify(m);
}

/** Returns null for a row written by an incompatible version or damaged: the caller re-reads the note. */
export function decodeCachedMeta(json: string): CachedNoteMeta | null {
  try {
    const v = JSON.parse(json) as Partial<CachedNoteMeta>;
    if (!v || typeof v !== 'object' || !v.meta || !Array.isArray(v.links) || !Array.isArray(v.problems)) return null;
    return { meta: v.meta, headings: v.headings ?? [], links: v.links, problems: v.problems, hasFrontmatter: !!v.hasFrontmatter };
  } catch {
    return null;
  }
}
