/**
 * The lossless graveyard (docs/ledger.md → Graveyard), as text: a retired ledger entry's whole file moves into an
 * append-only note of its kind and the living note keeps a stub. This file holds only the text rules — where a
 * kind's graveyard is, how an entry section is written and read back, what a stub says — so that the proof of
 * losslessness (test/ledger/graveyard.test.ts) runs on exactly the functions the engine writes with.
 *
 * An entry is a section `## <ledger ID>` (a correction of the same entry: `## <ID> correction <n>`) with the date,
 * the state, the note's path, the successor, the SHA-256 of the original text and its encoding, then the original
 * text in a fenced block whose backtick fence is longer than any backtick run inside it, so nothing in the text can
 * close it. The block holds the text verbatim; a note with CRLF line ends is stored with LF and `encoding: crlf`
 * (editors normalise a mixed file), and a text whose line ends are mixed or hold a lone CR is stored as base64 of
 * its UTF-8 bytes. A byte-order mark at the start is left out of the block and noted `bom: yes` (an invisible
 * character inside a note is one an editor may drop). The block always ends with one added newline, which reading removes.
 */
import { LithosError } from '../errors';
import { LEDGER_KINDS, type LedgerKind } from '../model/ledger';

/**
 * The vault folder of the graveyard notes. One constant, documented in docs/ledger.md → Graveyard; retrieval and
 * search skip every note under it (isGraveyardPath).
 */
export const GRAVEYARD_FOLDER = 'Lithos/Graveyard';

const KIND_NOTE: Record<LedgerKind, string> = { decision: 'Decisions', claim: 'Claims', workflow: 'Workflows', construct: 'Constructs' };

/** Who may read a buried text: the graveyard note takes the buried note's audience, so it never widens it. */
export interface GraveyardAudience {
  namespace: string;
  access_scope: string;
  author: string | null;
  /** The policy's hidden folder the note lies in (no agent sees it), or null. */
  hidden_folder?: string | null;
}

/**
 * The graveyard note (path without `.md`) for a kind and an audience: `Lithos/Graveyard/Decisions` for shared notes;
 * a note of another scope gets a note of its scope and namespace (and owner, where the scope names one), so a reader
 * sees only texts it could read alive; a note in a hidden folder is buried inside that folder.
 */
