import type { CacheStore, CachedChunk, NodeChunks } from '../stores/cache-store';
import { StoredTextChunk } from '../index/index-doc';
import type { SearchIndex, IndexDoc } from '../index/search-index';
import type { PackedVectors } from '../index/vector-store';
import type { TermBag } from '../index/term-bags';
import type { Chunk } from '../index/chunker';
import { chunkBody, embeddingText } from '../index/chunker';
import type { LinkResolver } from '../model/resolve';
import type { Embedder, VaultFileStat, Clock } from '../ports';
import type { NoteMeta, NoteProblem, ParsedNote } from '../model/types';
import { extractFrame, type NoteFrame } from '../model/frames';
import { storedForm } from '../stores/vector-bytes';
import { decodeCachedMetaBytes, encodeCachedMeta, type CachedNoteMeta } from './cached-note';
import { TermBagSync } from './term-bag-sync';
import { NoteWords } from './note-words';
import { macrotask } from '../stores/yield-to-host';
import { ledgerIdOf, parseLedgerId, shortLedgerId } from '../model/ledger-id';

/** What the engine holds in memory per live note (path-keyed), mirrored in the cache store. */
export interface LiveNote {
  nodeId: string;
  path: string;
  contentHash: string;
  mtime: number;
  size: number;
  cached: CachedNoteMeta;
  chunkCount: number;
}

/** Notes whose term bags loadFromCache checks per turn of the host's event loop. */
const SAVE_SLICE = 2000;

