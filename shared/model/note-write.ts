/**
 * The shape of a note write and delete: what a writer asks (vault/note-writer.ts carries it out) and what it
 * gets back. Defined here, below vault/, so governance/proposals.ts can hold a request for later.
 */
import type { AccessScope, NoteStatus, NoteType } from './types';
import type { IntentType } from './ledger';
import type { LedgerFields } from './ledger-meta';

/** Frontmatter fields a writer may set; absent fields are left as they are. */
export interface NoteFields extends LedgerFields {
  title?: string;
  note_type?: NoteType;
  namespace?: string;
  access_scope?: AccessScope;
  entities?: string[];
  status?: NoteStatus;
  summaries?: { short?: string; long?: string };
  supersedes?: string[];
  confidence?: number;
  tags?: string[];
  aliases?: string[];
  source?: string | null;
  /** The resolution intent a decision was written with, its replaced entries by ledger ID or id (shared/ledger). */
  intent?: { type: IntentType; replaces: string[] };
  /**
   * The entry's ledger ID (docs/ledger.md#stable-ids). The engine allocates it: a writer may only repeat the
   * note's own, anything else is refused.
   */
  ledger_id?: string;
}

export interface WriteNoteRequest {
  path: string;
  /** `create` refuses an existing file, `update` a missing one. */
  mode: 'create' | 'update' | 'upsert';
  /** The new body (Markdown after the frontmatter); the current body is kept when absent. */
  content?: string;
  fields: NoteFields;
  /** Who writes: recorded as author on create and appended to contributors. */
  actor: string | null;
  /** The version (content hash) the writer last read; a different current version is a conflict. */
  expectedVersion?: string;
}

export interface WriteNoteResult {
  id: string;
  path: string;
  version: string;
  created: boolean;
  previous_version: string | null;
}

export interface DeleteNoteResult {
  id: string | null;
  path: string;
  title: string;
  version: string;
  /** Where the file went: a path under `.trash/`, or null when the port deleted it (Obsidian: the user's trash setting). */
  trashed_to: string | null;
}
