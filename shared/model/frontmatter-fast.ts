/**
 * Exact fast path for the frontmatter most notes have: block mappings (up to 3 levels, e.g.
 * `summaries:\n  short: ...`) of `key: scalar`, `key: [a, b]` and `key:` followed by `- item` lines.
 * The `yaml` package costs ~0.1 ms per small block, which alone would eat most of the budget for
 * indexing 10k notes; this handles the common subset in a few µs.
 *
 * Contract: return `undefined` ("not handled, use the full parser") for anything outside the subset;
 * when a value is returned it equals what `yaml` (1.2 core schema) gives.
 * test/model/frontmatter-fast.test.ts checks that equivalence on generated documents.
 */

// Scalar resolution of the YAML 1.2 core schema, as the `yaml` package implements it.
const NULL_RE = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL_RE = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_RE = /^[-+]?[0-9]+$/;
const OCT_RE = /^0o[0-7]+$/;
const HEX_RE = /^0x[0-9a-fA-F]+$/;
const SPECIAL_FLOAT_RE = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const EXP_FLOAT_RE = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT_RE = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** Plain ASCII keys (spaces allowed inside); anything fancier goes to the full parser. */
const KEY_RE = /^[A-Za-z_][A-Za-z0-9_ .\-/]*$/;
const ITEM_RE = /^( *)-(?: (.*))?$/;

/** First characters that make a plain scalar something else (indicators), so we bail out on them. */
const BAD_START = new Set([...'?:,[]{}#&*!|>\'"%@`']);
/** Only scalars starting like this can resolve to numbers in the core schema. */
const NUMBER_START = new Set([...'0123456789+-.']);

/** Tabs, CR, control characters and Unicode line/BOM characters: rare, and subtle in YAML. */
const UNUSUAL_CHAR_RE = /[\x00-\x09\x0b-\x1f\x7f\x85\u2028\u2029\ufeff]/;

/** Returned by the helpers for "outside the subset"; values are otherwise `unknown` (any YAML value). */
const BAIL = Symbol('bail');
type Value = unknown;

export function fastParseYamlMapping(yaml: string): Record<string, unknown> | undefined {
  if (UNUSUAL_CHAR_RE.test(yaml)) return undefined;
  const cursor: Cursor = { lines: yaml.split('\n'), i: 0 };
  const out = mapping(cursor, 0, 0);
  // Leftover lines (less indented than expected) and empty documents go to the full parser.
  if (out === BAIL || cursor.i < cursor.lines.length || Object.keys(out as object).length === 0) return undefined;
  return out as Record<string, unknown>;
}

interface Cursor {
  lines: string[];
  i: number;
}

const MAX_DEPTH = 3;

/** A block mapping whose keys sit at exactly `indent` spaces; stops at the first less-indented line. */
function mapping(c: Cursor, indent: number, depth: number): Value {
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (; c.i < c.lines.length; c.i++) {
    const line = c.lines[c.i];
    const lead = leadingSpaces(line);
    if (lead === line.length || line[lead] === '#') continue; // blank or comment line
    if (lead < indent) break;
    if (lead > indent) return BAIL;
    const colon = line.indexOf(':', lead);
    if (colon <= lead) return BAIL;
    const key = line.slice(lead, colon);
    if (!KEY_RE.test(key) || key.endsWith(' ') || key === '__proto__' || (key.length <= 5 && (NULL_RE.test(key) || BOOL_RE.test(key)))) {
      return BAIL;
    }
    if (seen.has(key)) return BAIL; // duplicate keys are an error for the full parser to report
    seen.add(key);
    const rest = line.slice(colon + 1);
    let value: Value;
    if (rest.trim() === '') value = nested(c, indent, depth);
    else if (rest[0] !== ' ') return BAIL; // `a:b` is a plain scalar, not a key
    else {
      const text = rest.trim();
      value = text[0] === '[' ? flowSequence(text) : scalar(text, false);
    }
    if (value === BAIL) return BAIL;
    out[key] = value;
  }
  return out;
}

/** The value of `key:` with nothing after the colon: a block sequence, a deeper mapping, or null. */
function nested(c: Cursor, indent: number, depth: number): Value {
  const next = c.lines[c.i + 1];
  if (next === undefined) return null;
  const lead = leadingSpaces(next);
  if (lead >= indent && next[lead] === '-' && (next.length === lead + 1 || next[lead + 1] === ' ')) {
    // A sequence may sit at the key's own indentation (`tags:\n- a`); its items must be plain scalars.
    const items: unknown[] = [];
    while (c.i + 1 < c.lines.length) {
      const m = ITEM_RE.exec(c.lines[c.i + 1]);
      if (!m || m[1].length !== lead) break;
      const text = m[2] === undefined ? '' : m[2].trim();
      const v = text === '' ? null : scalar(text, false);
      if (v === BAIL) return BAIL;
      items.push(v);
      c.i++;
    }
    return items;
  }
  if (lead > indent && lead < next.length && next[lead] !== '#') {
    if (depth + 1 >= MAX_DEPTH) return BAIL;
    c.i++;
    const value = mapping(c, lead, depth + 1);
    c.i--; // the outer loop's increment moves past the last consumed line
    return value;
  }
  return null;
}

function leadingSpaces(line: string): number {
  let n = 0;
  while (n < line.length && line.charCodeAt(n) === 32) n++;
  return n;
}

function flowSequence(text: string): Value {
  if (!text.endsWith(']')) return BAIL;
  const inner = text.slice(1, -1);
  if (inner.trim() === '') return [];
  const out: unknown[] = [];
  for (const part of inner.split(',')) {
    const item = part.trim();
    if (item === '') return BAIL;
    const v = scalar(item, true);
    if (v === BAIL) return BAIL;
    out.push(v);
  }
  return out;
}

function scalar(s: string, inFlow: boolean): Value {
  const c = s[0];
  if (c === '"' || c === "'") {
    if (s.length < 2 || s[s.length - 1] !== c) return BAIL;
    const inner = s.slice(1, -1);
    if (inner.indexOf(c) !== -1 || (c === '"' && inner.indexOf('\\') !== -1)) return BAIL;
    return inner;
  }
  if (BAD_START.has(c) || (c === '-' && (s.length === 1 || s[1] === ' '))) return BAIL;
  if (s.indexOf(' #') !== -1 || s.indexOf(': ') !== -1 || s.endsWith(':')) return BAIL;
  if (inFlow && /[[\]{}:#"']/.test(s)) return BAIL;
  if (c === '~' || c === 'n' || c === 'N') return NULL_RE.test(s) ? null : s;
  if (c === 't' || c === 'T' || c === 'f' || c === 'F') return BOOL_RE.test(s) ? c === 't' || c === 'T' : s;
  if (!NUMBER_START.has(c)) return s;
  if (OCT_RE.test(s)) return parseInt(s.substring(2), 8);
  if (INT_RE.test(s)) return parseInt(s, 10);
  if (HEX_RE.test(s)) return parseInt(s.substring(2), 16);
  if (SPECIAL_FLOAT_RE.test(s)) {
    if (s.slice(-3).toLowerCase() === 'nan') return NaN;
    return s[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (EXP_FLOAT_RE.test(s) || FLOAT_RE.test(s)) return parseFloat(s);
  return s;
}
