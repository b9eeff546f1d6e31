/**
 * Stable typed IDs of ledger entries (docs/ledger.md#stable-ids): `<prefix><seq>-<tag>`, e.g. `E007-k3xq`.
 * The prefix names the kind (LEDGER_PREFIX), the sequence is zero-padded to at least three digits, and the
 * tag is four lowercase base32 characters of the device that allocated it, so two devices allocating at
 * once from the same state never write the same ID. People write the short form `E007` (unique while one
 * `E007-*` exists); the full form always names one entry.
 *
 * Pure text rules only: allocation lives in vault/ledger-ids.ts, the device tag in stores/device-identity.ts.
 */
import { LEDGER_FIELDS, LEDGER_KINDS, LEDGER_PREFIX, type LedgerKind } from './ledger';
import type { NoteLink } from './types';

/** RFC 4648 base32, lower case: no 0/1/8/9, so a tag never reads as part of the sequence. */
export const TAG_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
export const TAG_LENGTH = 4;
/** The sequence is written with at least this many digits (`E007`), more once it outgrows them (`E1234`). */
export const SEQ_DIGITS = 3;

const PREFIXES = LEDGER_KINDS.map((k) => LEDGER_PREFIX[k]).join('');
/** A whole full or short ID, case as written (`E007-k3xq`, `E007`). */
const ID_RE = new RegExp(`^([${PREFIXES}])(\\d{${SEQ_DIGITS},})(?:-([${TAG_ALPHABET}]{${TAG_LENGTH}}))?$`);
/**
 * A plain reference in prose: upper-case prefix, digits, optional tag; not inside a word, a path, a tag or
 * an anchor (`#E007`, `x/E007`, `v1.E007`, `E007-foo` are not references).
 */
const PROSE_RE = new RegExp(`(?<![\\w/#.\\-@])([${PREFIXES}])(\\d{${SEQ_DIGITS},})(?:-([${TAG_ALPHABET}]{${TAG_LENGTH}}))?(?![\\w\\-])`, 'g');
/** Spans that are not prose for a plain reference: wiki links, markdown links, URLs. */
const NOT_PROSE_RE = /!?\[\[[^[\]\n]*\]\]|!?\[[^\]\n]*\]\([^)\n]*\)|\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;

export interface LedgerIdParts {
  kind: LedgerKind;
  prefix: string;
  seq: number;
  /** null for the short form. */
  tag: string | null;
}

const KIND_OF_PREFIX = new Map(LEDGER_KINDS.map((k) => [LEDGER_PREFIX[k], k] as const));

/** The parts of a full or short ID (exactly as the canonical form spells it: `E007`, `E007-k3xq`); null otherwise. */
export function parseLedgerId(text: string): LedgerIdParts | null {
  const m = ID_RE.exec(text.trim());
  if (!m) return null;
  const seq = Number(m[2]);
  if (!Number.isSafeInteger(seq) || seq < 1) return null;
  return { kind: KIND_OF_PREFIX.get(m[1])!, prefix: m[1], seq, tag: m[3] ?? null };
}

/** `E` + 7 + `k3xq` → `E007-k3xq`. */
export function formatLedgerId(prefix: string, seq: number, tag: string): string {
  return `${prefix}${String(seq).padStart(SEQ_DIGITS, '0')}-${tag}`;
}

/** The short form of a full ID (`E007-k3xq` → `E007`); a short ID is its own short form. */
export function shortLedgerId(id: string): string {
  const dash = id.indexOf('-');
  return dash === -1 ? id : id.slice(0, dash);
}

/** Whether `text` is a full ID (`E007-k3xq`) as the engine writes it. */
export function isFullLedgerId(text: unknown): text is string {
  if (typeof text !== 'string') return false;
  const p = parseLedgerId(text);
  return p !== null && p.tag !== null && text === text.trim();
}

/** A ledger ID as a reference: the full form, or the short form that names the entry while it is unique. */
export function isLedgerRef(text: string): boolean {
  return parseLedgerId(text) !== null;
}

/**
 * A link target spelled as IDs are (upper-case prefix, lower-case tag), or null when it is not shaped like
 * one: links match IDs in any case (`[[e007]]`), plain prose only in the written form.
 */
export function ledgerRefOfTarget(target: string): string | null {
  const t = target.trim();
  if (t.length < 1 + SEQ_DIGITS) return null;
  const canonical = t[0].toUpperCase() + t.slice(1).toLowerCase();
  return parseLedgerId(canonical) ? canonical : null;
}

/**
 * The `ledger_id` a note's frontmatter holds, as written (a string, or a number/other value as text, so a
 * malformed one is reported rather than ignored); null when the field is absent or empty.
 */
export function ledgerIdOf(frontmatter: Record<string, unknown>): string | null {
  const v = frontmatter[LEDGER_FIELDS.ledgerId];
  if (v === undefined || v === null || v === '') return null;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** Appends the plain ID references of one prose line (inline code already masked) as `ledger` links. */
export function ledgerRefsInLine(masked: string, line: number, out: NoteLink[]): void {
  if (!hasPrefixDigit(masked)) return;
  const prose = masked.indexOf('[') === -1 && masked.indexOf('://') === -1 ? masked : masked.replace(NOT_PROSE_RE, (m) => ' '.repeat(m.length));
  PROSE_RE.lastIndex = 0;
  for (let m = PROSE_RE.exec(prose); m; m = PROSE_RE.exec(prose)) {
    if (Number(m[2]) < 1) continue;
    out.push({ raw: m[0], target: m[0], embed: false, kind: 'ledger', line });
  }
}

/**
 * Frontmatter values that are exactly one ID (`supersedes: [E003]`, `evidence: [{ref: E007-k3xq}]`) count as
 * references of their property, as wiki links there do. The note's own `ledger_id` is not a reference.
 */
export function ledgerRefsInFrontmatter(frontmatter: Record<string, unknown>): NoteLink[] {
  const out: NoteLink[] = [];
  const visit = (value: unknown, key: string, depth: number): void => {
    if (depth > 8) return;
    if (typeof value === 'string') {
      const t = value.trim();
      if (t.length <= 24 && parseLedgerId(t)) out.push({ raw: t, target: t, embed: false, kind: 'ledger', line: -1, property: key });
    } else if (Array.isArray(value)) value.forEach((v, i) => visit(v, `${key}.${i}`, depth + 1));
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, `${key}.${k}`, depth + 1);
  };
  for (const [k, v] of Object.entries(frontmatter)) if (k !== LEDGER_FIELDS.ledgerId) visit(v, k, 0);
  return out;
}

const PREFIX_DIGIT_RE = new RegExp(`[${PREFIXES}]\\d`);

/** Cheap pre-check: a prefix letter directly followed by a digit somewhere in the line. */
function hasPrefixDigit(s: string): boolean {
  return PREFIX_DIGIT_RE.test(s);
}