export function graveyardNote(kind: LedgerKind, a: GraveyardAudience): string {
  const base = `${a.hidden_folder ? `${a.hidden_folder.replace(/\/+$/, '')}/` : ''}${GRAVEYARD_FOLDER}/${KIND_NOTE[kind]}`;
  if (a.access_scope === 'shared') return base;
  const owner = a.access_scope === 'agent_private' || a.access_scope === 'task' ? ` ${a.author ?? 'nobody'}` : '';
  const slug = `${a.access_scope} ${a.namespace}${owner}`.replace(/[\\/:*?"<>|#^[\]]+/g, '-').replace(/\s+/g, ' ').trim();
  return `${base} (${slug})`;
}

const IN_GRAVEYARD = new RegExp(`(^|/)${GRAVEYARD_FOLDER.toLowerCase()}/`);

/** Whether a vault path lies in a graveyard folder (at the root or in a hidden folder; any case). */
export function isGraveyardPath(path: string): boolean {
  return IN_GRAVEYARD.test(path.toLowerCase());
}

export type GraveEncoding = 'verbatim' | 'crlf' | 'base64';

/** A byte-order mark: a file's first character, when it has one. */
export const BOM = '\uFEFF';

/** A fence of backticks longer than any run of backticks in `text` (at least three). */
export function fenceFor(text: string): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * How a text is stored in the block: verbatim when it has no CR; LF for a file that ends every line with CRLF. In
 * both, the engine's managed-block markers (`%% lithos:begin …`, callout-blocks.ts) get one backslash (`%%\ lithos:`,
 * and one more on a run already there) so the callout keeper never takes a buried callout for the graveyard's own.
 */
export function encodeOriginal(original: string): { encoding: GraveEncoding; block: string; bom: boolean } {
  const bom = original.startsWith(BOM);
  const text = bom ? original.slice(1) : original;
  return { ...encodeText(text), bom };
}

function encodeText(text: string): { encoding: GraveEncoding; block: string } {
  if (!text.includes('\r')) return { encoding: 'verbatim', block: escapeMarkers(text) };
  const lf = text.replace(/\r\n/g, '\n');
  const crlfOnly = !lf.includes('\r') && (text.match(/\r\n/g)?.length ?? 0) === (text.match(/\n/g)?.length ?? 0);
  if (crlfOnly) return { encoding: 'crlf', block: escapeMarkers(lf) };
  return { encoding: 'base64', block: base64(new TextEncoder().encode(text)).replace(/.{1,76}/g, '$&\n').replace(/\n$/, '') };
}

export function decodeOriginal(encoding: GraveEncoding, block: string, bom = false): string {
  return (bom ? BOM : '') + decodeText(encoding, block);
}

function decodeText(encoding: GraveEncoding, block: string): string {
  if (encoding === 'verbatim') return unescapeMarkers(block);
  if (encoding === 'crlf') return unescapeMarkers(block).replace(/\n/g, '\r\n');
  return new TextDecoder('utf-8', { fatal: true }).decode(unbase64(block.replace(/\s+/g, '')));
}

const escapeMarkers = (t: string): string => t.replace(/%%(\\*) lithos:/g, '%%\\$1 lithos:');
const unescapeMarkers = (t: string): string => t.replace(/%%\\(\\*) lithos:/g, '%%$1 lithos:');

/** SHA-256 of the text's UTF-8 bytes, in hex. */
export async function sha256(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export interface BuriedEntry {
  /** The heading: the ledger ID, or `<ID> correction <n>`. */
  heading: string;
  ledgerId: string;
  kind: LedgerKind;
  state: string;
  /** The living note's vault path. */
  path: string;
  /** What replaced it (a ledger ID, link or path), when known. */
  successor: string | null;
  /** ISO time of the move. */
  buried: string;
  sha256: string;
  /** The original file text. */
  text: string;
}

/** The section appended to a graveyard note for one entry (starting with a blank line, ending with a newline). */
export function entrySection(e: BuriedEntry): string {
  const { encoding, block, bom } = encodeOriginal(e.text);
  const fence = fenceFor(block);
  return [
    '',
    `## ${e.heading}`,
    '',
    `- buried: ${e.buried}`,
    `- kind: ${e.kind}`,
    `- state: ${e.state}`,
    `- path: ${JSON.stringify(e.path)}`,
    `- successor: ${e.successor === null ? 'none' : JSON.stringify(e.successor)}`,
    `- sha256: ${e.sha256}`,
    `- encoding: ${encoding}`,
    ...(bom ? ['- bom: yes'] : []),
    '',
    `${fence}markdown`,
    block,
    fence,
    '',
  ].join('\n');
}

/**
 * The correction appended when a buried entry comes back to life (its state set back to a living one): dated, naming
 * the section whose text went back into the note and that text's sha256. It holds no text, so reading it as an
 * entry (readEntry) finds none; the sections before it are never edited.
 */
export function revivalSection(r: { heading: string; kind: LedgerKind; state: string; path: string; revived: string; restored: string; sha256: string }): string {
  return [
    '',
    `## ${r.heading}`,
    '',
    `- revived: ${r.revived}`,
    `- kind: ${r.kind}`,
    `- state: ${r.state}`,
    `- path: ${JSON.stringify(r.path)}`,
    `- restored: ${JSON.stringify(r.restored)}`,
    `- sha256: ${r.sha256}`,
    '',
    `Revived (${r.state}): the text of [[#${r.restored}]] went back into the note.`,
    '',
  ].join('\n');
}

/** The text a graveyard note is created with, before its first entry. */
export function graveyardIntro(kind: LedgerKind): string {
  return [
    `# Graveyard: ${KIND_NOTE[kind].toLowerCase()}`,
    '',
    `Append-only: each section holds a retired ${kind}'s original file, verbatim, as it was when it was retired.`,
    'Lithos only appends here; a correction is a new section. Retrieval and search skip this note.',
    '',
  ].join('\n');
}

/** The next free heading for an entry in a graveyard note's text: the ID, then `<ID> correction 2`, 3, … */
export function nextHeading(graveyardText: string, ledgerId: string): string {
  const taken = new Set(sections(graveyardText).map((s) => s.heading));
  if (!taken.has(ledgerId)) return ledgerId;
  let n = 2;
  while (taken.has(`${ledgerId} correction ${n}`)) n++;
  return `${ledgerId} correction ${n}`;
}

interface Section {
  heading: string;
  fields: Record<string, string>;
  block: string | null;
}

/** The entry sections of a graveyard note: fences are followed, so a heading inside a buried text is not one. */
function sections(text: string): Section[] {
  const lines = text.split('\n');
  const out: Section[] = [];
  let cur: Section | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const h = /^## (.+?)\s*$/.exec(line);
    if (h) {
      cur = { heading: h[1], fields: {}, block: null };
      out.push(cur);
      continue;
    }
    if (!cur) continue;
    const f = /^- ([a-z0-9_]+): (.*)$/.exec(line);
    if (f && cur.block === null) {
      cur.fields[f[1]] = f[2];
      continue;
    }
    const open = /^(`{3,})markdown$/.exec(line);
    if (open) {
      const fence = open[1];
      const end = lines.findIndex((l, j) => j > i && l === fence);
      if (end === -1) break; // a torn append: nothing after it is read
      if (cur.block === null) cur.block = lines.slice(i + 1, end).join('\n');
      i = end;
    }
  }
  return out;
}

const unquote = (v: string | undefined): string | null => {
  if (v === undefined || v === 'none') return null;
  try {
    const s: unknown = JSON.parse(v);
    return typeof s === 'string' ? s : v;
  } catch {
    return v;
  }
};

/** The entry under a heading of a graveyard note's text, decoded; null when there is none. */
export function readEntry(graveyardText: string, heading: string): BuriedEntry | null {
  const s = sections(graveyardText).find((x) => x.heading === heading);
  if (!s || s.block === null) return null;
  const encoding = s.fields.encoding as GraveEncoding;
  if (!['verbatim', 'crlf', 'base64'].includes(encoding)) return null;
  const kind = s.fields.kind as LedgerKind;
  return {
    heading: s.heading,
    ledgerId: s.heading.split(' ')[0],
    kind: LEDGER_KINDS.includes(kind) ? kind : 'decision',
    state: s.fields.state ?? '',
    path: unquote(s.fields.path) ?? '',
    successor: unquote(s.fields.successor),
    buried: s.fields.buried ?? '',
    sha256: s.fields.sha256 ?? '',
    text: decodeOriginal(encoding, s.block, s.fields.bom === 'yes'),
  };
}

/** The pointer a stub carries: the graveyard note and the entry's heading. */
export function pointerLink(note: string, heading: string): string {
  return `[[${note}#${heading}]]`;
}

const POINTER = new RegExp(`\\[\\[((?:[^\\]#|]*/)?${GRAVEYARD_FOLDER}/[^\\]#|]+)#([^\\]|]+)\\]\\]`, 'g');

/** The graveyard pointers in a text, in order (a stub has one; the last is the newest). */
export function pointersIn(text: string): { note: string; heading: string }[] {
  return [...text.matchAll(POINTER)].map((m) => ({ note: m[1], heading: m[2] }));
}

/**
 * The stub the living note keeps: its frontmatter block byte for byte, then a heading, the state and the pointer
 * (3 lines: a construct's stub form), with the note's own line ends.
 */
export function stubText(original: string, s: { title: string; state: string; note: string; heading: string; successor: string | null }): string {
  const eol = original.includes('\r\n') ? '\r\n' : '\n';
  const fm = frontmatterBlock(original);
  const successor = s.successor === null ? '' : ` Replaced by ${/^\[\[/.test(s.successor) ? s.successor : `[[${s.successor}]]`}.`;
  return [
    fm,
    `# ${s.title}`,
    eol,
    `${s.state.toUpperCase()}.${successor}`,
    eol,
    `Full text: ${pointerLink(s.note, s.heading)} (lithos_read {title: ${JSON.stringify(s.note)}, section: ${JSON.stringify(s.heading)}}).`,
    eol,
  ].join('');
}

/** The frontmatter block of a file, delimiters and line ends included; '' when it has none. */
export function frontmatterBlock(text: string): string {
  const m = /^(?:\uFEFF)?---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  return m ? m[0] : '';
}

/** The original text of a stub, from its graveyard note's text; throws when the entry is missing or its hash differs. */
export async function reconstruct(stub: string, graveyardText: (note: string) => string | null): Promise<string> {
  const ptr = pointersIn(stub).at(-1);
  if (!ptr) throw new LithosError('not_found', 'This note has no graveyard pointer.');
  const text = graveyardText(ptr.note);
  const entry = text === null ? null : readEntry(text, ptr.heading);
  if (!entry) throw new LithosError('not_found', `No graveyard entry "${ptr.heading}" in "${ptr.note}".`, { ...ptr });
  if ((await sha256(entry.text)) !== entry.sha256) {
    throw new LithosError('conflict', `The graveyard entry "${ptr.heading}" in "${ptr.note}" does not match its sha256.`, { ...ptr });
  }
  return entry.text;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function base64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + (i + 1 < bytes.length ? B64[(n >> 6) & 63] : '=') + (i + 2 < bytes.length ? B64[n & 63] : '=');
  }
  return out;
}

function unbase64(s: string): Uint8Array {
  const clean = s.replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let acc = 0;
  let j = 0;
  for (const ch of clean) {
    const v = B64.indexOf(ch);
    if (v === -1) throw new LithosError('invalid_argument', 'A graveyard entry holds a character that is not base64.');
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[j++] = (acc >> bits) & 255;
    }
  }
  return out;
}
