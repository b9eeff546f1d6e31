/**
 * Types of the Parallel Terraced Scan (retrieve.ts): the query context an agent or the person sends, the
 * scouts' contract (scout-contract.ts, re-exported here), and the result and receipt shapes. Everything
 * here is host-free and JSON-shaped.
 */
import type { NoteType } from '../model/types';
import type { Viewer } from '../governance/gate';
import type { Interpreter } from './terrace2';
import type { ScoutName } from './scouts';
import type { Intent } from './scout-contract';

export const QUERY_CLASSES = ['debug', 'design', 'planning', 'write', 'decision', 'synthesis', 'lookup'] as const;
export type KnownQueryClass = (typeof QUERY_CLASSES)[number];
/** The class of a query that names none. */
export const DEFAULT_QUERY_CLASS: KnownQueryClass = 'lookup';

/** Every scout's name, from the registry (scouts/index.ts), where a scout is added. */
export type { ScoutName } from './scouts';

/** The scouts' contract; a scout imports it from scout-contract.ts itself (types.ts imports the registry). */
export { ALLOW_ALL, INTENTS } from './scout-contract';
export type {
  CorpusNote,
  Gate,
  Intent,
  NoteFrame,
  PrecedentMatch,
  ResolvedQuery,
  RetrievalCorpus,
  Scored,
  Scout,
  ScoutHit,
  ScoutInput,
} from './scout-contract';

/** What a caller asks (the design's QueryContext). Only query_text is required. */
export interface QueryContext {
  query_text: string;
  /** Namespace prefixes by whole segments; empty = all the viewer may see. */
  namespace_filter?: string[];
  agent_id?: string;
  task_id?: string;
  /** Free text; the known classes have their own priors. */
  query_class?: string;
  intent?: Intent;
  /** Default 10, at most 50. */
  max_context_nodes?: number;
  /**
   * Whether conflicts (contradicts edges) among the final nodes are listed in the result. Default: yes for
   * the classes design, decision, synthesis and debug, no for the others.
   */
  surface_conflicts?: boolean;
}

/** Knobs that are not part of the agent-facing contract (CLI, eval, tests). */
export interface RetrieveOptions {
  /** Scouts to switch off (ablations). */
  without?: readonly ScoutName[];
  /** Intent jitter; on by default, off in eval. */
  jitter?: boolean;
  /** Seed of jitter and the random scout; default: derived from the query and the clock's hour. */
  seed?: number;
  /** Write a receipt and bump retrieval stats (default true; eval turns it off). */
  record?: boolean;
  /**
   * A person (or agent) trying a query out: nothing is written (no receipt, no telemetry), so nothing a
   * later feedback could attach to, and the result says `try: true`. See docs/learning.md, "Implicit signals".
   */
  try?: boolean;
  /** Who is asking, for the scope gate; default an agent named by query.agent_id. */
  viewer?: Viewer;
  /** Terrace 2's interpreter for this retrieval only (a relayed call's bridge); default the engine's. */
  interpreter?: Interpreter;
}

export interface ScoreTerms {
  base: number;
  type_prior: number;
  scope_affinity: number;
  graph_affinity: number;
  spaced_repetition: number;
  ignored_penalty: number;
  misleading_penalty: number;
  concept_damping: number;
  /** Learned term–tag affinity (signed: notes with such tags were used more, or less, for such words). */
  tag_affinity: number;
  intent: number;
  /** A knowledge-ledger entry's multiplier for its phase and vitality (ledger-rank.ts); absent for other notes. */
  ledger?: number;
  /** Per-scout contribution to base. */
  scouts: Partial<Record<ScoutName, number>>;
}

export interface RetrievedNode {
  id: string;
  path: string;
  title: string;
  note_type: NoteType;
  namespace: string;
  score: number;
  reasons: string[];
  scouts: ScoutName[];
  terms: ScoreTerms;
  /** Present (true) when it filled an exploration slot (novelty or random scout) rather than ranking there. */
  exploration?: true;
}

export interface SurfacedConflict {
  edge_id: string;
  a: string;
  b: string;
  state: string | null;
}

export interface Terrace2Decision {
  wanted: boolean;
  why: string;
  /** 'done' | 'skipped: …' | 'not wanted' */
  outcome: string;
}

/** The coherence signals among the top candidates (temperature.ts); each in [0,1], 1 = full evidence of one subject. */
export interface CoherenceSignals {
  narrowing: number;
  lexical: number;
  embedding: number;
  agreement: number;
}

/** What the temperature changed: a hot scan runs wider, MMR diversifies more and exploration gets slots. */
export interface HotPath {
  /** Terrace 0 ran a second, wider scan because the first ran hot. */
  wider_scan: boolean;
  /** Each scout's limit and wave 2's seeds in the scan the nodes were chosen from. */
  scout_limit: number;
  seeds: number;
  /** MMR's λ (1 = plain ranking; lower = more diversity). */
  mmr_lambda: number;
  /** Final slots offered to exploration candidates (novelty, random). */
  exploration_slots: number;
}

export interface RetrievalResult {
  nodes: RetrievedNode[];
  temperature: number;
  coherence: number;
  /** The coherence signals among the top candidates, each in [0,1] (temperature.ts). */
  coherence_signals: CoherenceSignals;
  hot_path: HotPath;
  terrace_reached: 0 | 1 | 2;
  terrace2: Terrace2Decision;
  conflicts: SurfacedConflict[];
  /** Null when nothing was recorded (a try, or recording off). */
  receipt_id: string | null;
  /** Present (true) for a try (RetrieveOptions.try): no receipt, nothing learned. */
  try?: true;
  query_class: string;
  intent: Intent | null;
  /** Per-scout telemetry: hits returned and ms spent. */
  scouts: Partial<Record<ScoutName, { hits: number; ms: number; skipped?: string }>>;
  ms: number;
}

/** One line of `.lithos/receipts.jsonl` (LCMA design §4.6 plus our fields). */
export interface Receipt {
  receipt_id: string;
  /** ISO time. */
  ts: string;
  agent_id: string | null;
  task_id: string | null;
  query_text: string;
  query_class: string;
  intent: Intent | null;
  namespace_filter: string[];
  temperature: number;
  coherence: number;
  /** Absent in receipts written before it was added. */
  hot_path?: HotPath;
  terrace_reached: 0 | 1 | 2;
  terrace2: Terrace2Decision;
  /** Ids of every candidate the scouts produced (after the gate), capped. */
  candidates: string[];
  /** path and title as at retrieval time (absent in receipts written before they were added). */
  /** `exploration: true` marks an exploration pick (RetrievedNode): ignoring it costs the note nothing. */
  final_nodes: { id: string; path?: string; title?: string; score: number; scouts: ScoutName[]; terms: ScoreTerms; exploration?: true }[];
  conflicts: SurfacedConflict[];
  scouts: RetrievalResult['scouts'];
}
