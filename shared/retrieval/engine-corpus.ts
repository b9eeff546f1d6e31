/**
 * The engine's RetrievalCorpus: note metadata from the indexer, BM25 and vectors from the search index,
 * wiki-links from the link graph, edges/stats/coactivation from the memory store.
 */
import { affinityScorer } from './tag-affinity';
import { BACKGROUND, TAG_AFFINITY } from './constants';
import type { Embedder } from '../ports';
import type { QueryScores, SearchIndex } from '../index/search-index';
import type { MemoryStore } from '../stores/memory-store';
import type { LinkGraph } from '../vault/link-graph';
import type { LiveNote } from '../vault/note-indexer';
import type { NoteWords } from '../vault/note-words';
import type { Coactivation, EdgeRow, NodeStats, TermAssocRow } from '../stores/memory-types';
import type { Phase } from '../model/ledger';
import { TERM_ASSOC } from './term-assoc';
import { isGeneratedPage } from '../ledger/generated-pages';
import { ALLOW_ALL, type AffinityScorer, type CorpusNote, type Gate, type NoteFrame, type PrecedentMatch, type RetrievalCorpus, type Scored } from './scout-contract';
import { PrecedentIndex } from './precedent-index';
import { CONCEPT_USES_MARK, conceptUsesIn } from './concept-uses';
import { pairBackground, type Contrast, type Spread } from './background';
import { ExpansionIndex, type ExpansionHit } from './query-expansion';
import { IgnoredTermsIndex } from './ignored-terms';

export interface EngineCorpusDeps {
  byId: ReadonlyMap<string, LiveNote>;
  byPath: ReadonlyMap<string, LiveNote>;
  index: SearchIndex;
  graph: LinkGraph;
  /** The indexer's tag/entity/note-type words (taggedWith). */
  words: NoteWords;
  memory: MemoryStore;
  embedders: () => readonly Embedder[];
  /** Changes whenever any note changes (cached query scores are dropped). */
  version: () => number;
}

function ms(iso: string | null): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
}

const VIEW = Symbol('corpusView');

interface Derived {
  version: number;
  all: CorpusNote[];
  ids?: string[];
  recent?: CorpusNote[];
  restricted?: Set<string>;
  masks?: Map<string, Uint8Array>;
}

export class EngineCorpus implements RetrievalCorpus {
  private lists: Derived | null = null;
  private noEdges = false;
  // Per-scan caches (beginScan clears them): a retrieval asks about the same neighbours many times.
  private readonly edgeCache = new Map<string, EdgeRow[]>();
  private readonly outCache = new Map<string, string[]>();
  private readonly inCache = new Map<string, string[]>();
  private last: { text: string; allow: (id: string) => boolean; version: number; scores: QueryScores } | null = null;

  private precedentIndex: { version: number; index: PrecedentIndex } | null = null;
  private backgroundCache: { space: string; version: number; value: Spread | null } | null = null;
  private expansionIndex: { version: number; index: ExpansionIndex } | null = null;
  private ignoredIndex: { version: number; index: IgnoredTermsIndex } | null = null;

  constructor(private readonly d: EngineCorpusDeps) {}

  size(): number {
    return this.d.byId.size;
  }

  note(id: string): CorpusNote | undefined {
    const live = this.d.byId.get(id);
    return live ? this.view(live) : undefined;
  }

  notes(): Iterable<CorpusNote> {
    return this.derived().all;
  }

  ids(): readonly string[] {
    const d = this.derived();
    return (d.ids ??= d.all.map((n) => n.id).sort());
  }

  byRecency(): readonly CorpusNote[] {
    const d = this.derived();
    return (d.recent ??= [...d.all].sort((a, b) => b.updated_at - a.updated_at || (a.id < b.id ? -1 : 1)));
  }

  restricted(): ReadonlySet<string> {
    const d = this.derived();
    return (d.restricted ??= new Set(
      // Notes the visibility gate may refuse whatever the viewer: quarantined notes and the engine's own pages.
      d.all.filter((n) => n.access_scope !== 'shared' || n.status === 'quarantined' || isGeneratedPage(n)).map((n) => n.id),
    ));
  }

  taggedWith(word: string): Iterable<string> {
    return this.d.words.with(word);
  }

