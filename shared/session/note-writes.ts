/**
 * How a session writes and deletes notes (NotesRoom.write and .delete): the vault's write policy and the
 * trust boundary (governance/trust-boundary.ts) applied to the session's caller before anything reaches the
 * disk. An agent's refusals are `forbidden` naming the rule, except where answering so would tell it a note
 * it may not see exists: then `not_found`, as for no note at all.
 */
import { LithosError } from '../errors';
import { inHiddenFolder, type GatedNote } from '../governance/gate';
import type { Proposal } from '../governance/proposals';
import { checkNoteDelete, checkNoteWrite, namespaceRefusal } from '../governance/write-policy';
import { personNoteDecision, requireExpectedVersion, type ProposalWhy } from '../governance/trust-boundary';
import { protectedNote } from '../vault/note-editors';
import { versionConflict } from '../vault/note-writer';
import { namespaceFromPath } from '../model/namespace';
import type { LiveNote } from '../vault/note-indexer';
import type { DeleteNoteResult, NoteFields, WriteNoteResult } from '../model/note-write';
import { checkNotePath, portabilityProblem } from '../vault/note-path';
import type { Intent } from '../ledger/entry-facts';
import { checkReplacements, planLedger, writeWithReplacements } from './ledger-writes';
import type { Services } from './services';
import { auditStateChange, checkLedgerWrite } from './ledger-kind-writes';
import { buryAfterWrite } from './graveyard-moves';
import type { SessionScope } from './session-scope';

/**
 * The note a write changes: an existing note (`path` of one the viewer sees, found by id), a vault path
 * (updated if a note is there, else created), or the path of a new note (refused if a file is there).
 */
export type WriteTarget = { note: LiveNote } | { path: string } | { create: string };

export interface NoteWrite {
  /** The new Markdown body; the current one is kept when absent (a new note needs one). */
  content?: string;
  fields: NoteFields;
  /** The version the caller last read: a different current version is a conflict. */
  expectedVersion?: string;
  /** A decision's resolution intent: the active decisions it supersedes, deprecates or aborts (ledger-writes.ts). */
  intent?: Intent;
}

/**
 * What a write did: wrote the note, or kept it as a proposal a person confirms (`why`: a namespace of the
 * policy's propose_namespaces, or a note that is the person's).
 */
export type NoteWriteOutcome =
  | { kind: 'written'; result: WriteNoteResult; title: string | null }
  | { kind: 'proposed'; proposal: Proposal; path: string; namespace: string; why: ProposalWhy };

/** What a delete did: deleted the note, or kept the delete as a proposal (the note is the person's). */
export type NoteDeleteOutcome = { kind: 'deleted'; result: DeleteNoteResult } | { kind: 'proposed'; proposal: Proposal; path: string; namespace: string; why: ProposalWhy };

type Sees = (note: GatedNote | LiveNote) => boolean;

/**
 * A vault path the caller writes to, as the writer will see it: the note already there in another case is
 * the one written (the same file on macOS and Windows). Refuses what the caller may not write there.
 */
function pathTarget(services: Services, who: SessionScope, sees: Sees, input: string, namespace: string | undefined): string {
  const asked = checkNotePath(input);
  const existing = services.notes.noteAtPath(asked);
  const path = existing?.path ?? asked;
  // A namespace the agent may not write into is refused first, whether or not a note is there: answering
  // not_found only where a hidden note exists would tell the agent it exists. Both spellings are checked,
  // and the answer names only the caller's own.
  const viewer = who.viewer;
  for (const p of new Set([asked, path])) {
    const refusal = namespaceRefusal(viewer, namespace ?? namespaceFromPath(p));
    if (refusal) throw new LithosError('forbidden', `Cannot write "${asked}": ${refusal}.`, { path: asked, namespace: namespace ?? namespaceFromPath(asked) });
    if (viewer.kind === 'agent' && inHiddenFolder(viewer.hidden_folders, p)) {
      throw new LithosError('forbidden', `Cannot write "${asked}": the folder is hidden from agents (vault policy hidden_folders).`, { path: asked });
    }
  }
  if (existing && !sees(existing)) {
    // Same answer as for any note the caller may not see: its existence does not leak as "forbidden".
    throw new LithosError('not_found', `Cannot write "${asked}": there is no note there that you may change; choose another path.`, { path: asked });
  }
  return path;
}

