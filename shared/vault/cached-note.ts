import type { NoteHeading, NoteLink, NoteMeta, NoteProblem } from '../model/types';
import { isLedgerKind } from '../model/ledger';
import { deterministicFrameExtractor, FRAME_SLOTS, type NoteFrame } from '../model/frames';

/**
 * What the engine keeps per note in the cache store's `meta` column: everything needed to rebuild the
 * search index, the link resolver, `doctor` and the analogy scout's frames at start without re-reading
 * the Markdown.
 */
export interface CachedNoteMeta {
  meta: NoteMeta;
  headings: NoteHeading[];
  links: NoteLink[];
  problems: NoteProblem[];
  hasFrontmatter: boolean;
  /** The note's structural frame (model/frames.ts), extracted when it was indexed; null when it has none. */
  frame: NoteFrame | null;
  /** The frontmatter `ledger_id` as written (model/ledger-id.ts ledgerIdOf); null or absent when it has none. */
  ledgerId?: string | null;
}

/**
 * The extractor whose frames a row holds: a row of another one (or of a Lithos that stored no frames)
 * decodes as null, so its note is indexed again rather than ranked with frames of two extractors.
 */
// `+ledger-1`: rows from before ledger IDs lack `ledgerId` and the plain ID references among their links.
export const CACHED_FORMAT = `${deterministicFrameExtractor.version}+ledger-1`;
const FRAMES = CACHED_FORMAT;

/**
 * Three JSON texts on one line each: everything but the links and the frame, then the links, then the
 * frame. A warm start parses only the first; the links (nearly half the text at 10k notes) are parsed when
 * the link graph first asks, the frame when the analogy scout does. JSON never holds a raw newline, so
 * newlines split them.
 */
export function encodeCachedMeta(m: CachedNoteMeta): string {
  const { meta, headings, problems, hasFrontmatter } = m;
  const ledgerId = m.ledgerId ?? null;
  return `${JSON.stringify({ meta, headings, problems, hasFrontmatter, ...(ledgerId === null ? {} : { ledgerId }), frames: FRAMES })}\n${JSON.stringify(m.links)}\n${JSON.stringify(m.frame)}`;
}

type Head = Partial<CachedNoteMeta> & { frames?: unknown };

/** The first line's fields, or null when they are not a cached note of this format. */
function headOf(v: Head | null): CachedNoteMeta | null {
  if (!v || typeof v !== 'object' || !v.meta || !Array.isArray(v.problems) || v.frames !== FRAMES) return null;
  // A ledger note cached before its ledger fields were read (and its kind rules judged) is indexed again.
  if (isLedgerKind(v.meta.note_type) && v.meta.ledger === undefined) return null;
  return { meta: v.meta, headings: v.headings ?? [], problems: v.problems, hasFrontmatter: !!v.hasFrontmatter, ...(typeof v.ledgerId === 'string' ? { ledgerId: v.ledgerId } : {}) } as CachedNoteMeta;
}

/** Where a decoded row keeps its links and frame: their source (a string or UTF-8 bytes) until first read. */
interface LazyParts {
  linksSrc: string | Uint8Array | NoteLink[];
  links: NoteLink[] | null;
  frameSrc: string | Uint8Array | null;
  frame: NoteFrame | null | undefined;
}

const LAZY = Symbol('lazyParts');
type Decoded = CachedNoteMeta & { [LAZY]: LazyParts };

// One pair of accessors shared by every decoded row (they find their row's parts through `this`): per-row
// closures cost ~0.4 KB a note, 4 MB of heap at 10k notes.
const LAZY_PROPERTIES: PropertyDescriptorMap = {
  links: {
    enumerable: true,
    get(this: Decoded): NoteLink[] {
      const p = this[LAZY];
      return (p.links ??= Array.isArray(p.linksSrc) ? p.linksSrc : parseLinks(text(p.linksSrc)));
    },
    set(this: Decoded, value: NoteLink[]) {
      this[LAZY].links = value;
    },
  },
  frame: {
    enumerable: true,
    get(this: Decoded): NoteFrame | null {
      const p = this[LAZY];
      if (p.frame === undefined) p.frame = p.frameSrc === null ? null : parseFrameJson(text(p.frameSrc));
      return p.frame;
    },
    set(this: Decoded, value: NoteFrame | null) {
      this[LAZY].frame = value;
    },
  },
};

