import { stringify } from 'yaml';
import type { Clock, VaultPort } from '../ports';
import { LithosError } from '../errors';
import { parseNote, utf8Length } from '../model/note';
import { isUuid, newId } from '../model/ids';
import { CURRENT_SCHEMA_VERSION, MAX_NOTE_BYTES, type ParsedNote } from '../model/types';
import type { DeleteNoteResult, NoteFields, WriteNoteRequest, WriteNoteResult } from '../model/note-write';
import type { LiveNote } from './note-indexer';
import { folderOf, stripMd } from '../model/paths';
import { isLedgerKind, LEDGER_FIELDS, LEDGER_STATES, type LedgerKind } from '../model/ledger';
import { ledgerIdOf } from '../model/ledger-id';

/**
 * The engine's own note writes and deletes (lithos_write, lithos_delete): whole-file writes through the
 * VaultPort, guarded by the content hash the caller last read, and re-indexed at once so the file event
 * that follows finds nothing to do. Paths arrive already checked (vault/note-path.ts).
 */

export interface NoteWriterHost {
  vault: VaultPort;
  clock: Clock;
  /** Re-reads one path now; the live note afterwards, or null when the path holds no note. */
  resync(path: string): Promise<LiveNote | null>;
  /**
   * The id the index holds for a path. A note without an `id` in its frontmatter still has one (the registry
   * gave it at first sight, and its edges, stats and receipts hang on it): an update writes that id down
   * instead of minting a new one.
   */
  liveId?(path: string): string | undefined;
  /** A new ledger ID for a note of a ledger kind that has none (vault/ledger-ids.ts); durable when it resolves. */
  allocateLedgerId?(kind: LedgerKind, path: string, actor: string | null): Promise<string>;
}

/** Obsidian's local trash folder ("Move to Obsidian trash"). */
export const TRASH_FOLDER = '.trash';

/** Field order of a note the engine creates: identity first, then what a reader scans for. */
const FIELD_ORDER = [
  'id', 'ledger_id', 'title', 'author', 'created_at', 'updated_at', 'contributors', 'note_type', 'namespace', 'access_scope',
  'status', ...Object.values(LEDGER_FIELDS).filter((f) => f !== LEDGER_FIELDS.ledgerId), 'confidence', 'tags', 'aliases', 'entities', 'supersedes', 'source', 'summaries', 'schema_version',
];

export async function writeNote(host: NoteWriterHost, req: WriteNoteRequest): Promise<WriteNoteResult> {
  const current = await readCurrent(host.vault, req.path);
  if (current && req.mode === 'create') {
    const id = current.meta.id ?? host.liveId?.(req.path) ?? null;
    throw new LithosError('conflict', `A note already exists at "${req.path}"${id ? ` (id ${id})` : ''}. To update it, pass its id or path (and the version you read as expected_version).`, {
      path: req.path,
      id,
      current_version: current.contentHash,
    });
  }
  if (!current && req.mode === 'update') {
    throw new LithosError(req.expectedVersion ? 'conflict' : 'not_found', `No note at "${req.path}" (deleted or moved since it was read?).`, { path: req.path, current_version: null });
  }
  if (current && req.expectedVersion !== undefined && req.expectedVersion !== current.contentHash) {
    throw versionConflict(req.path, current, req.content);
  }
  if (!current && req.expectedVersion !== undefined) {
    throw new LithosError('conflict', `No note at "${req.path}" any more, but expected_version was given: it was deleted or moved since it was read.`, { path: req.path, current_version: null });
  }
  const ledgerId = await ledgerIdFor(host, current, req);
  // An update keeps the file's line endings and BOM: else a Windows note becomes a whole-file diff.
  const text = current ? inStyle(composeUpdate(current, req, host.clock.now(), host.liveId?.(req.path), ledgerId), current.style) : composeNew(req, host.clock.now(), ledgerId);
  if (text.includes('\u0000')) {
    // A NUL makes the file binary to every reader (ours included): it could be written but never edited again.
    throw new LithosError('invalid_argument', `The note would contain a NUL character (U+0000); Markdown notes are text. Remove it from the content or fields.`, { path: req.path });
  }
  const bytes = utf8Length(text);
  if (bytes > MAX_NOTE_BYTES) {
    throw new LithosError('note_too_large', `The note would be ${bytes} bytes, over the ${MAX_NOTE_BYTES}-byte limit; split it into several notes.`, { path: req.path, bytes });
  }
  await host.vault.write(req.path, text);
  const live = await host.resync(req.path);
  if (!live) throw new LithosError('internal', `"${req.path}" was written but could not be indexed.`, { path: req.path });
  return { id: live.nodeId, path: live.path, version: live.contentHash, created: !current, previous_version: current?.contentHash ?? null };
}

