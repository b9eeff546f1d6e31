import { z } from 'zod';
import { LithosError } from '../../errors';
import { proposedMessage } from '../../governance/trust-boundary';
import { isValidNamespace, DEFAULT_NAMESPACE } from '../../model/namespace';
import { splitFrontmatter } from '../../model/frontmatter';
import { ACCESS_SCOPES, NOTE_STATUSES, NOTE_TYPES } from '../../model/types';
import { normalizeTag, isValidTagBody } from '../../model/tags';
import type { NoteFields } from '../../model/note-write';
import { checkNotePath, portabilityProblem } from '../../vault/note-path';
import type { WriteTarget } from '../../session/note-writes';
import { defineTool } from './common';
import { LEDGER_WRITE_ARGS } from './write-ledger-args';
import { ledgerFields, ledgerShape } from './ledger-args';

const strings = (what: string) => z.array(z.string().trim().min(1)).optional().describe(what);

const input = z
  .strictObject({
    title: z.string().trim().min(1).max(300).optional().describe('Needed to create; names the file when no path is given.'),
    content: z.string().optional().describe('Markdown body, no frontmatter. Omit to change metadata only.'),
    id: z.string().min(1).optional().describe('The note to update.'),
    path: z.string().min(1).optional().describe('Vault .md path: updated if it exists, else created. Default "<namespace>/<title>.md".'),
    expected_version: z.string().min(1).optional().describe('The version lithos_read gave you.'),
    note_type: z.enum(NOTE_TYPES).optional(),
    namespace: z
      .string()
      .trim()
      .refine(isValidNamespace, 'must be folder-like segments of letters, digits, "_", "-", "." separated by "/" (e.g. "project/atlas")')
      .optional()
      .describe('e.g. "project/atlas"; the folder of a new note.'),
    access_scope: z.enum(ACCESS_SCOPES).optional().describe('Who may see it (default shared).'),
    status: z.enum(NOTE_STATUSES).optional(),
    confidence: z.number().min(0).max(1).optional().describe('How sure you are (default 1).'),
    tags: strings('Tags without "#".'),
    aliases: strings('Other names the note can be linked by.'),
    entities: strings('People, systems or things the note is about.'),
    supersedes: strings('Ids or paths of notes this one replaces.'),
    source: z.string().trim().min(1).nullable().optional().describe('Where it came from (URL, document…).'),
    summaries: z.strictObject({ short: z.string().optional(), long: z.string().optional() }).optional().describe('One line and one paragraph.'),
    ...ledgerShape,
    intent: LEDGER_WRITE_ARGS.intent,
    ledger_id: z.string().trim().min(1).optional().describe('Set by Lithos; only the note\'s own is accepted.'),
  })
  .refine((a) => !(a.id !== undefined && a.path !== undefined), { message: 'Give id or path, not both.', path: ['id'] })
  .refine((a) => a.tags === undefined || a.tags.every((t) => isValidTagBody(normalizeTag(t))), { message: 'Tags need at least one non-digit character.', path: ['tags'] });

type Args = z.infer<typeof input>;

/** Characters Obsidian refuses in file names, or that mean something in links. */
const UNSAFE_NAME = /[\\/:*?"<>|#^[\]\u0000-\u001f]/g;

/** A UTF-16 half without its other half: not Unicode, and written to disk as U+FFFD (so never found again). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * File names are limited in bytes (255 on most disks), and a write's temp file adds about 30: a title's
 * name is cut to 120 characters and to NAME_MAX_BYTES of UTF-8, never inside a character.
 */
const NAME_MAX_BYTES = 180;

function cutToBytes(s: string, max: number): string {
  let bytes = 0;
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes > max) break;
    out += ch;
  }
  return out;
}

/** `<namespace folder>/<title>.md`; the vault root for the default namespace. */
export function pathFor(title: string, namespace: string | undefined): string {
  const cleaned = title.replace(LONE_SURROGATE, '\uFFFD').replace(UNSAFE_NAME, ' ').replace(/\s+/g, ' ');
  // Leading dots (and the spaces a cut-out '/' left between them) would make a hidden file: dropped.
  const cut = cutToBytes(Array.from(cleaned.replace(/^[\s.]+/, '')).slice(0, 120).join(''), NAME_MAX_BYTES).replace(/[\s.]+$/, '') || 'Untitled';
  // A title that is a Windows device name (CON, aux, LPT1…) gets a file name Windows can hold.
  const name = portabilityProblem(`${cut}.md`) === null ? cut : `${cut} (note)`;
  const folder = namespace && namespace !== DEFAULT_NAMESPACE ? `${namespace}/` : '';
  return checkNotePath(`${folder}${name}.md`);
}

export const lithosWrite = defineTool({
  name: 'lithos_write',
  title: 'Write a note',
  description: [
    'Create a note (title, content) or update one (id or path, and expected_version; omitted fields are kept). Returns id, path and the new version.',
    'A note the person wrote, or a namespace they confirm, gives {proposal_id, status: "pending"} instead.',
  ].join(' '),
  input,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async handler(a: Args, ctx) {
    ctx.memory.scope.actor('lithos_write'); // who writes is asked first, before anything about the note
    if (a.content !== undefined && splitFrontmatter(a.content).yaml !== null) {
      throw new LithosError('invalid_argument', 'content must be the note body without a frontmatter block; pass metadata as fields (title, tags, …).', { field: 'content' });
    }
    let target: WriteTarget;
    if (a.id !== undefined) target = { note: ctx.memory.notes.find({ id: a.id }) };
    else if (a.path !== undefined) target = { path: a.path };
    else {
      if (a.title === undefined) throw new LithosError('invalid_argument', 'To create a note give title and content (or id/path to update one).', { field: 'title' });
      target = { create: pathFor(a.title, a.namespace) };
    }
    const fields: NoteFields = {
      title: a.title,
      note_type: a.note_type,
      namespace: a.namespace,
      access_scope: a.access_scope,
      status: a.status,
      confidence: a.confidence,
      tags: a.tags?.map(normalizeTag),
      aliases: a.aliases,
      entities: a.entities,
      supersedes: a.supersedes,
      source: a.source,
      summaries: a.summaries,
      ...ledgerFields(a),
      ledger_id: a.ledger_id,
    };
    const r = await ctx.memory.notes.write(target, { content: a.content, fields, expectedVersion: a.expected_version, intent: a.intent }, 'lithos_write');
    if (r.kind === 'proposed') {
      const message = proposedMessage(r.why, 'write', r.proposal.proposal_id, r.path, r.namespace);
      return { proposal_id: r.proposal.proposal_id, status: r.proposal.status, path: r.path, why: r.why, message };
    }
    // A ledger entry's ID (allocated by this write, or its own), as the agent will cite it.
    const ledgerId = ctx.memory.notes.atPath(r.result.path)?.cached.ledgerId;
    return { ...r.result, title: r.title, ...(ledgerId ? { ledger_id: ledgerId } : {}) };
  },
});