  beginScan(): void {
    // Most vaults have no typed edges until feedback creates some: then no scan needs to ask per node.
    this.noEdges = this.d.memory.counts().edges === 0;
    this.edgeCache.clear();
    this.outCache.clear();
    this.inCache.clear();
  }

  /** The gate's slot mask, kept per gate key until a note changes (the gate itself is rebuilt per query). */
  private maskFor(allow: Gate): Uint8Array | undefined {
    const key = allow.cacheKey;
    if (allow === ALLOW_ALL || key === undefined) return undefined;
    const d = this.derived();
    d.masks ??= new Map();
    let mask = d.masks.get(key);
    if (!mask) {
      mask = this.d.index.maskOf(allow);
      if (d.masks.size >= 32) d.masks.clear(); // a handful of viewers at a time
      d.masks.set(key, mask);
    }
    return mask;
  }

  /** Whole-vault lists, rebuilt only after a note changed (the indexer's version moves). */
  private derived(): Derived {
    const v = this.d.version();
    if (!this.lists || this.lists.version !== v) {
      const all: CorpusNote[] = [];
      for (const live of this.d.byId.values()) all.push(this.view(live));
      this.lists = { version: v, all };
    }
    return this.lists;
  }

  async lexical(text: string, limit: number, allow: (id: string) => boolean): Promise<Scored[]> {
    return top((await this.scores(text, allow)).lexical, limit, this.last!.scores);
  }

  async vector(text: string, limit: number, allow: (id: string) => boolean): Promise<Scored[]> {
    const s = await this.scores(text, allow);
    return s.vector ? top(s.vector, limit, s) : [];
  }

  /** Both sides' scores of given notes (0 where a side has no match): completes candidates found by one side. */
  async complete(text: string, ids: readonly string[], allow: (id: string) => boolean): Promise<Map<string, { lexical: number; vector: number }>> {
    const s = await this.scores(text, allow);
    const out = new Map<string, { lexical: number; vector: number }>();
    for (const id of ids) {
      const slot = s.slotOf(id);
      if (slot < 0) continue;
      const l = s.lexical[slot];
      const v = s.vector ? s.vector[slot] : NaN;
      out.set(id, { lexical: l === l ? l : 0, vector: v === v ? v : 0 });
    }
    return out;
  }

  /** One scoring pass per (query, gate): the lexical, vector and completion calls of a retrieval share it. */
  private async scores(text: string, allow: (id: string) => boolean): Promise<QueryScores> {
    if (this.last && this.last.text === text && this.last.allow === allow && this.last.version === this.d.version()) return this.last.scores;
    const queryVectors = new Map<string, Float32Array>();
    for (const e of this.d.embedders()) queryVectors.set(e.spaceId, (await e.embed([text]))[0]);
    const scores = this.d.index.queryScores(text, queryVectors, allow === ALLOW_ALL ? undefined : allow, this.maskFor(allow));
    this.last = { text, allow, version: this.d.version(), scores };
    return scores;
  }

  exact(text: string): string[] {
    return this.d.index.exactIds(text);
  }

  noteVector(id: string): Float32Array | null {
    const primary = this.d.embedders()[0];
    return primary ? this.d.index.noteVector(id, primary.spaceId) : null;
  }

  background(): Spread | null {
    const space = this.d.embedders()[0]?.spaceId;
    if (!space) return null;
    // Sampling costs ~40 ms at 10k notes (mean vectors of 4,000 notes): redone for a new space, or once
    // BACKGROUND.refresh_share of the notes have changed since (every change in a small vault).
    const version = this.d.version();
    const c = this.backgroundCache;
    const stale = !c || c.space !== space || version - c.version >= Math.max(1, Math.ceil(BACKGROUND.refresh_share * this.size()));
    if (stale) this.backgroundCache = { space, version, value: pairBackground(this.ids(), (id) => this.noteVector(id), space) };
    return this.backgroundCache!.value;
  }

  async contrast(text: string, allow: (id: string) => boolean): Promise<{ lexical: Contrast | null; vector: Contrast | null; narrowing: number }> {
    const s = await this.scores(text, allow);
    const mask = allow === ALLOW_ALL ? undefined : this.maskFor(allow);
    let n = 0;
    for (const id of this.ids()) {
      const slot = s.slotOf(id);
      if (slot >= 0 && (mask ? mask[slot] === 1 : allow(id))) n++;
    }
    const best = top(s.lexical, 1, s)[0];
    return { lexical: contrastOf(s.lexical, n), vector: s.vector ? contrastOf(s.vector, n) : null, narrowing: best ? this.d.index.narrowing(text, best.id) : 0 };
  }

