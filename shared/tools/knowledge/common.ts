import { z } from 'zod';
import { LithosError } from '../../errors';
import type { AuditActor } from '../../governance/audit';
import { gateFor, gatedNote, type GatedNote, type Viewer } from '../../governance/gate';
import type { SearchFilters } from '../../index/filters';
import { NOTE_STATUSES, NOTE_TYPES } from '../../model/types';
import type { LiveNote } from '../../vault/note-indexer';
import type { ResolvedLink } from '../../vault/link-graph';
import type { ToolAnnotations, ToolContext, ToolDef } from '../types';
import { checkNotePath } from '../note-path';

/** Keeps a tool's handler typed against its own schema while the catalog holds plain ToolDefs. */
export function defineTool<S extends z.ZodType>(def: ToolDef<S>): ToolDef {
  return def;
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const viewers = new WeakMap<ToolContext, Viewer>();

/**
 * The caller as the scope gate sees it: the policy allowlist, shared patterns and tasks resolved once per
 * call context (engine.viewerFor), so one call judges every note by the same policy.
 */
export function viewerOf(ctx: ToolContext): Viewer {
  let v = viewers.get(ctx);
  if (!v) {
    v = ctx.engine.viewerFor(ctx.caller);
    viewers.set(ctx, v);
  }
  return v;
}

/**
 * Whether the caller may see a note (shared/governance/gate.ts). A note it may not see is reported as
 * not found everywhere, so its existence does not leak.
 */
export function visibleTo(ctx: ToolContext): (note: GatedNote) => boolean {
  return gateFor(viewerOf(ctx));
}

/**
 * A link as the caller may know it: one that resolves into a note the caller may not see reads as
 * unresolved, exactly as a link to no note at all (otherwise `[[Some title]]` in a note the caller writes
 * would tell it whether a hidden note of that title exists). Attachments stay as they resolve.
 */
export function linkAsSeenBy(ctx: ToolContext): (r: ResolvedLink) => ResolvedLink {
  const see = visibleTo(ctx);
  return (r) => {
    if (r.targetPath === null) return r;
    const n = ctx.engine.note(r.targetPath);
    return n && n.path === r.targetPath && !see(gatedNote(n)) ? { ...r, targetPath: null } : r;
  };
}

/** The search index's per-note gate for the caller. */
export function allowFor(ctx: ToolContext): (id: string) => boolean {
  const see = visibleTo(ctx);
  return (id) => {
    const n = ctx.engine.note(id);
    return n !== null && see(gatedNote(n));
  };
}

/** Who writes: the agent id, or `human` for the person. Writes need an identity to record as author. */
export function actorOf(ctx: ToolContext, tool: string): string {
  if (ctx.caller.kind === 'human') return 'human';
  if (!ctx.caller.agent_id) {
    throw new LithosError('invalid_argument', `${tool} needs to know which agent is writing: pass agent_id, or start the bridge with --agent <id> (or LITHOS_AGENT_ID).`, { tool });
  }
  return ctx.caller.agent_id;
}

/** Who acted, for the audit trail (engine.audit). */
export function auditActorOf(ctx: ToolContext): AuditActor {
  return ctx.caller.kind === 'human' ? { kind: 'human', id: null } : { kind: 'agent', id: ctx.caller.agent_id };
}

export function provenanceOf(ctx: ToolContext): 'human' | 'agent' {
  return ctx.caller.kind === 'human' ? 'human' : 'agent';
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

/** The live note a reference names, if the caller may see it; not_found otherwise (gated notes included). */
export function findNote(ctx: ToolContext, ref: NoteRef): LiveNote {
  let note: LiveNote | null;
  let shown: string;
  if (ref.path !== undefined) {
    const p = checkNotePath(ref.path);
    // A path names a file (in any case or Unicode form), not a title that happens to match.
    note = ctx.engine.noteAtPath(p);
    shown = `at "${p}"`;
  } else if (ref.id !== undefined) {
    note = ctx.engine.note(ref.id);
    if (note && note.nodeId !== ref.id) note = null;
    shown = `with id "${ref.id}"`;
  } else {
    note = ctx.engine.note(ref.title ?? '');
    shown = `titled "${ref.title ?? ''}"`;
  }
  if (!note || !visibleTo(ctx)(gatedNote(note))) {
    throw new LithosError('not_found', `No note ${shown}. Use lithos_search or lithos_list to find notes.`, { ...ref });
  }
  return note;
}

/** A note id or path in edge tools (`from`, `to`, `node`). */
export function findByIdOrPath(ctx: ToolContext, ref: string): LiveNote {
  return /\.md$/i.test(ref) ? findNote(ctx, { path: ref }) : findNote(ctx, { id: ref });
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
