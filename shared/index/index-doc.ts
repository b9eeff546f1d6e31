import { LithosError } from '../errors';
import type { Chunk } from './chunker';
import { normalizeExact } from './tokenizer';

/** A note as the search index sees it (built by the engine from the parsed note and its chunks). */
export interface IndexDoc {
  id: string;
  path: string;
  title: string;
  aliases: string[];
  tags: string[];
  headings: string[];
  namespace: string;
  note_type: string;
  status: string;
  access_scope: string;
  updated_at: number;
  chunks: Chunk[];
}

const utf8 = new TextDecoder();

/**
 * A chunk whose text stays UTF-8 bytes until it is read: a warm start loads every note's chunks from the
 * cache, but a search reads only those of the notes it shows (snippets). Frozen, so the index keeps the
 * object itself rather than a copy; `bytes` must never change (the cache never rewrites them in place).
 */
export class StoredTextChunk implements Chunk {
  constructor(
    readonly index: number,
    readonly heading: string | null,
    private readonly bytes: Uint8Array,
    private readonly start: number,
    private readonly end: number,
  ) {
    Object.freeze(this);
  }

  get text(): string {
    return utf8.decode(this.bytes.subarray(this.start, this.end));
  }
}

export function assertIndexDoc(doc: IndexDoc): void {
  if (!doc || typeof doc.id !== 'string' || doc.id === '') {
    throw new LithosError('invalid_argument', 'An indexed note needs a non-empty string id.');
  }
  if (!Array.isArray(doc.chunks) || doc.chunks.some((c) => !(c instanceof StoredTextChunk) && typeof c?.text !== 'string')) {
    throw new LithosError('invalid_argument', `Note ${doc.id} has malformed chunks.`, { id: doc.id });
  }
}

/** The index's own copy: callers may keep mutating theirs. */
export function copyDoc(doc: IndexDoc): IndexDoc {
  return {
    id: doc.id,
    path: String(doc.path ?? ''),
    title: String(doc.title ?? ''),
    aliases: [...(doc.aliases ?? [])].map(String),
    tags: [...(doc.tags ?? [])].map(String),
    headings: [...(doc.headings ?? [])].map(String),
    namespace: String(doc.namespace ?? ''),
    note_type: String(doc.note_type ?? ''),
    status: String(doc.status ?? ''),
    access_scope: String(doc.access_scope ?? ''),
    updated_at: Number(doc.updated_at ?? 0),
    // Positions, not caller-supplied numbers, index chunks: vectors are matched to chunks by position.
    chunks: doc.chunks.map((c, i) => (c instanceof StoredTextChunk && c.index === i ? c : { index: i, text: c.text, heading: c.heading ?? null })),
  };
}

/** Normalised title and aliases: a query equal to one of them is an exact match. */
export function exactKeys(doc: IndexDoc): string[] {
  return [...new Set([doc.title, ...doc.aliases].map(normalizeExact).filter((key) => key !== ''))];
}

/**
 * The one BM25 field. Headings normally live in the chunk texts (the chunker keeps heading lines); any
 * heading not found there (hand-built chunks, title-only notes) is added so it stays searchable.
 */
export function lexicalText(doc: IndexDoc): string {
  const body = doc.chunks.map((c) => c.text).join('\n');
  const headings = doc.headings.filter((h) => h && !body.includes(h));
  return [doc.title, ...doc.aliases, ...doc.tags, ...headings, body].join('\n');
}
