/** The note model: Lithos KnowledgeDocument fields plus LCMA fields. */
import type { LedgerMeta } from './ledger-meta';

export const NOTE_TYPES = [
  'observation', 'agent_finding', 'summary', 'concept', 'task_record', 'hypothesis',
  // The knowledge ledger's kinds (model/ledger.ts).
  'decision', 'claim', 'workflow', 'construct',
] as const;
export type NoteType = (typeof NOTE_TYPES)[number];

export const ACCESS_SCOPES = ['agent_private', 'task', 'project', 'shared', 'user_private'] as const;
export type AccessScope = (typeof ACCESS_SCOPES)[number];

/** `superseded`: replaced by a newer note (its `superseded_by`); retrieval and listing treat it like `archived`. */
export const NOTE_STATUSES = ['active', 'archived', 'quarantined', 'superseded'] as const;
export type NoteStatus = (typeof NOTE_STATUSES)[number];

export const EDGE_TYPES = ['related_to', 'supports', 'contradicts', 'is_example_of', 'depends_on', 'analogy_to', 'derived_from'] as const;
export type KnownEdgeType = (typeof EDGE_TYPES)[number];

export const PROVENANCE_TYPES = ['human', 'agent', 'rule'] as const;
export type ProvenanceType = (typeof PROVENANCE_TYPES)[number];

/** Schema version written by this engine; notes without `schema_version` are version 1. */
export const CURRENT_SCHEMA_VERSION = 2;

/** Notes larger than this are indexed by title and metadata only (with a problem recorded). */
export const MAX_NOTE_BYTES = 2 * 1024 * 1024;

export type ProblemCode =
  | 'yaml_malformed'
  | 'frontmatter_not_mapping'
  | 'wrong_type'
  | 'unknown_enum'
  | 'out_of_range'
  | 'invalid_id'
  | 'duplicate_id'
  | 'binary_file'
  | 'note_too_large'
  | 'unreadable'
  | 'encoding'
  /** A ledger entry breaks a rule of its kind (model/ledger-rules.ts): an agent's write doing so is refused. */
  | 'kind_rule'
  /** A ledger entry lacks what its kind expects (a decision's rationale…): reported, never refused. */
  | 'kind_advice';

/** Something wrong with a note that did not stop it from being indexed (listed by `lithos doctor`). */
export interface NoteProblem {
  path: string;
  code: ProblemCode;
  /** The frontmatter field concerned, when there is one. */
  field?: string;
  message: string;
}

export interface NoteLink {
  /** The link exactly as written, e.g. `[[Target#Heading|shown]]`. */
  raw: string;
  /** Link target without heading/block/alias, e.g. `Target` or `folder/Target.md`. */
  target: string;
  heading?: string;
  block?: string;
  alias?: string;
  embed: boolean;
  /** `ledger`: a plain ID reference in prose or a property (`E007`, model/ledger-id.ts), resolved like a link. */
  kind: 'wiki' | 'markdown' | 'ledger';
  /** 0-based line in the body where it appears; -1 for a link in a frontmatter property (see `property`). */
  line: number;
  /** The frontmatter property holding it (`related`, `up.0`), as Obsidian's frontmatterLinks; absent in the body. */
  property?: string;
}

export interface NoteHeading {
  level: number;
  text: string;
  /** 0-based line in the body. */
  line: number;
}

export interface NoteSummaries {
  short?: string;
  long?: string;
}

/** Frontmatter after validation, with read-time defaults applied. Never written back implicitly. */
export interface NoteMeta {
  /** The frontmatter `id` when it is a valid UUID, else null (the engine's registry supplies one). */
  id: string | null;
  title: string;
  author: string | null;
  created_at: string | null;
  updated_at: string | null;
  /** Frontmatter tags plus inline #tags, without '#', de-duplicated, original case. */
  tags: string[];
  aliases: string[];
  confidence: number;
  contributors: string[];
  source: string | null;
  supersedes: string[];
  schema_version: number;
  namespace: string;
  access_scope: AccessScope;
  note_type: NoteType;
  entities: string[];
  status: NoteStatus;
  summaries: NoteSummaries;
  /** The ledger fields (model/ledger-meta.ts); present only when note_type is a ledger kind. */
  ledger?: LedgerMeta;
}

export interface ParsedNote {
  path: string;
  meta: NoteMeta;
  /** Raw frontmatter mapping as parsed (empty when absent or malformed); unknown fields kept. */
  frontmatter: Record<string, unknown>;
  /** Whether the file had a frontmatter block at all. */
  hasFrontmatter: boolean;
  /** Markdown after the frontmatter block (the whole text when the YAML was malformed). */
  body: string;
  /** The whole body when `body` was cut at MAX_NOTE_BYTES (problem note_too_large): lithos_read pages over it. */
  fullBody?: string;
  headings: NoteHeading[];
  links: NoteLink[];
  problems: NoteProblem[];
  /** Hash of the full file content (see model/hash.ts). */
  contentHash: string;
  size: number;
}
