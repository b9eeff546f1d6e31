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

/**
 * Two JSON texts on one line each: everything but the links, then the links. A warm start parses only the
 * first (the links, nearly half the text at 10k notes, are parsed when the link graph first asks). JSON
 * never holds a raw newline, so the first one splits them.
 */
export function encodeCachedMeta(m: CachedNoteMeta): string {
  const { meta, headings, problems, hasFrontmatter } = m;
  return `${JSON.stringify({ meta, headings, problems, hasFrontmatter })}\n${JSON.stringify(m.links)}`;
}

/** Returns null for a row written by an incompatible version or damaged: the caller re-reads the note. */
export function decodeCachedMeta(json: string): CachedNoteMeta | null {
  try {
    const cut = json.indexOf('\n');
    const v = JSON.parse(cut < 0 ? json : json.slice(0, cut)) as Partial<CachedNoteMeta>;
    if (!v || typeof v !== 'object' || !v.meta || !Array.isArray(v.problems)) return null;
    if (cut < 0 && !Array.isArray(v.links)) return null;
    const out = { meta: v.meta, headings: v.headings ?? [], problems: v.problems, hasFrontmatter: !!v.hasFrontmatter } as CachedNoteMeta;
    let links: NoteLink[] | null = cut < 0 ? (v.links ?? []) : null;
    Object.defineProperty(out, 'links', {
      enumerable: true,
      get: () => (links ??= parseLinks(json.slice(cut + 1))),
      set: (value: NoteLink[]) => (links = value),
    });
    return out;
  } catch {
    return null;
  }
}

const utf8 = new TextDecoder();
const NEWLINE = 0x0a;

/**
 * decodeCachedMeta over the stored UTF-8: only the first line is decoded and parsed; the links stay bytes
 * (a view, never modified) until the link graph asks, so no whole JSON string is kept per note.
 */
export function decodeCachedMetaBytes(bytes: Uint8Array): CachedNoteMeta | null {
  const cut = bytes.indexOf(NEWLINE);
  if (cut < 0) return decodeCachedMeta(utf8.decode(bytes));
  try {
    const v = JSON.parse(utf8.decode(bytes.subarray(0, cut))) as Partial<CachedNoteMeta>;
    if (!v || typeof v !== 'object' || !v.meta || !Array.isArray(v.problems)) return null;
    const out = { meta: v.meta, headings: v.headings ?? [], problems: v.problems, hasFrontmatter: !!v.hasFrontmatter } as CachedNoteMeta;
    const rest = bytes.subarray(cut + 1);
    let links: NoteLink[] | null = null;
    Object.defineProperty(out, 'links', {
      enumerable: true,
      get: () => (links ??= parseLinks(utf8.decode(rest))),
      set: (value: NoteLink[]) => (links = value),
    });
    return out;
  } catch {
    return null;
  }
}

/** The links part was written by encodeCachedMeta into a checksummed file; should it not parse, the note shows no links. */
function parseLinks(json: string): NoteLink[] {
  try {
    const links = JSON.parse(json) as unknown;
    return Array.isArray(links) ? (links as NoteLink[]) : [];
  } catch {
    return [];
  }
}
