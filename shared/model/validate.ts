import { basenameNoExt } from './paths';
import { isUuid } from './ids';
import { isValidNamespace, namespaceFromPath } from './namespace';
import { mergeTags, normalizeTag } from './tags';
import { isLedgerKind } from './ledger';
import { parseLedgerMeta, type FieldReader } from './ledger-meta';
import {
  ACCESS_SCOPES,
  CURRENT_SCHEMA_VERSION,
  NOTE_STATUSES,
  NOTE_TYPES,
  type NoteMeta,
  type NoteProblem,
  type NoteSummaries,
  type ProblemCode,
} from './types';

/**
 * Frontmatter → NoteMeta with read-time defaults. Lenient where users expect it (a string where a list
 * belongs, numbers where text belongs), and every deviation is recorded as a problem; never throws.
 */
export function buildMeta(fm: Record<string, unknown>, path: string, inlineTags: string[], problems: NoteProblem[]): NoteMeta {
  const report = (code: ProblemCode, field: string, message: string): void => {
    problems.push({ path, code, field, message });
  };
  const v = new Reader(fm, report);

  const tags: string[] = [];
  mergeTags(tags, new Set(), [...v.tagList(), ...inlineTags]);
  const meta: NoteMeta = {
    id: v.id(),
    title: v.text('title') ?? basenameNoExt(path),
    author: v.text('author'),
    created_at: v.text('created_at'),
    updated_at: v.text('updated_at'),
    tags,
    aliases: v.list('aliases'),
    confidence: v.confidence(),
    contributors: v.list('contributors'),
    source: v.text('source'),
    supersedes: v.list('supersedes'),
    schema_version: v.schemaVersion(),
    namespace: v.namespace(path),
    // Absent: shared. Present but unreadable (a typo of "agent_private"…): the person only, so a mistake
    // never widens who sees a note (fail closed).
    access_scope: v.oneOf('access_scope', ACCESS_SCOPES, 'shared', 'user_private'),
    note_type: v.oneOf('note_type', NOTE_TYPES, 'observation'),
    entities: v.list('entities'),
    status: v.oneOf('status', NOTE_STATUSES, 'active'),
    summaries: v.summaries(),
  };
  // Only a ledger kind has ledger fields: another note's `state` or `target` is its own business.
  if (isLedgerKind(meta.note_type)) meta.ledger = parseLedgerMeta(meta.note_type, v);
  return meta;
}

type Report = (code: ProblemCode, field: string, message: string) => void;

class Reader implements FieldReader {
  constructor(
    private readonly fm: Record<string, unknown>,
    private readonly report: Report,
  ) {}

  /** A field's value; null/undefined mean "absent" (Obsidian writes empty properties as null). */
  private get(field: string): unknown {
    return Object.prototype.hasOwnProperty.call(this.fm, field) ? this.fm[field] : undefined;
  }

  raw(field: string): unknown {
    return this.get(field);
  }

  problem(code: ProblemCode, field: string, message: string): void {
    this.report(code, field, message);
  }

  id(): string | null {
    const raw = this.get('id');
    if (raw === undefined || raw === null) return null;
    // A copy, not the parsed slice: the id becomes a key the engine keeps for the note's lifetime, and a
    // slice would keep the note's whole text alive with it.
    if (isUuid(raw)) return Array.from(raw.toLowerCase()).join('');
    this.report('invalid_id', 'id', `"id" must be a UUID; found ${describe(raw)}. The note is indexed without it.`);
    return null;
  }

  /** Text fields: numbers and dates become strings silently; empty text counts as absent. */
  text(field: string): string | null {
    const raw = this.get(field);
    const s = scalarText(raw);
    if (s !== undefined) return s.trim() === '' ? null : s.trim();
    if (raw !== undefined && raw !== null) {
      this.report('wrong_type', field, `"${field}" should be text; found ${describe(raw)}. Ignored.`);
    }
    return null;
  }

  /** List fields: a single string is accepted as a one-element list (e.g. `aliases: Foo`). */
  list(field: string): string[] {
    const raw = this.get(field);
    if (raw === undefined || raw === null) return [];
    if (!Array.isArray(raw)) {
      const s = scalarText(raw);
      if (s !== undefined) return s.trim() === '' ? [] : [s.trim()];
      this.report('wrong_type', field, `"${field}" should be a list; found ${describe(raw)}. Ignored.`);
      return [];
    }
    const out = new Set<string>();
    let skipped = 0;
    for (const item of raw) {
      const s = scalarText(item);
      if (s !== undefined && s.trim() !== '') out.add(s.trim());
      else if (item !== null && s === undefined) skipped++;
    }
    if (skipped > 0) {
      this.report('wrong_type', field, `"${field}" should list text; ${skipped} item(s) that are not text were ignored.`);
    }
    return [...out];
  }

  /** Tags: like a list, but a string is split on commas/spaces (`tags: "a, b"`) and reported; '#' stripped. */
  tagList(): string[] {
    const raw = this.get('tags');
    if (typeof raw === 'string') {
      const parts = raw.split(/[,\s]+/).map(normalizeTag).filter((t) => t !== '');
      this.report('wrong_type', 'tags', `"tags" should be a list; split the text "${clip(raw)}" into ${parts.length} tag(s).`);
      return parts;
    }
    return this.list('tags').map(normalizeTag).filter((t) => t !== '');
  }

