import { LithosError } from '../../shared/errors';
import { HUMAN_VIEWER, gateFor, type Viewer } from '../../shared/governance/gate';
import { normalizeExact, tokenize } from '../../shared/index/tokenizer';
import { extractHeadings } from '../../shared/model/headings';
import { extractFrame } from '../../shared/model/frames';
import { PrecedentIndex } from '../../shared/retrieval/precedent-index';
import { pairBackground, spread, type Contrast, type Spread } from '../../shared/retrieval/background';
import { ExpansionIndex, type ExpansionHit } from '../../shared/retrieval/query-expansion';
import type { ExpansionRow, TermAssocRow } from '../../shared/stores/memory-types';
import type { CorpusNote, NoteFrame, PrecedentMatch, ResolvedQuery, RetrievalCorpus, Scored, ScoutHit, ScoutInput } from '../../shared/retrieval/types';
import { DEFAULT_NODE_STATS, type Coactivation, type EdgeRow, type NodeStats, type PrecedentRow } from '../../shared/stores/memory-types';

/**
 * In-memory twin of RetrievalCorpus for scout tests: every signal comes from plain objects, computed the
 * simplest honest way, so a scout test states its fixture and nothing else.
 *
 * - notes: any CorpusNote fields (defaults below) plus `body` (for lexical and frames), `frame` (given
 *   directly; `null` = none), `vector` (one per note, the only space) and `links` (ids of notes it links to).
 *   Defaults: title = id, path `<namespace>/<title>.md`, namespace `default`, note_type observation,
 *   access_scope shared, status active, updated_at opts.now (default 0), confidence 1, lists empty.
 * - lexical: unique query terms (the engine's tokenizer) found in title, aliases, tags and body, divided by
 *   the best count: max-normalised to [0,1] like BM25 in the engine, best first, ties by id.
 * - vector: cosine between opts.embed(text) and each note's vector, min-max normalised over the allowed
 *   notes (all equal = 1). No opts.embed, or no vectors: [].
 * - background: random-pair cosine over the notes' vectors (background.ts, as the engine's corpus does).
 * - contrast: both sides' scores above over every allowed note (0 where none), and the narrowing of the
 *   query's terms to the best lexical hit (Σ ln(N/df) over the terms it holds / ln N, df over every note).
 * - exact: title, alias or id equal after normalizeExact (the index's own normalisation).
 * - linksIn: the inverse of links. edges/coactivation/stats: from opts, with defaults for missing fields.
 * - precedents: matched by the engine's own PrecedentIndex over opts.precedents.
 * - excerpt: the start of `body`.
 * - frame: the given frame, else extractFrame over `body`, computed once: the same object on every call
 *   until update() replaces the note, as the engine's corpus does.
 */
export interface TwinNote extends Partial<CorpusNote> {
  id: string;
  body?: string;
  frame?: NoteFrame | null;
  vector?: readonly number[] | Float32Array;
  links?: readonly string[];
}

export interface TwinEdge extends Partial<EdgeRow> {
  from_id: string;
  to_id: string;
}

export interface TwinCoactivation {
  a: string;
  b: string;
  count?: number;
  namespace?: string;
  last_at?: number;
}

export interface MemoryCorpusOptions {
  /** ms since epoch used for defaults (updated_at, edge times). */
  now?: number;
  edges?: readonly TwinEdge[];
  coactivation?: readonly TwinCoactivation[];
  stats?: readonly (Partial<NodeStats> & { node_id: string })[];
  /** Stored precedents (the precedent scout's memory). */
  precedents?: readonly PrecedentRow[];
  /** Query-expansion rows (the expansion scout's memory), read by the engine's own ExpansionIndex. */
  expansion?: readonly ExpansionRow[];
  /** Learned term-association rows (the association scout's memory). */
  termAssoc?: readonly TermAssocRow[];
  /** Query embedder for vector(); notes carry their own vectors. */
  embed?: (text: string) => readonly number[] | Float32Array;
}

