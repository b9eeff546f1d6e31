/**
 * The scouts' contract: the resolved query a scout receives, the corpus it reads (RetrievalCorpus, which
 * retrieval/engine-corpus.ts implements) and the hits it returns. Apart from types.ts, which imports the
 * registry for ScoutName, so that no scout's import leads back to the registry (no import cycle).
 */
import type { Coactivation, EdgeRow, NodeStats, TermAssocRow } from '../stores/memory-types';
import type { AccessScope, NoteType, NoteStatus } from '../model/types';
import type { NoteFrame } from '../model/frames';
import type { Phase } from '../model/ledger';
import type { ExpansionHit } from './query-expansion';

export const INTENTS = ['continuity', 'fact_check', 'frequent', 'associative', 'explore'] as const;
export type Intent = (typeof INTENTS)[number];

/** Mean and standard deviation of a sample of n values (retrieval/background.ts). */
export interface Spread {
  mean: number;
  sd: number;
  n: number;
}

/** One side's scores for one query over every note the viewer may see (0 where a note does not match). */
export interface Contrast extends Spread {
  /** The best score. */
  top: number;
}

/** A note as the scouts see it: metadata only, no body. */
export interface CorpusNote {
  id: string;
  path: string;
  title: string;
  aliases: string[];
  tags: string[];
  entities: string[];
  namespace: string;
  note_type: NoteType;
  access_scope: AccessScope;
  status: NoteStatus;
  author: string | null;
  /** ms since epoch; null when the note has no created_at. */
  created_at: number | null;
  /** ms since epoch: updated_at, else created_at, else the file's mtime. */
  updated_at: number;
  confidence: number;
  /** Frontmatter `supersedes` (ids or titles as written). */
  supersedes: string[];
}

/** An allow-everything gate: the corpus may skip per-note checks when it is passed. */
export const ALLOW_ALL = (): boolean => true;

/**
 * A gate may carry a key naming the viewer and namespace filter it implements: a corpus may then cache
 * what it decided per note (e.g. a slot mask) until a note changes.
 */
/** A note's structural frame, extracted when the note is indexed (model/frames.ts). */
export type { NoteFrame };

export type Gate = ((id: string) => boolean) & { cacheKey?: string };

/** An id with a score in [0,1] from one retrieval signal. */
export interface Scored {
  id: string;
  score: number;
}


/**
 * Read access to the memory for scouts. Implemented by the engine over the index, the link graph and the
 * memory store; the in-memory twin for scout tests builds one from plain objects.
 */
export interface RetrievalCorpus {
  size(): number;
  note(id: string): CorpusNote | undefined;
  notes(): Iterable<CorpusNote>;
  /** BM25, max-normalised to [0,1], best first; only ids `allow` accepts. */
  lexical(text: string, limit: number, allow: (id: string) => boolean): Scored[] | Promise<Scored[]>;
  /** Cosine per active space, min-max normalised per space, best space per note; best first. */
  vector(text: string, limit: number, allow: (id: string) => boolean): Promise<Scored[]>;
  /**
   * Lexical and vector scores (normalised as above, 0 = no match) of specific notes: candidates one side
   * found get the other side's evidence too. Optional: without it a candidate keeps what its scouts said.
   */
  complete?(text: string, ids: readonly string[], allow: (id: string) => boolean): Promise<Map<string, { lexical: number; vector: number }>>;
  /** Notes whose title, alias or id equals the text after normalisation (case, spaces, punctuation). */
  exact(text: string): string[];
  /** The note's mean chunk vector in the primary space (unit length), or null when it has none. */
  noteVector(id: string): Float32Array | null;
  /**
   * Cosine of random note pairs in the primary space (background.ts), cached per space until a note
   * changes; null when there are too few vectors. Without it coherence uses no embedding signal.
   */
  background?(): Spread | null;
  /**
   * Per side, the query's scores over every note the gate allows (normalised as above, 0 where a note
   * does not match): how far its best hit stands out; and how far its known words narrow the vault down
   * to its best lexical hit (SearchIndex.narrowing). Without it coherence uses neither signal.
   */
  contrast?(text: string, allow: (id: string) => boolean): Promise<{ lexical: Contrast | null; vector: Contrast | null; narrowing: number }>;
  /** Wiki-link neighbours, resolved, as node ids. */
  linksOut(id: string): string[];
  linksIn(id: string): string[];
  /** Typed edges with either end at `id`. */
  edges(id: string): EdgeRow[];
  coactivated(id: string): Coactivation[];
  stats(id: string): NodeStats;
  /** Times feedback found a concept note used in the 24 h before `now` (repeated-use penalty); 0 without it. */
  conceptUses?(id: string, now: number): number;
  /** A knowledge-ledger entry's phase as learning last evaluated it ('pattern' when never); without it the re-rank leaves ledger entries alone. */
  ledgerPhase?(id: string): Phase;
  /** Structural frame (analogy scout); null when the note has none worth matching. */
  frame(id: string): NoteFrame | null;
  /** Learned term–tag affinity for the query's terms (re-rank); null or absent: no evidence yet. */
  tagAffinity?(terms: readonly string[]): AffinityScorer | null;
  /** Precedents similar to the query terms, most similar first (precedent scout); none without it. */
  precedents?(terms: readonly string[], queryClass: string): PrecedentMatch[];
  /** Notes whose query-expansion field matches the terms, in the shared scope and `agentId`'s own (expansion scout). */
  expansion?(terms: readonly string[], agentId: string | null, now: number): ExpansionHit[];
  /**
   * How much of the query the words of the questions each note was ignored for cover, in [0, 1], in the
   * shared scope and `agentId`'s own (re-rank: the query-conditional ignored penalty); absent: not known, the
   * penalty counts in full.
   */
  ignoredOverlap?(terms: readonly string[], agentId: string | null, now: number): (id: string) => number;
  /** Learned term-association rows of the query terms, in the shared scope and `agentId`'s own (association scout). */
  termAssoc?(terms: readonly string[], agentId: string | null): TermAssocRow[];
  /** Called once at the start of each retrieval: per-scan caches (edges, links) may be dropped here. */
  beginScan?(): void;
  /** Every note id, sorted (cached while nothing changes); the random scout draws from it. */
  ids?(): readonly string[];
  /** Every note, most recently updated first (cached while nothing changes). */
  byRecency?(): readonly CorpusNote[];
  /**
   * Ids of the notes whose tags or entities hold `word` (model/tags.ts labelWords) or whose note type is
   * `word` (kept up to date while notes change); without it the tags scout indexes notes() itself.
   */
  taggedWith?(word: string): Iterable<string>;
  /** Ids of notes the visibility gate could hide from someone (not shared, quarantined, or in the graveyard). */
  restricted?(): ReadonlySet<string>;
  /** The start of the note's text (summary, else body) for the interpretive pass; '' when unknown. */
  excerpt?(id: string, maxChars: number): Promise<string>;
}