  linksOut(id: string): string[] {
    let hit = this.outCache.get(id);
    if (!hit) this.outCache.set(id, (hit = this.computeLinksOut(id)));
    return hit;
  }

  linksIn(id: string): string[] {
    let hit = this.inCache.get(id);
    if (!hit) this.inCache.set(id, (hit = this.computeLinksIn(id)));
    return hit;
  }

  edges(id: string): EdgeRow[] {
    if (this.noEdges) return [];
    let hit = this.edgeCache.get(id);
    if (!hit) this.edgeCache.set(id, (hit = this.computeEdges(id)));
    return hit;
  }

  private computeLinksOut(id: string): string[] {
    const live = this.d.byId.get(id);
    if (!live) return [];
    const out = new Set<string>();
    for (const r of this.d.graph.outgoing(live.path)) {
      const target = r.targetPath ? this.d.byPath.get(r.targetPath) : undefined;
      if (target && target.nodeId !== id) out.add(target.nodeId);
    }
    return [...out];
  }

  private computeLinksIn(id: string): string[] {
    const live = this.d.byId.get(id);
    if (!live) return [];
    return this.d.graph.incoming(live.path).flatMap((p) => {
      const from = this.d.byPath.get(p);
      return from && from.nodeId !== id ? [from.nodeId] : [];
    });
  }

  private computeEdges(id: string): EdgeRow[] {
    const out = this.d.memory.edges.find({ from: id });
    for (const e of this.d.memory.edges.find({ to: id })) if (e.from_id !== id) out.push(e);
    // An edge to a deleted (tombstoned) note is kept for its return, but is not a live neighbour.
    return out.filter((e) => this.d.byId.has(e.from_id) && this.d.byId.has(e.to_id));
  }

  coactivated(id: string): Coactivation[] {
    return this.d.memory.coactivation.of(id).filter((c) => this.d.byId.has(c.other));
  }

  stats(id: string): NodeStats {
    return this.d.memory.stats.get(id);
  }

  /** The query terms' rows, read once per retrieval (a handful of indexed lookups). */
  tagAffinity(terms: readonly string[]): AffinityScorer | null {
    const t = terms.slice(0, TAG_AFFINITY.max_terms);
    return affinityScorer(this.d.memory.learned.tagAffinity(t), t);
  }

  /** Read from memory.sqlite once, then kept up to date from the store's change log and matched in memory. */
  precedents(terms: readonly string[], queryClass: string): PrecedentMatch[] {
    const mem = this.d.memory;
    const version = mem.learned.precedentVersion;
    const cached = this.precedentIndex;
    const changes = cached ? mem.learned.precedentChangesSince(cached.version) : null;
    if (!cached || !changes) {
      this.precedentIndex = { version, index: new PrecedentIndex(mem.learned.precedents()) };
    } else if (changes.length > 0) {
      for (const c of changes) {
        if (c.kind === 'precedent') cached.index.add(c.row);
        else for (const id of c.ids) cached.index.remove(id);
      }
      cached.version = version;
    }
    return this.precedentIndex!.index.match(terms, queryClass);
  }

  /** The query terms' association rows in the shared scope and the reader's own (a handful of indexed lookups). */
  termAssoc(terms: readonly string[], agentId: string | null): TermAssocRow[] {
    return this.d.memory.learned.assoc.rows(terms.slice(0, TERM_ASSOC.max_query_terms), agentId ? ['', agentId] : ['']);
  }

  /** As precedents(): read once, then kept up to date from the store's change log. */
  expansion(terms: readonly string[], agentId: string | null, now: number): ExpansionHit[] {
    return this.expansionIndexNow().match(terms, agentId, now);
  }

  /** The query-expansion index as the store holds it now (exposed for the incremental == rebuild test). */
  expansionIndexNow(): ExpansionIndex {
    const learned = this.d.memory.learned;
    const version = learned.expansionVersion;
    const cached = this.expansionIndex;
    const changes = cached ? learned.expansionChangesSince(cached.version) : null;
    if (!cached || !changes) {
      this.expansionIndex = { version, index: new ExpansionIndex(learned.expansionRows()) };
    } else if (changes.length > 0) {
      for (const c of changes) {
        if (c.kind === 'expansion') for (const r of c.rows) cached.index.set(r);
        else for (const id of c.node_ids) cached.index.purge(id);
      }
      cached.version = version;
    }
    return this.expansionIndex!.index;
  }