  confidence(): number {
    const raw = this.get('confidence');
    if (raw === undefined || raw === null) return 1;
    let n: number;
    if (typeof raw === 'number') n = raw;
    else if (typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw))) {
      n = Number(raw);
      this.report('wrong_type', 'confidence', `"confidence" should be a number; read the text "${clip(raw)}" as ${n}.`);
    } else {
      this.report('wrong_type', 'confidence', `"confidence" should be a number from 0 to 1; found ${describe(raw)}. Using 1.`);
      return 1;
    }
    if (Number.isNaN(n)) {
      this.report('out_of_range', 'confidence', '"confidence" is NaN. Using 1.');
      return 1;
    }
    if (n < 0 || n > 1) {
      const clamped = Math.min(1, Math.max(0, n));
      this.report('out_of_range', 'confidence', `"confidence" must be between 0 and 1; ${n} was clamped to ${clamped}.`);
      return clamped;
    }
    return n;
  }

  schemaVersion(): number {
    const raw = this.get('schema_version');
    if (raw === undefined || raw === null) return 1;
    const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isInteger(n) || n < 1) {
      this.report('wrong_type', 'schema_version', `"schema_version" should be a whole number ≥ 1; found ${describe(raw)}. Read as 1.`);
      return 1;
    }
    if (typeof raw === 'string') {
      this.report('wrong_type', 'schema_version', `"schema_version" should be a number; read the text "${raw.trim()}" as ${n}.`);
    }
    if (n > CURRENT_SCHEMA_VERSION) {
      this.report('out_of_range', 'schema_version', `schema_version ${n} is newer than this engine's ${CURRENT_SCHEMA_VERSION}.`);
    }
    return n;
  }

  namespace(path: string): string {
    const derived = namespaceFromPath(path);
    const raw = this.get('namespace');
    if (raw === undefined || raw === null) return derived;
    if (typeof raw === 'string' && isValidNamespace(raw.trim())) return raw.trim();
    this.report(
      typeof raw === 'string' ? 'out_of_range' : 'wrong_type',
      'namespace',
      `"namespace" must be segments of letters, digits, _ - . separated by "/"; found ${describe(raw)}. Using "${derived}".`,
    );
    return derived;
  }

  /**
   * Enum fields accept any case and surrounding spaces (`Concept ` → `concept`). `invalid` is used for a
   * value present but not one of `allowed` (default `fallback`, used for an absent one).
   */
  oneOf<T extends string>(field: string, allowed: readonly T[], fallback: T, invalid: T = fallback): T {
    const raw = this.get(field);
    if (raw === undefined || raw === null) return fallback;
    if (typeof raw !== 'string') {
      this.report('wrong_type', field, `"${field}" should be one of ${allowed.join(', ')}; found ${describe(raw)}. Using "${invalid}".`);
      return invalid;
    }
    const key = raw.trim().toLowerCase();
    const hit = allowed.find((a) => a === key);
    if (hit) return hit;
    this.report('unknown_enum', field, `"${field}" should be one of ${allowed.join(', ')}; found "${clip(raw)}". Using "${invalid}".`);
    return invalid;
  }

  summaries(): NoteSummaries {
    const raw = this.get('summaries');
    if (raw === undefined || raw === null) return {};
    if (typeof raw === 'string') {
      this.report('wrong_type', 'summaries', '"summaries" should be a mapping with short/long; the text was used as the short summary.');
      return raw.trim() === '' ? {} : { short: raw.trim() };
    }
    if (typeof raw !== 'object' || Array.isArray(raw)) {
      this.report('wrong_type', 'summaries', `"summaries" should be a mapping with short/long; found ${describe(raw)}. Ignored.`);
      return {};
    }
    const out: NoteSummaries = {};
    for (const k of ['short', 'long'] as const) {
      const val = (raw as Record<string, unknown>)[k];
      const s = scalarText(val);
      if (s !== undefined && s.trim() !== '') out[k] = s.trim();
      else if (val !== undefined && val !== null && s === undefined) {
        this.report('wrong_type', `summaries.${k}`, `"summaries.${k}" should be text; found ${describe(val)}. Ignored.`);
      }
    }
    return out;
  }
}

/** Text form of a scalar: strings as-is, numbers via String, dates as ISO strings; undefined otherwise (booleans too). */
function scalarText(raw: unknown): string | undefined {
  if (typeof raw === 'string') return raw;
  if ((typeof raw === 'number' && Number.isFinite(raw)) || typeof raw === 'bigint') return String(raw);
  if (raw instanceof Date && !Number.isNaN(raw.getTime())) return raw.toISOString();
  return undefined;
}

function describe(raw: unknown): string {
  if (Array.isArray(raw)) return 'a list';
  if (raw instanceof Date) return 'a date';
  if (typeof raw === 'object' && raw !== null) return 'a mapping';
  if (typeof raw === 'string') return `the text "${clip(raw)}"`;
  return `${typeof raw} ${String(raw)}`;
}

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