/** Deletes a note; into `.trash/` when `trash` is set (headless), else through the port (the plugin's port trashes). */
export async function deleteNote(host: NoteWriterHost, path: string, opts: { expectedVersion?: string; trash?: boolean } = {}): Promise<DeleteNoteResult> {
  const current = await readCurrent(host.vault, path);
  if (!current) throw new LithosError('not_found', `No note at "${path}".`, { path });
  if (opts.expectedVersion !== undefined && opts.expectedVersion !== current.contentHash) throw versionConflict(path, current, undefined);
  const before = await host.resync(path);
  let trashedTo: string | null = null;
  if (opts.trash) {
    trashedTo = await freeTrashPath(host.vault, path);
    await host.vault.rename(path, trashedTo);
  } else {
    await host.vault.delete(path);
  }
  await host.resync(path);
  return { id: before?.nodeId ?? current.meta.id, path, title: current.meta.title, version: current.contentHash, trashed_to: trashedTo };
}

async function readCurrent(vault: VaultPort, path: string): Promise<(ParsedNote & { style: TextStyle }) | null> {
  if (!(await vault.stat(path))) return null;
  const bytes = await vault.readBytes(path);
  return { ...parseNote(path, bytes), style: textStyle(bytes) };
}

/** How a note's text is laid out on disk, kept by an update: Windows editors write CRLF and often a BOM. */
interface TextStyle {
  crlf: boolean;
  bom: boolean;
}

function textStyle(bytes: Uint8Array): TextStyle {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const nl = bytes.indexOf(10);
  return { bom, crlf: nl > 0 && bytes[nl - 1] === 13 };
}

function inStyle(text: string, style: TextStyle): string {
  const eol = style.crlf ? text.replace(/\r?\n/g, '\r\n') : text;
  return style.bom ? `\uFEFF${eol}` : eol;
}

/**
 * The ledger ID a write gives the note: none for a note of another kind or one that has its own already;
 * else a new one, allocated once the version checks have passed (a write refused after this leaves a gap in
 * the sequence, never a reused ID). A `ledger_id` the writer passes must be the note's own.
 */
async function ledgerIdFor(host: NoteWriterHost, current: ParsedNote | null, req: WriteNoteRequest): Promise<string | null> {
  const own = current ? ledgerIdOf(current.frontmatter) : null;
  const asked = req.fields.ledger_id;
  if (asked !== undefined && asked !== own) {
    throw new LithosError(
      'invalid_argument',
      own === null
        ? `ledger_id is allocated by Lithos, never given: leave it out and the ${isLedgerKind(req.fields.note_type ?? current?.meta.note_type ?? '') ? 'note gets the next ID of its kind' : 'note gets one once its note_type is decision, claim, workflow or construct'}.`
        : `ledger_id cannot change: "${req.path}" is ${own}. Leave ledger_id out (or pass ${own}).`,
      { field: LEDGER_FIELDS.ledgerId, path: req.path, ledger_id: own },
    );
  }
  const kind = req.fields.note_type ?? current?.meta.note_type;
  if (own !== null || kind === undefined || !isLedgerKind(kind) || !host.allocateLedgerId) return null;
  return host.allocateLedgerId(kind, req.path, req.actor);
}

function composeNew(req: WriteNoteRequest, now: number, ledgerId: string | null): string {
  const at = new Date(now).toISOString();
  const fm: Record<string, unknown> = {
    id: newId(),
    ledger_id: ledgerId ?? undefined,
    title: req.fields.title,
    author: req.actor ?? undefined,
    created_at: at,
    updated_at: at,
    contributors: req.actor ? [req.actor] : undefined,
    schema_version: CURRENT_SCHEMA_VERSION,
  };
  applyFields(fm, req.fields);
  // A new ledger entry says its state from the start, so the person sees it among the note's properties.
  if (req.fields.note_type && isLedgerKind(req.fields.note_type)) fm.state ??= LEDGER_STATES[req.fields.note_type][0];
  return render(ordered(fm), req.content ?? '');
}