function text(src: string | Uint8Array): string {
  return typeof src === 'string' ? src : utf8.decode(src);
}

/** Links and frame, each parsed on first read and replaceable. */
function withLazyParts(out: CachedNoteMeta, linksSrc: LazyParts['linksSrc'], frameSrc: LazyParts['frameSrc']): CachedNoteMeta {
  const parts: LazyParts = { linksSrc, links: null, frameSrc, frame: undefined };
  Object.defineProperty(out, LAZY, { value: parts });
  return Object.defineProperties(out, LAZY_PROPERTIES);
}

/**
 * The note's links as `cached.links` reads them, without keeping them parsed when they were not yet: the
 * backlinks read every note's links once at open, and holding 50,000 parsed links from then on (10k notes)
 * would cost the warm process memory most sessions never use.
 */
export function peekLinks(cached: CachedNoteMeta): readonly NoteLink[] {
  const p = (cached as Partial<Decoded>)[LAZY];
  if (!p || p.links) return cached.links;
  return Array.isArray(p.linksSrc) ? p.linksSrc : parseLinks(text(p.linksSrc));
}

/** Returns null for a row written by an incompatible version or damaged: the caller re-reads the note. */
export function decodeCachedMeta(json: string): CachedNoteMeta | null {
  try {
    const cut = json.indexOf('\n');
    const v = JSON.parse(cut < 0 ? json : json.slice(0, cut)) as Head;
    const out = headOf(v);
    if (!out) return null;
    if (cut < 0) {
      // One JSON text with every field inside.
      if (!Array.isArray(v.links)) return null;
      return withLazyParts(out, v.links, v.frame === undefined ? null : JSON.stringify(v.frame));
    }
    const cut2 = json.indexOf('\n', cut + 1);
    return withLazyParts(out, cut2 < 0 ? json.slice(cut + 1) : json.slice(cut + 1, cut2), cut2 < 0 ? null : json.slice(cut2 + 1));
  } catch {
    return null;
  }
}

const utf8 = new TextDecoder();
const NEWLINE = 0x0a;

/**
 * decodeCachedMeta over the stored UTF-8: only the first line is decoded and parsed; the links and the
 * frame stay bytes (views, never modified) until asked for, so no whole JSON string is kept per note.
 */
export function decodeCachedMetaBytes(bytes: Uint8Array): CachedNoteMeta | null {
  const cut = bytes.indexOf(NEWLINE);
  if (cut < 0) return decodeCachedMeta(utf8.decode(bytes));
  try {
    const out = headOf(JSON.parse(utf8.decode(bytes.subarray(0, cut))) as Head);
    if (!out) return null;
    const rest = bytes.subarray(cut + 1);
    const cut2 = rest.indexOf(NEWLINE);
    return withLazyParts(out, cut2 < 0 ? rest : rest.subarray(0, cut2), cut2 < 0 ? null : rest.subarray(cut2 + 1));
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

/** Likewise the frame: one that does not parse, or is not a frame's shape, leaves the note without one. */
function parseFrameJson(json: string): NoteFrame | null {
  try {
    return frameOf(JSON.parse(json));
  } catch {
    return null;
  }
}

/** As written (phrases were cleaned and capped at extraction), if it has a frame's shape. */
function frameOf(v: unknown): NoteFrame | null {
  if (!v || typeof v !== 'object') return null;
  const f = v as Record<string, unknown>;
  for (const s of FRAME_SLOTS) if (!Array.isArray(f[s]) || !(f[s] as unknown[]).every((p) => typeof p === 'string')) return null;
  return f as unknown as NoteFrame;
}