export async function writeNote(services: Services, who: SessionScope, sees: Sees, target: WriteTarget, w: NoteWrite, tool: string): Promise<NoteWriteOutcome> {
  const actor = who.actor(tool);
  let path: string;
  let mode: 'create' | 'update' | 'upsert';
  if ('note' in target) {
    if (!sees(target.note)) throw new LithosError('not_found', `No note at "${target.note.path}".`, { path: target.note.path });
    path = target.note.path;
    mode = 'update';
  } else if ('path' in target) {
    path = pathTarget(services, who, sees, target.path, w.fields.namespace);
    mode = 'upsert';
  } else {
    path = checkNotePath(target.create);
    mode = 'create';
  }
  // The index may lag a file the person just created or edited: an agent's write is judged on the file as it is.
  if (!who.isPerson) await services.notes.refresh(path);
  const indexed = services.notes.noteAtPath(path);
  const creating = mode === 'create' || !(indexed && indexed.path === path);
  if (creating && w.content === undefined) throw new LithosError('invalid_argument', 'A new note needs content (its Markdown body).', { field: 'content' });
  const unportable = creating ? portabilityProblem(path) : null;
  if (unportable) throw new LithosError('invalid_argument', `Cannot create "${path}": ${unportable}; choose another path.`, { path });
  const f = w.fields;
  const before = indexed && indexed.path === path ? indexed : null;
  const beforeMeta = before?.cached.meta ?? null;
  if (who.caller.kind === 'agent' && beforeMeta?.status === 'quarantined' && f.status !== undefined && f.status !== 'quarantined') {
    // Quarantine is for a person to review: an agent (perhaps the one whose note it is) may not lift it.
    throw new LithosError('forbidden', `"${path}" is quarantined (marked misleading too often); a person reviews it and sets its status back.`, { path, field: 'status' });
  }
  // A ledger entry keeps its kind's rules: judged on the note as it would be, before a write or a proposal.
  // A create is judged as a new note: a note already there (perhaps one the caller may not see) is the writer's conflict.
  if (who.caller.kind === 'agent') await checkLedgerWrite(services, path, mode === 'create' ? null : before, w);
  const after: GatedNote & { path: string } = {
    path,
    namespace: f.namespace ?? beforeMeta?.namespace ?? namespaceFromPath(path),
    access_scope: f.access_scope ?? beforeMeta?.access_scope ?? 'shared',
    author: beforeMeta ? (beforeMeta.author ?? actor) : actor,
  };
  const policy = services.governance.policy.get();
  const inNamespace = checkNoteWrite(who.viewer, policy, beforeMeta, after);
  let why: ProposalWhy | null = inNamespace === 'propose' ? 'namespace' : null;
  if (before && mode !== 'create') {
    requireExpectedVersion(who.viewer, 'write', path, w.expectedVersion);
    if (personNoteDecision(who.viewer, policy, 'write', path, protectedNote(services.notes.ownership(before))) === 'propose') why = 'person_note';
  } else if (!who.isPerson) {
    // Not in the index (yet): the writer refuses a file already there, so an agent never updates unread.
    mode = 'create';
  }
  // What the write replaces, and whether its decision's target is free: refused before anything is written.
  const ledger = await planLedger(services, sees, before, f, w.intent);
  checkReplacements(services, who, ledger, why !== null ? after.namespace : null);
  if (why !== null) {
    if (before && mode !== 'create') await refuseStale(services, before, w.expectedVersion, w.content);
    // Pinned to the version the agent saw, so accepting never overwrites a change made in between.
    const proposal = await services.governance.proposals.create(
      actor,
      { path, mode: before && mode !== 'create' ? 'update' : 'create', content: w.content, fields: f, expectedVersion: w.expectedVersion ?? before?.contentHash },
      { namespace: after.namespace, title: f.title ?? beforeMeta?.title ?? null, why },
    );
    return { kind: 'proposed', proposal, path, namespace: after.namespace, why };
  }
  const result = await writeWithReplacements(services, who, ledger, path, f, (fields) =>
    services.notes.writeNote({ path, mode, content: w.content, fields, actor, expectedVersion: w.expectedVersion }),
  );
  await auditStateChange(services, who.auditActor, beforeMeta, result.path);
  await buryAfterWrite(services, who.auditActor, beforeMeta, result.path, ledger.replaced.map((r) => r.note.path));
  return { kind: 'written', result, title: services.notes.note(result.path)?.cached.meta.title ?? f.title ?? null };
}

export async function deleteNote(services: Services, who: SessionScope, sees: Sees, note: LiveNote, opts: { expectedVersion?: string; trash?: boolean }, tool: string): Promise<NoteDeleteOutcome> {
  const actor = who.actor(tool);
  if (!who.isPerson) {
    // Judged on the file as it is: an edit the watcher has not indexed yet makes it the person's note.
    await services.notes.refresh(note.path);
    note = services.notes.noteAtPath(note.path) ?? note;
  }
  if (!sees(note)) throw new LithosError('not_found', `No note at "${note.path}".`, { path: note.path });
  const policy = services.governance.policy.get();
  checkNoteDelete(who.viewer, policy, { ...note.cached.meta, path: note.path });
  requireExpectedVersion(who.viewer, 'delete', note.path, opts.expectedVersion);
  if (personNoteDecision(who.viewer, policy, 'delete', note.path, protectedNote(services.notes.ownership(note))) === 'propose') {
    await refuseStale(services, note, opts.expectedVersion, undefined);
    const namespace = note.cached.meta.namespace;
    const proposal = await services.governance.proposals.create(
      actor,
      { path: note.path, mode: 'update', fields: {}, expectedVersion: opts.expectedVersion },
      { namespace, title: note.cached.meta.title, op: 'delete', why: 'person_note' },
    );
    return { kind: 'proposed', proposal, path: note.path, namespace, why: 'person_note' };
  }
  return { kind: 'deleted', result: await services.notes.deleteNote(note.path, { expectedVersion: opts.expectedVersion, trash: opts.trash, actor }) };
}

/**
 * A proposal made against a version that is no longer the note's could never be accepted: the agent is
 * told now, with the current version and how its change differs, as for a write.
 */
async function refuseStale(services: Services, note: LiveNote, expectedVersion: string | undefined, content: string | undefined): Promise<void> {
  if (expectedVersion === undefined) return;
  // The file, not the index: an edit the watcher has not indexed yet counts.
  const current = await services.notes.parse(note.path);
  if (current.contentHash !== expectedVersion) throw versionConflict(note.path, current, content);
}