interface Entry {
  note: CorpusNote;
  body: string;
  terms: ReadonlySet<string>;
  vector: Float32Array | null;
  links: string[];
  frame: NoteFrame | null | undefined;
}

function unit(v: readonly number[] | Float32Array): Float32Array | null {
  const out = Float32Array.from(v);
  let norm = 0;
  for (const x of out) norm += x * x;
  if (norm === 0) return null;
  norm = Math.sqrt(norm);
  for (let i = 0; i < out.length; i++) out[i] /= norm;
  return out;
}

function byScoreThenId(a: Scored, b: Scored): number {
  return b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export class MemoryCorpus implements RetrievalCorpus {
  private readonly entries = new Map<string, Entry>();
  private readonly now: number;
  private readonly edgeRows: EdgeRow[];
  private readonly coact: TwinCoactivation[];
  private readonly statRows = new Map<string, NodeStats>();
  private readonly embed?: (text: string) => readonly number[] | Float32Array;
  private readonly precedentIndex: PrecedentIndex;
  private readonly expansionIndex: ExpansionIndex;
  private readonly assocRows: readonly TermAssocRow[];
  /** How many times frame() had to extract (tests of caching read it). */
  extractions = 0;

  constructor(notes: readonly TwinNote[] = [], opts: MemoryCorpusOptions = {}) {
    this.now = opts.now ?? 0;
    for (const n of notes) {
      if (n && this.entries.has(n.id)) throw new LithosError('invalid_argument', `MemoryCorpus: duplicate note id "${n.id}".`, { id: n.id });
      this.put(n);
    }
    this.edgeRows = (opts.edges ?? []).map((e, i) => ({
      edge_id: e.edge_id ?? `e${i + 1}`,
      from_id: e.from_id,
      to_id: e.to_id,
      type: e.type ?? 'related_to',
      weight: e.weight ?? 1,
      namespace: e.namespace ?? 'default',
      created_at: e.created_at ?? this.now,
      updated_at: e.updated_at ?? this.now,
      provenance_actor: e.provenance_actor ?? 'test',
      provenance_type: e.provenance_type ?? 'human',
      evidence: e.evidence ?? null,
      conflict_state: e.conflict_state ?? null,
    }));
    this.coact = [...(opts.coactivation ?? [])];
    for (const s of opts.stats ?? []) this.statRows.set(s.node_id, { ...DEFAULT_NODE_STATS, ...s, per_queryclass_priors: { ...s.per_queryclass_priors } });
    this.embed = opts.embed;
    this.precedentIndex = new PrecedentIndex(opts.precedents ?? []);
    this.expansionIndex = new ExpansionIndex(opts.expansion ?? []);
    this.assocRows = opts.termAssoc ?? [];
  }

  /** As the engine's: the terms' rows in the shared scope and the reader's own. */
  termAssoc(terms: readonly string[], agentId: string | null): TermAssocRow[] {
    return this.assocRows.filter((r) => terms.includes(r.term) && (r.scope === '' || r.scope === agentId));
  }

  expansion(terms: readonly string[], agentId: string | null, now: number): ExpansionHit[] {
    return this.expansionIndex.match(terms, agentId, now);
  }

  precedents(terms: readonly string[], queryClass: string): PrecedentMatch[] {
    return this.precedentIndex.match(terms, queryClass);
  }

  /** Adds or replaces a note; a replaced note gets a fresh frame object (as an edited note does). */
  update(n: TwinNote): void {
    this.put(n);
  }

  remove(id: string): void {
    this.entries.delete(id);
  }

  private put(n: TwinNote): void {
    if (!n || typeof n.id !== 'string' || n.id === '') throw new LithosError('invalid_argument', 'MemoryCorpus: every note needs a non-empty string id.');
    const title = n.title ?? n.id;
    const namespace = n.namespace ?? 'default';
    const note: CorpusNote = {
      id: n.id,
      path: n.path ?? `${namespace}/${title}.md`,
      title,
      aliases: [...(n.aliases ?? [])],
      tags: [...(n.tags ?? [])],
      entities: [...(n.entities ?? [])],
      namespace,
      note_type: n.note_type ?? 'observation',
      access_scope: n.access_scope ?? 'shared',
      status: n.status ?? 'active',
      author: n.author ?? null,
      created_at: n.created_at ?? null,
      updated_at: n.updated_at ?? this.now,
      confidence: n.confidence ?? 1,
      supersedes: [...(n.supersedes ?? [])],
    };
    const body = n.body ?? '';
    const terms = new Set(tokenize([title, ...note.aliases, ...note.tags, body].join('\n')));
    this.entries.set(n.id, { note, body, terms, vector: n.vector ? unit(n.vector) : null, links: [...(n.links ?? [])], frame: n.frame });
  }

  size(): number {
    return this.entries.size;
  }

  note(id: string): CorpusNote | undefined {
    return this.entries.get(id)?.note;
  }

  *notes(): Iterable<CorpusNote> {
    for (const e of this.entries.values()) yield e.note;
  }

  lexical(text: string, limit: number, allow: (id: string) => boolean): Scored[] {
    const q = [...new Set(tokenize(text))];
    if (q.length === 0) return [];
    const hits: Scored[] = [];
    for (const [id, e] of this.entries) {
      if (!allow(id)) continue;
      const score = q.filter((t) => e.terms.has(t)).length;
      if (score > 0) hits.push({ id, score });
    }
    const best = Math.max(0, ...hits.map((h) => h.score));
    return hits.map((h) => ({ id: h.id, score: h.score / best })).sort(byScoreThenId).slice(0, limit);
  }

  async vector(text: string, limit: number, allow: (id: string) => boolean): Promise<Scored[]> {
    const q = this.embed ? unit(this.embed(text)) : null;
    if (!q) return [];
    const raw: Scored[] = [];
    for (const [id, e] of this.entries) {
      if (!e.vector || !allow(id)) continue;
      if (e.vector.length !== q.length) throw new LithosError('invalid_argument', `MemoryCorpus: vector of "${id}" has ${e.vector.length} dimensions, the query ${q.length}.`);
      let dot = 0;
      for (let i = 0; i < q.length; i++) dot += q[i] * e.vector[i];
      raw.push({ id, score: dot });
    }
    if (raw.length === 0) return [];
    const lo = Math.min(...raw.map((h) => h.score));
    const hi = Math.max(...raw.map((h) => h.score));
    return raw.map((h) => ({ id: h.id, score: hi === lo ? 1 : (h.score - lo) / (hi - lo) })).sort(byScoreThenId).slice(0, limit);
  }

  background(): Spread | null {
    return pairBackground([...this.entries.keys()].sort(), (id) => this.entries.get(id)?.vector ?? null, 'twin');
  }

  async contrast(text: string, allow: (id: string) => boolean): Promise<{ lexical: Contrast | null; vector: Contrast | null; narrowing: number }> {
    const n = [...this.entries.keys()].filter(allow).length;
    const over = (hits: readonly Scored[]): Contrast | null => {
      if (n < 2 || hits.length === 0) return null;
      const values = [...hits.map((h) => h.score), ...new Array<number>(n - hits.length).fill(0)];
      return { ...spread(values), top: Math.max(...values) };
    };
    const lex = this.lexical(text, n, allow);
    const best = lex[0] ? this.entries.get(lex[0].id)! : null;
    let bits = 0;
    const size = this.entries.size;
    for (const t of new Set(tokenize(text))) {
      const df = [...this.entries.values()].filter((e) => e.terms.has(t)).length;
      if (best?.terms.has(t) && df > 0) bits += Math.log(size / df);
    }
    return { lexical: over(lex), vector: over(await this.vector(text, n, allow)), narrowing: size > 1 ? bits / Math.log(size) : 0 };
  }

  exact(text: string): string[] {
    const key = normalizeExact(text);
    if (key === '') return [];
    const out: string[] = [];
    for (const [id, e] of this.entries) {
      if ([e.note.title, ...e.note.aliases, id].some((s) => normalizeExact(s) === key)) out.push(id);
    }
    return out.sort();
  }

  noteVector(id: string): Float32Array | null {
    return this.entries.get(id)?.vector ?? null;
  }

  linksOut(id: string): string[] {
    return (this.entries.get(id)?.links ?? []).filter((t) => this.entries.has(t));
  }

  linksIn(id: string): string[] {
    const out: string[] = [];
    for (const [from, e] of this.entries) if (e.links.includes(id)) out.push(from);
    return out.sort();
  }

  edges(id: string): EdgeRow[] {
    return this.edgeRows.filter((e) => e.from_id === id || e.to_id === id);
  }

  coactivated(id: string): Coactivation[] {
    const out: Coactivation[] = [];
    for (const c of this.coact) {
      if (c.a !== id && c.b !== id) continue;
      out.push({ other: c.a === id ? c.b : c.a, namespace: c.namespace ?? 'default', count: c.count ?? 1, last_at: c.last_at ?? this.now });
    }
    return out;
  }

  stats(id: string): NodeStats {
    return this.statRows.get(id) ?? { node_id: id, ...DEFAULT_NODE_STATS, per_queryclass_priors: {} };
  }

  /** The body's start (the twin has no summaries). */
  async excerpt(id: string, maxChars: number): Promise<string> {
    return (this.entries.get(id)?.body ?? '').slice(0, Math.max(0, maxChars));
  }

  frame(id: string): NoteFrame | null {
    const e = this.entries.get(id);
    if (!e) return null;
    if (e.frame === undefined) {
      this.extractions++;
      e.frame = extractFrame(e.body, extractHeadings(e.body), { tags: e.note.tags, note_type: e.note.note_type, title: e.note.title });
    }
    return e.frame;
  }
}

export interface TwinScoutInputOptions {
  text?: string;
  seeds?: readonly ScoutHit[];
  /** Wave-1 pool (default: the seeds). */
  pool?: readonly ScoutHit[];
  limit?: number;
  viewer?: Viewer;
  namespaces?: readonly string[];
  /** Ids the gate refuses on top of the viewer's policy (a quick way to gate a note in a test). */
  hidden?: readonly string[];
  now?: number;
  /** Deterministic stand-in for the seeded generator; default cycles 0.1, 0.2, … 0.9. */
  random?: () => number;
}

/** A ScoutInput over the twin with the real scope gate (gateFor), for scout tests. */
export function twinScoutInput(corpus: MemoryCorpus, o: TwinScoutInputOptions = {}): ScoutInput {
  const text = o.text ?? '';
  const query: ResolvedQuery = {
    text,
    terms: [...new Set(tokenize(text))],
    query_class: 'lookup',
    intent: null,
    namespaces: [...(o.namespaces ?? [])],
    agent_id: o.viewer?.agent_id ?? null,
    task_id: o.viewer?.task_id ?? null,
    k: 10,
  };
  const gate = gateFor(o.viewer ?? HUMAN_VIEWER, o.namespaces ?? []);
  const hidden = new Set(o.hidden ?? []);
  let tick = 0;
  return {
    query,
    corpus,
    visible: (id) => {
      const note = corpus.note(id);
      return note !== undefined && !hidden.has(id) && gate(note);
    },
    seeds: o.seeds ?? [],
    pool: o.pool ?? o.seeds ?? [],
    limit: o.limit ?? 10,
    now: o.now ?? 0,
    random: o.random ?? (() => ((tick++ % 9) + 1) / 10),
  };
}