function composeUpdate(current: ParsedNote, req: WriteNoteRequest, now: number, liveId: string | undefined, ledgerId: string | null): string {
  if (current.problems.some((p) => p.code === 'binary_file')) {
    throw new LithosError('invalid_argument', `"${current.path}" holds binary data, not a Markdown note; refusing to rewrite it.`, { path: current.path });
  }
  if (current.problems.some((p) => p.code === 'yaml_malformed' || p.code === 'frontmatter_not_mapping')) {
    throw new LithosError('invalid_argument', `The frontmatter of "${current.path}" is not a valid YAML mapping; refusing to rewrite what a human wrote. Fix it by hand first (lithos doctor lists it).`, {
      path: current.path,
    });
  }
  const fm: Record<string, unknown> = { ...current.frontmatter };
  if (!isUuid(fm.id)) fm.id = current.meta.id ?? liveId ?? newId();
  applyFields(fm, req.fields);
  if (ledgerId !== null) fm[LEDGER_FIELDS.ledgerId] = ledgerId;
  fm.updated_at = new Date(now).toISOString();
  if (req.actor) {
    // Append-only: every entry already there stays, as written (even one that is not a plain name).
    const raw = fm.contributors;
    const contributors: unknown[] = Array.isArray(raw) ? [...(raw as unknown[])] : raw === undefined || raw === null || raw === '' ? [] : [raw];
    if (!contributors.includes(req.actor)) contributors.push(req.actor);
    fm.contributors = contributors;
    // `author` is written on creation only: a later writer becomes a contributor, never the author, also of
    // a note written without one (in Obsidian, the person's).
  }
  return render(fm, req.content ?? current.body);
}

/** Fields no write may set: identity and provenance are the writer's own business (author immutable, contributors append-only). */
const PROTECTED_FIELDS: ReadonlySet<string> = new Set(['id', 'author', 'contributors', 'created_at', 'updated_at', 'schema_version']);

function applyFields(fm: Record<string, unknown>, fields: NoteFields): void {
  for (const [k, v] of Object.entries(fields)) {
    // Checked against the note's own before anything was allocated (ledgerIdFor): equal, so nothing to do.
    if (v === undefined || k === LEDGER_FIELDS.ledgerId) continue;
    if (PROTECTED_FIELDS.has(k)) {
      // NoteFields has no such key; one arriving at run time (a stored proposal, a host) is refused, not applied.
      throw new LithosError('invalid_argument', `"${k}" is set by Lithos itself and cannot be written.`, { field: k });
    }
    if (k === 'summaries') {
      const prev = fm.summaries && typeof fm.summaries === 'object' && !Array.isArray(fm.summaries) ? (fm.summaries as Record<string, unknown>) : {};
      fm.summaries = { ...prev, ...dropUndefined(v as Record<string, unknown>) };
    } else {
      fm[k] = v;
    }
  }
}

function ordered(fm: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of FIELD_ORDER) if (fm[k] !== undefined) out[k] = fm[k];
  for (const [k, v] of Object.entries(fm)) if (!(k in out) && v !== undefined) out[k] = v;
  return out;
}

function render(fm: Record<string, unknown>, body: string): string {
  const yaml = stringify(dropUndefined(fm), { lineWidth: 0 });
  const text = body === '' || body.endsWith('\n') ? body : body + '\n';
  return `---\n${yaml}---\n${text}`;
}

function dropUndefined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** `.trash/<path>`, or `.trash/<path> 2.md`, … when an earlier delete left one there. */
async function freeTrashPath(vault: VaultPort, path: string): Promise<string> {
  const base = `${TRASH_FOLDER}/${stripMd(path)}`;
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? `${base}.md` : `${base} ${n}.md`;
    if (!(await vault.stat(candidate))) return candidate;
  }
  throw new LithosError('conflict', `The trash already holds 999 copies of "${path}"; empty ${TRASH_FOLDER}/${folderOf(path)} first.`, { path });
}

/**
 * The conflict an agent gets when the note changed since it read it: the current version, who last
 * touched it and when, and how the body it sent differs from the body there now, so it can merge.
 */
export function versionConflict(path: string, current: ParsedNote, proposedBody: string | undefined): LithosError {
  const data: Record<string, unknown> = {
    path,
    current_version: current.contentHash,
    updated_at: current.meta.updated_at,
    contributors: current.meta.contributors,
  };
  if (proposedBody !== undefined) data.diff = bodyDiff(current.body, proposedBody);
  else data.current_excerpt = current.body.slice(0, 400);
  return new LithosError(
    'conflict',
    `"${path}" changed since you read it (now version ${current.contentHash}). Read it again, merge your change, and retry with expected_version=${current.contentHash}.`,
    data,
  );
}

const DIFF_LINES = 6;

/** A short line diff: the changed region between the common head and tail, at most a few lines each side. */
export function bodyDiff(current: string, proposed: string): { first_changed_line: number; current_lines: string[]; your_lines: string[]; truncated: boolean } {
  const a = current.split('\n');
  const b = proposed.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const cur = a.slice(head, a.length - tail);
  const yours = b.slice(head, b.length - tail);
  return {
    first_changed_line: head + 1,
    current_lines: cur.slice(0, DIFF_LINES),
    your_lines: yours.slice(0, DIFF_LINES),
    truncated: cur.length > DIFF_LINES || yours.length > DIFF_LINES,
  };
}
