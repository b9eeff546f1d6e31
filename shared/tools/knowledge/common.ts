import { z } from 'zod';
import type { SearchFilters } from '../../index/filters';
import { NOTE_STATUSES, NOTE_TYPES } from '../../model/types';
import type { LiveNote } from '../../vault/note-indexer';
import type { ToolAnnotations, ToolDef } from '../types';

/** Keeps a tool's handler typed against its own schema while the catalog holds plain ToolDefs. */
export function defineTool<S extends z.ZodType>(def: ToolDef<S>): ToolDef {
  return def;
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

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
  // Not an enum in the schema: its ten values would sit twice in every listing tool's tools/list (agents' context);
  // lithos_write's note_type lists them, and a value outside them is refused naming them all.
  note_type: z
    .union([z.string(), z.array(z.string())])
    .refine((v) => (Array.isArray(v) ? v : [v]).every((t) => (NOTE_TYPES as readonly string[]).includes(t)), { message: `each must be one of ${NOTE_TYPES.join(', ')}` })
    .optional()
    .describe('Note types, as in lithos_write.'),
  status: z
    .union([z.string(), z.array(z.string())])
    .refine((v) => (Array.isArray(v) ? v : [v]).every((t) => (NOTE_STATUSES as readonly string[]).includes(t)), { message: `each must be one of ${NOTE_STATUSES.join(', ')}` })
    .optional()
    .describe('Statuses, as in lithos_write (quarantined only if named).'),
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