  /** As expansion(): the ignored-terms index, read once, then kept up to date from the store's change log. */
  ignoredOverlap(terms: readonly string[], agentId: string | null, now: number): (id: string) => number {
    return this.ignoredTermsIndexNow().overlap(terms, agentId, now);
  }

  /** The ignored-terms index as the store holds it now (exposed for the incremental == rebuild test). */
  ignoredTermsIndexNow(): IgnoredTermsIndex {
    const ignored = this.d.memory.learned.ignored;
    const cached = this.ignoredIndex;
    const changes = cached ? ignored.changesSince(cached.version) : null;
    if (!cached || !changes) {
      this.ignoredIndex = { version: ignored.version, index: new IgnoredTermsIndex(ignored.rows()) };
    } else if (changes.length > 0) {
      for (const c of changes) {
        if (c.kind === 'ignored_terms') for (const r of c.rows) cached.index.set(r);
        else for (const id of c.node_ids) cached.index.purge(id);
      }
      cached.version = ignored.version;
    }
    return this.ignoredIndex!.index;
  }

  ledgerPhase(id: string): Phase {
    return this.d.memory.phases.get(id)?.phase ?? 'pattern';
  }

  conceptUses(id: string, now: number): number {
    return conceptUsesIn(this.d.memory.learned.mark(CONCEPT_USES_MARK), id, now);
  }

  /**
   * Extracted when the note was indexed and stored with its cached metadata (vault/note-indexer.ts), parsed
   * from there on first use. The same object while the note is unchanged (the analogy scout caches
   * signatures by frame identity); a new one after an edit.
   */
  frame(id: string): NoteFrame | null {
    return this.d.byId.get(id)?.cached.frame ?? null;
  }

  async excerpt(id: string, maxChars: number): Promise<string> {
    const live = this.d.byId.get(id);
    if (!live) return '';
    const summary = live.cached.meta.summaries.short ?? live.cached.meta.summaries.long;
    if (summary) return summary.slice(0, maxChars);
    return (this.d.index.noteText(id) ?? '').slice(0, maxChars);
  }

  /** The view is kept on the live note itself (a property lookup, not a map probe: this runs 10k× per scan). */
  private view(live: LiveNote): CorpusNote {
    const holder = live as LiveNote & { [VIEW]?: { cached: object; v: CorpusNote } };
    let v = holder[VIEW]?.cached === live.cached ? holder[VIEW].v : undefined;
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
      holder[VIEW] = { cached: live.cached, v };
    }
    return v;
  }
}

/**
 * The `limit` best of a slot-indexed score array (NaN and 0 skipped), ties by id. A selection, not a sort
 * of every slot: the vector scout scores nearly every note, and sorting 10k boxed scores per scan was the
 * largest allocation of a retrieval.
 */
function top(arr: Float64Array, limit: number, s: QueryScores): Scored[] {
  const best: Scored[] = [];
  if (limit <= 0) return best;
  for (let slot = 0; slot < arr.length; slot++) {
    const v = arr[slot];
    if (!(v > 0) || (best.length === limit && v < best[limit - 1].score)) continue;
    const id = s.idOf(slot);
    if (id === undefined) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const m = best[mid];
      if (v > m.score || (v === m.score && id < m.id)) hi = mid;
      else lo = mid + 1;
    }
    if (lo >= limit) continue;
    best.splice(lo, 0, { id, score: v });
    if (best.length > limit) best.pop();
  }
  return best;
}

/** Mean, sd and best of a slot-indexed score array over `n` visible notes, absent scores counting as 0. */
function contrastOf(arr: Float64Array, n: number): Contrast | null {
  if (n < 2) return null;
  let sum = 0;
  let sq = 0;
  let top = 0;
  for (let slot = 0; slot < arr.length; slot++) {
    const v = arr[slot];
    if (!(v > 0)) continue;
    sum += v;
    sq += v * v;
    if (v > top) top = v;
  }
  const mean = sum / n;
  return { top, mean, sd: Math.sqrt(Math.max(0, sq / n - mean * mean)), n };
}
