import { z } from 'zod';
import type { GatedNote, Viewer } from '../../governance/gate';
import type { SearchFilters } from '../../index/filters';
import { NOTE_STATUSES, NOTE_TYPES } from '../../model/types';
import type { LiveNote } from '../../vault/note-indexer';
import type { ToolAnnotations, ToolContext, ToolDef } from '../types';

/** Keeps a tool's handler typed against its own schema while the catalog holds plain ToolDefs. */
export function defineTool<S extends z.ZodType>(def: ToolDef<S>): ToolDef {
  return def;
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

// ── transitional (issue 18): the conflict and coordination tools still call these (and findByIdOrPath
// below); they go once those tools ask the session's rooms directly. The knowledge tools no longer use them.

/** The caller as the scope gate sees it (the session resolves it once per call). */
export function viewerOf(ctx: ToolContext): Viewer {
  return ctx.memory.scope.viewer;
}

/**
 * Whether the caller may see a note (shared/governance/gate.ts). A note it may not see is reported as
 * not found everywhere, so its existence does not leak.
 */
export function visibleTo(ctx: ToolContext): (note: GatedNote) => boolean {
  return (note) => ctx.memory.notes.sees(note);
}

/** The search index's per-note gate for the caller. */
export function allowFor(ctx: ToolContext): (id: string) => boolean {
  return (id) => ctx.memory.notes.seesId(id);
}

/** Who writes: the agent id, or `human` for the person. Writes need an identity to record as author. */
export function actorOf(ctx: ToolContext, tool: string): string {
  return ctx.memory.scope.actor(tool);
}

// ── note references ─────────────────────────────────────────────────────

export const noteRefShape = {
  id: z.string().min(1).optional().describe('Note id.'),
  path: z.string().min(1).optional().describe('Vault path of the .md file.'),
  title: z.string().min(1).optional().describe('Title or alias, as a [[link]].'),
};

export type NoteRef = { id?: string; path?: string; title?: string };

/** Exactly one of id, path, title. */
export function oneRef(v: NoteRef): boolean {
  return [v.id, v.path, v.title].filter((x) => x !== undefined).length === 1;
}
export const ONE_REF_MESSAGE = 'Give exactly one of id, path or title.';

/** A note id or path in edge tools (`from`, `to`, `node`). Transitional, as viewerOf above. */
export function findByIdOrPath(ctx: ToolContext, ref: string): LiveNote {
  return ctx.memory.notes.findByIdOrPath(ref);
}

/** What list-like results carry per note. */
export function noteSummary(n: LiveNote): Record<string, unknown> {
  const m = n.cached.meta;
  return {
    id: n.nodeId,
    path: n.path,
    title: m.title,
    namespace: m.namespace,
    note_type: m.note_type,
    status: m.status,
    access_scope: m.access_scope,
    tags: m.tags,
    author: m.author,
    updated_at: m.updated_at,
  };
}

// ── filters ─────────────────────────────────────────────────────────────

/** Said once for every filter of this kind (search, list, retrieve): prefixes match whole segments. */
export const NAMESPACE_PREFIXES = 'Namespace prefixes ("project" covers "project/a").';

const list = (what: string) => z.union([z.string().min(1), z.array(z.string().min(1))]).optional().describe(what);

export const filterShape = {
  namespace: list(NAMESPACE_PREFIXES),
  tags: list('Tags, all required (subtags match).'),
  note_type: z.union([z.enum(NOTE_TYPES), z.array(z.enum(NOTE_TYPES))]).optional().describe('Note types.'),
  status: z.union([z.enum(NOTE_STATUSES), z.array(z.enum(NOTE_STATUSES))]).optional().describe('Statuses (quarantined only if named).'),
  path_prefix: z.string().min(1).optional().describe('Prefix of the vault path.'),
};

export interface FilterArgs {
  namespace?: string | string[];
  tags?: string | string[];
  note_type?: string | string[];
  status?: string | string[];
  path_prefix?: string;
}

function asList(v: string | string[] | undefined): string[] | undefined {
  return v === undefined ? undefined : Array.isArray(v) ? v : [v];
}

export function toFilters(a: FilterArgs): SearchFilters {
  return { namespaces: asList(a.namespace), tags: asList(a.tags), note_types: asList(a.note_type), statuses: asList(a.status), path_prefix: a.path_prefix };
}

/** One line every search-like description ends with: agents confuse lookup with task memory. */
export const RETRIEVE_HINT = 'A quick lookup that learns nothing: for memory to ground a task use lithos_retrieve.';