/** The cache's chunks as index chunks whose text is decoded only when read (StoredTextChunk). */
function storedChunks(c: Readonly<NodeChunks> | null): Chunk[] {
  if (!c) return [];
  const out: Chunk[] = [];
  for (let i = 0; i < c.indexes.length; i++) out.push(new StoredTextChunk(i, c.headings[i], c.bytes, i > 0 ? c.ends[i - 1] : 0, c.ends[i]));
  return out;
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

/**
 * The note's frame, read from its text exactly as the search index will hold it (chunk texts as the cache
 * stores them, UTF-8, joined by newlines: SearchIndex.noteText), so a frame does not depend on whether the
 * note was indexed now or loaded from the cache. Extracted here, once per change of the note, so the first
 * retrieval after a start reads frames instead of extracting every note's.
 */
function frameOf(chunks: readonly Chunk[], meta: NoteMeta): NoteFrame | null {
  const text = utf8Decoder.decode(utf8Encoder.encode(chunks.map((c) => c.text).join('\n')));
  try {
    return extractFrame(text, [], { tags: meta.tags, title: meta.title, note_type: meta.note_type });
  } catch {
    return null; // a note whose text the extractor cannot read simply has no frame
  }
}

function updatedAtMs(c: CachedNoteMeta, mtime: number): number {
  const t = Date.parse(c.meta.updated_at ?? c.meta.created_at ?? '');
  return Number.isFinite(t) ? t : mtime;
}

/** When the note was last written: frontmatter `updated_at`, else `created_at`, else the file's mtime (ms). */
export function noteTimeMs(note: LiveNote): number {
  return updatedAtMs(note.cached, note.mtime);
}

function ledgerAliases(note: LiveNote, aliases: string[]): string[] {
  const id = note.cached.ledgerId;
  const p = id ? parseLedgerId(id) : null;
  return p && p.tag !== null ? [...aliases, id!, shortLedgerId(id!)] : aliases;
}

export function toIndexDoc(note: LiveNote, chunks: Chunk[]): IndexDoc {
  const m = note.cached.meta;
  return {
    id: note.nodeId,
    path: note.path,
    title: m.title,
    // A ledger entry is found by its ID, full or short, as by an alias (`lithos_search E007`).
    aliases: ledgerAliases(note, m.aliases),
    tags: m.tags,
    headings: note.cached.headings.map((h) => h.text),
    namespace: m.namespace,
    note_type: m.note_type,
    status: m.status,
    access_scope: m.access_scope,
    updated_at: updatedAtMs(note.cached, note.mtime),
    chunks,
  };
}

/**
 * Keeps the derived state of one note consistent across the cache store, the search index and the link
 * resolver. Vectors are reused when the content hash is unchanged (a rename never re-embeds).
 */
export class NoteIndexer {
  readonly byPath = new Map<string, LiveNote>();
  readonly byId = new Map<string, LiveNote>();
  /** Number of notes (re)indexed since open: lets tests prove an unchanged note costs nothing. */
  indexedCount = 0;
  /** Bumped on every add/change/remove, so derived views (the retrieval corpus's lists) know when to recompute. */
  version = 0;
  /** Tag, entity and note-type words of the notes in byId, kept as they change (the tags scout's lookup). */
  readonly words = new NoteWords(this.byId);
  private pendingAdmits: { doc: IndexDoc; vectors: Map<string, Float32Array[]> }[] | null = null;
  private readonly bags: TermBagSync;

  constructor(
    private readonly cache: CacheStore,
    private readonly index: SearchIndex,
    private readonly resolver: LinkResolver,
    private readonly embedders: () => readonly Embedder[],
    private readonly clock: Clock,
  ) {
    this.bags = new TermBagSync(cache, index);
  }

  async indexNote(parsed: ParsedNote, nodeId: string, stat: VaultFileStat, extraProblems: NoteProblem[]): Promise<LiveNote> {
    const old = this.byPath.get(parsed.path);
    if (old && old.nodeId !== nodeId) this.forget(old);
    const prevOfId = this.byId.get(nodeId);
    if (prevOfId && prevOfId.path !== parsed.path) await this.remove(prevOfId.path, { keepVectors: true });

    const fresh = chunkBody(parsed.body);
    const frame = frameOf(fresh, parsed.meta);
    const ledgerId = ledgerIdOf(parsed.frontmatter);
    const encoded = encodeCachedMeta({
      ledgerId,
      meta: { ...parsed.meta, id: parsed.meta.id ?? nodeId },
      headings: parsed.headings,
      links: parsed.links,
      problems: [...parsed.problems, ...extraProblems],
      hasFrontmatter: parsed.hasFrontmatter,
      frame,
    });
    const rows: CachedChunk[] = fresh.map((c) => ({ node_id: nodeId, chunk_index: c.index, text: c.text, heading: c.heading }));
    this.cache.putNote({ path: parsed.path, node_id: nodeId, content_hash: parsed.contentHash, mtime: stat.mtime, size: stat.size, meta: encoded, indexed_at: this.clock.now() }, rows);
    // From here on the note is held exactly as a warm start holds it: metadata decoded from the cached JSON
    // and chunk texts as the cache's UTF-8. Parsed strings are slices of the whole Markdown text, so keeping
    // them kept every note's full text alive (~60 MB more heap after a cold 10k-note index than a warm one).
    const stored = this.cache.noteRow(parsed.path);
    const cached: CachedNoteMeta = (stored && decodeCachedMetaBytes(stored.meta)) ?? {
      meta: { ...parsed.meta, id: parsed.meta.id ?? nodeId },
      headings: parsed.headings,
      links: parsed.links,
      problems: [...parsed.problems, ...extraProblems],
      hasFrontmatter: parsed.hasFrontmatter,
      frame,
      ledgerId,
    };
    const chunks = storedChunks(this.cache.chunkTexts(nodeId));
    const note: LiveNote = {
      nodeId,
      path: parsed.path,
      contentHash: parsed.contentHash,
      mtime: stat.mtime,
      size: stat.size,
      cached,
      chunkCount: chunks.length,
    };
    const vectors = await this.vectorsFor(note, fresh);
    if (this.pendingAdmits) this.pendingAdmits.push({ doc: toIndexDoc(note, chunks), vectors });
    else {
      await this.index.upsert(toIndexDoc(note, chunks), vectors);
      this.bags.save([nodeId]);
    }
    this.remember(note);
    this.indexedCount++;
    return note;
  }

  /**
   * Runs `fn` with search-index inserts deferred and admitted in one bulk call at the end: a scan that
   * indexes hundreds of notes pays the index's per-call overhead once (cold index ~2x faster).
   * Removals inside `fn` flush the deferred inserts first, so order is kept.
   */
  async batch<T>(fn: () => Promise<T>): Promise<T> {
    if (this.pendingAdmits) return fn();
    this.pendingAdmits = [];
    try {
      return await fn();
    } finally {
      await this.flushAdmits();
      this.pendingAdmits = null;
    }
  }

  private async flushAdmits(): Promise<void> {
    const items = this.pendingAdmits;
    if (!items || items.length === 0) return;
    this.pendingAdmits = [];
    await this.index.bulkLoad(items);
    this.bags.save(items.map((i) => i.doc.id));
  }

  /** Only the file's mtime moved (touched, same bytes): record it so the next scan skips the read. */
  touch(note: LiveNote, stat: VaultFileStat): void {
    note.mtime = stat.mtime;
    note.size = stat.size;
    this.cache.putNote(
      { path: note.path, node_id: note.nodeId, content_hash: note.contentHash, mtime: note.mtime, size: note.size, meta: encodeCachedMeta(note.cached), indexed_at: this.clock.now() },
      this.cache.chunks(note.nodeId),
    );
  }

  /** Drops a note's derived state; a rename keeps its vectors (same node id, same content). */
  async remove(path: string, opts: { keepVectors?: boolean } = {}): Promise<LiveNote | null> {
    const note = this.byPath.get(path);
    this.cache.removeNote(path);
    if (!note) return null;
    this.forget(note);
    await this.flushAdmits();
    await this.index.remove(note.nodeId);
    if (!opts.keepVectors) this.cache.removeVectors(note.nodeId);
    return note;
  }

  /**
   * Embeds the chunks of every cached note into `embedder`'s space (batch re-embedding into a new space).
   * Vectors the cache already holds are reused; they are handed to the search index when it lacks them
   * (a space added after the engine opened: the warm start loaded only the spaces active then).
   */
  async embedAll(embedder: Embedder, onProgress?: (done: number, total: number) => void, only?: string[]): Promise<number> {
    let done = 0;
    const notes = only ? only.flatMap((p) => this.byPath.get(p) ?? []) : [...this.byPath.values()];
    for (const note of notes) {
      const chunks = this.cache.chunks(note.nodeId).map((c) => ({ index: c.chunk_index, text: c.text, heading: c.heading }));
      if (chunks.length && !this.cache.vectors(note.nodeId, embedder.spaceId, note.contentHash)) {
        const vecs = this.cache.vectorsByContent(embedder.spaceId, note.contentHash, chunks.length) ?? (await embedder.embed(chunks.map((c) => embeddingText(note.cached.meta.title, c)))).map(storedForm);
        this.cache.putVectors(note.nodeId, embedder.spaceId, note.contentHash, vecs);
        await this.index.upsert(toIndexDoc(note, chunks), this.cachedVectors(note));
      } else if (chunks.length && !this.index.noteVector(note.nodeId, embedder.spaceId)) {
        await this.index.upsert(toIndexDoc(note, chunks), this.cachedVectors(note));
      }
      done++;
      onProgress?.(done, notes.length);
    }
    return done;
  }

  /**
   * Warm start: rebuild the in-memory state and the search index from the cache, feeding the index notes
   * as they are read (it takes them in batches, yielding to the host between batches).
   */
  async loadFromCache(onProgress?: (done: number, total: number) => void): Promise<{ stale: string[]; missingPrimary: string[] }> {
    // Each of these steps takes 10-45 ms at 10k notes: the host gets a turn between them.
    const bags = this.bags.load();
    await macrotask();
    const rows = this.cache.noteRows();
    await macrotask();
    const stale: string[] = [];
    const missingPrimary: string[] = [];
    const spaces = this.embedders().map((e) => e.spaceId);
    const rowsOfNode = new Map<string, number>();
    for (const row of rows) rowsOfNode.set(row.node_id, (rowsOfNode.get(row.node_id) ?? 0) + 1);
    const primary = spaces[0];
    const live: string[] = [];
    const items = function* (
      this: NoteIndexer,
    ): Iterable<{ doc: IndexDoc; vectors: Map<string, Float32Array[]>; terms?: TermBag; packed: Map<string, PackedVectors> }> {
      for (const row of rows) {
        const cached = decodeCachedMetaBytes(row.meta);
        if (!cached) {
          stale.push(row.path);
          continue;
        }
        const chunks = storedChunks(this.cache.chunkTexts(row.node_id));
        const note: LiveNote = { nodeId: row.node_id, path: row.path, contentHash: row.content_hash, mtime: row.mtime, size: row.size, cached, chunkCount: chunks.length };
        this.remember(note);
        live.push(row.node_id);
        // Vectors go to the index still quantised: decoding 46k vectors to Float32 only for the index to
        // quantise them again was ~0.5 s of a 10k-note start.
        const packed = new Map<string, PackedVectors>();
        for (const space of spaces) {
          const v = this.cache.packedVectors(row.node_id, space);
          if (v && v.count === chunks.length && v.count > 0) packed.set(space, v);
        }
        if (primary && chunks.length > 0 && !packed.has(primary)) missingPrimary.push(row.path);
        // The cache drops a note's bag whenever it stores the note again, so a bag it still holds was
        // counted from this very row (unless two rows share the node id): the index may skip its text.
        const bag = bags.get(row.node_id);
        const terms = bag && rowsOfNode.get(row.node_id) === 1 ? { ...bag, current: true } : bag;
        yield { doc: toIndexDoc(note, chunks), vectors: new Map(), terms, packed };
      }
    };
    await this.index.bulkLoad(items.call(this), (done) => onProgress?.(done, rows.length));
    // Bags missing or stale (e.g. first start after an upgrade); comparing 10k bags is ~25 ms, so in slices.
    for (let i = 0; i < live.length; i += SAVE_SLICE) {
      if (i > 0) await macrotask();
      this.bags.save(live.slice(i, i + SAVE_SLICE), bags);
    }
    await macrotask();
    this.index.prepareQueries();
    return { stale, missingPrimary };
  }

  private cachedVectors(note: LiveNote): Map<string, Float32Array[]> {
    const out = new Map<string, Float32Array[]>();
    for (const e of this.embedders()) {
      const v = this.cache.vectors(note.nodeId, e.spaceId, note.contentHash);
      if (v) out.set(e.spaceId, v);
    }
    return out;
  }

  private async vectorsFor(note: LiveNote, chunks: Chunk[]): Promise<Map<string, Float32Array[]>> {
    const out = new Map<string, Float32Array[]>();
    if (chunks.length === 0) return out;
    for (const e of this.embedders()) {
      let v = this.cache.vectors(note.nodeId, e.spaceId, note.contentHash);
      if (!v || v.length !== chunks.length) {
        v = this.cache.vectorsByContent(e.spaceId, note.contentHash, chunks.length) ?? (await e.embed(chunks.map((c) => embeddingText(note.cached.meta.title, c)))).map(storedForm);
        this.cache.putVectors(note.nodeId, e.spaceId, note.contentHash, v);
      }
      out.set(e.spaceId, v);
    }
    return out;
  }

  private remember(note: LiveNote): void {
    this.version++;
    this.byPath.set(note.path, note);
    this.byId.set(note.nodeId, note);
    this.words.set(note);
    this.resolver.upsert(note.path, { id: note.nodeId, aliases: note.cached.meta.aliases, title: note.cached.meta.title, ledgerId: note.cached.ledgerId ?? null });
  }

  private forget(note: LiveNote): void {
    this.version++;
    this.byPath.delete(note.path);
    if (this.byId.get(note.nodeId) === note) this.byId.delete(note.nodeId);
    this.words.delete(note);
    this.resolver.remove(note.path);
  }
}
