/**
 * The engine's RetrievalCorpus: note metadata from the indexer, BM25 and vectors from the search index,
 * wiki-links from the link graph, edges/stats/coactivation from the memory store.
 */
import type { Embedder } from '../ports';
import type { SearchIndex } from '../index/search-index';
import type { MemoryStore } from '../stores/memory-store';
import type { LinkGraph } from '../vault/link-graph';
import type { LiveNote } from '../vault/note-indexer';
import type { Coactivation, EdgeRow, NodeStats } from '../stores/memory-types';
import type { CorpusNote, NoteFrame, RetrievalCorpus, Scored } from './types';

export interface EngineCorpusDeps {
  byId: ReadonlyMap<string, LiveNote>;
  byPath: ReadonlyMap<string, LiveNote>;
  index: SearchIndex;
  graph: LinkGraph;
  memory: MemoryStore;
  embedders: () => readonly Embedder[];
  /** Note text for the interpretive pass (summary or the first chunk). */
  excerpt?: (note: LiveNote, maxChars: number) => Promise<string>;
}

function ms(iso: string | null): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
}

export class EngineCorpus implements RetrievalCorpus {
  /** CorpusNote per cached-meta object: rebuilt only when the note is re-indexed. */
  private readonly views = new WeakMap<object, CorpusNote>();

  constructor(private readonly d: EngineCorpusDeps) {}

  size(): number {
    return this.d.byId.size;
  }

  note(id: string): CorpusNote | undefined {
    const live = this.d.byId.get(id);
    return live ? this.view(live) : undefined;
  }

  *notes(): Iterable<CorpusNote> {
    for (const live of this.d.byId.values()) yield this.view(live);
  }

  async lexical(text: string, limit: number, allow: (id: string) => boolean): Promise<Scored[]> {
    const hits = await this.d.index.search({ text, k: limit, mode: 'lexical', allow, snippets: false });
    return hits.filter((h) => h.lexical > 0).map((h) => ({ id: h.id, score: h.lexical }));
  }

  async vector(text: string, limit: number, allow: (id: string) => boolean): Promise<Scored[]> {
    const queryVectors = new Map<string, Float32Array>();
    for (const e of this.d.embedders()) queryVectors.set(e.spaceId, (await e.embed([text]))[0]);
    if (queryVectors.size === 0) return [];
    const hits = await this.d.index.search({ text, k: limit, mode: 'vector', queryVectors, allow, snippets: false });
    return hits.filter((h) => h.vector > 0).map((h) => ({ id: h.id, score: h.vector }));
  }

  exact(text: string): string[] {
    return this.d.index.exactIds(text);
  }

  noteVector(id: string): Float32Array | null {
    const primary = this.d.embedders()[0];
    return primary ? this.d.index.noteVector(id, primary.spaceId) : null;
  }

  linksOut(id: string): string[] {
    const live = this.d.byId.get(id);
    if (!live) return [];
    const out = new Set<string>();
    for (const r of this.d.graph.outgoing(live.path)) {
      const target = r.targetPath ? this.d.byPath.get(r.targetPath) : undefined;
      if (target && target.nodeId !== id) out.add(target.nodeId);
    }
    return [...out];
  }

  linksIn(id: string): string[] {
    const live = this.d.byId.get(id);
    if (!live) return [];
    return this.d.graph.incoming(live.path).flatMap((p) => {
      const from = this.d.byPath.get(p);
      return from && from.nodeId !== id ? [from.nodeId] : [];
    });
  }

  edges(id: string): EdgeRow[] {
    const out = this.d.memory.edges({ from: id });
    for (const e of this.d.memory.edges({ to: id })) if (e.from_id !== id) out.push(e);
    // An edge to a deleted (tombstoned) note is kept for its return, but is not a live neighbour.
    return out.filter((e) => this.d.byId.has(e.from_id) && this.d.byId.has(e.to_id));
  }

  coactivated(id: string): Coactivation[] {
    return this.d.memory.coactivated(id).filter((c) => this.d.byId.has(c.other));
  }

  stats(id: string): NodeStats {
    return this.d.memory.stats(id);
  }

  frame(id: string): NoteFrame | null {
    const live = this.d.byId.get(id);
    const frame = (live?.cached as { frame?: NoteFrame | null } | undefined)?.frame;
    return frame ?? null;
  }

  async excerpt(id: string, maxChars: number): Promise<string> {
    const live = this.d.byId.get(id);
    if (!live) return '';
    const summary = live.cached.meta.summaries.short ?? live.cached.meta.summaries.long;
    if (summary) return summary.slice(0, maxChars);
    return this.d.excerpt ? (await this.d.excerpt(live, maxChars)).slice(0, maxChars) : '';
  }

  private view(live: LiveNote): CorpusNote {
    let v = this.views.get(live.cached);
    // A rename can keep the cached meta object while the path changes.
    if (!v || v.path !== live.path || v.id !== live.nodeId) {
      const m = live.cached.meta;
      const created = ms(m.created_at);
      v = {
        id: live.nodeId,
        path: live.path,
        title: m.title,
        aliases: m.aliases,
        tags: m.tags,
        entities: m.entities,
        namespace: m.namespace,
        note_type: m.note_type,
        access_scope: m.access_scope,
        status: m.status,
        author: m.author,
        created_at: created,
        updated_at: ms(m.updated_at) ?? created ?? live.mtime,
        confidence: m.confidence,
        supersedes: m.supersedes,
      };
      this.views.set(live.cached, v);
    }
    return v;
  }
}