/** A stored precedent that resembles the query (retrieval/precedent-index.ts). */
export interface PrecedentMatch {
  query_text: string;
  /** Whose query it was (null: the person). */
  agent_id: string | null;
  query_class: string;
  /** Node ids used for that query (may name notes since deleted or hidden: the scout checks). */
  used: readonly string[];
  /** In (0,1]: IDF-weighted Jaccard of the term sets, scaled down for another query class. */
  similarity: number;
}

/** A query after validation and defaults. */
export interface ResolvedQuery {
  text: string;
  /** Lowercased content terms of the query (the lexical tokenizer's), for tag/metadata overlap. */
  terms: string[];
  query_class: string;
  intent: Intent | null;
  namespaces: string[];
  agent_id: string | null;
  task_id: string | null;
  k: number;
}

export interface ScoutHit {
  id: string;
  /** In [0,1], comparable across the scout's own hits only. */
  score: number;
  /** Human-readable, e.g. `BM25 0.82 on "pool", "size"` or `linked from "ADR-7" (wiki-link, 1 hop)`. */
  reasons: string[];
}

export interface ScoutInput {
  query: ResolvedQuery;
  corpus: RetrievalCorpus;
  /** The shared scope gate (governance/gate.ts) bound to the viewer and namespace filter: call it first. */
  visible: (id: string) => boolean;
  /** Best candidates of the first wave (lexical/vector/exact/tags/recency), for graph-like scouts. */
  seeds: readonly ScoutHit[];
  /** Every wave-1 candidate by merged base score, best first (seeds included); empty in wave 1. */
  pool: readonly ScoutHit[];
  /** Most hits a scout should return. */
  limit: number;
  now: number;
  /** Seeded, deterministic for the same seed. */
  random: () => number;
}

/** A scout of terrace 0: one file under scouts/ declares it with defineScout, one line in scouts/index.ts registers it. */
export interface Scout<N extends string = string> {
  name: N;
  /** 1: runs on the query alone; 2: runs after wave 1, on its seeds. */
  wave: 1 | 2;
  /** How much its normalised score adds to a candidate's base score (merge.ts). */
  weight: number;
  run(input: ScoutInput): Promise<ScoutHit[]> | ScoutHit[];
}

/** The learned term–tag affinity of one note for the query (tag-affinity.ts builds the scorer). */
export interface AffinityScore {
  /** Mean log-lift over the note's (term, tag) pairs, in [−cap, cap]; 0 without evidence. */
  value: number;
  /** The pair that says the most, in words; null when nothing does, or too little to matter (|value| < 0.05). */
  reason: string | null;
}

/** Scores notes by their tags for one query; built once per retrieval from the query terms' rows. */
export type AffinityScorer = (tags: readonly string[]) => AffinityScore;
