import { parseDocument, isMap, isScalar, isSeq, stringify, type Document, type YAMLMap, type Pair } from 'yaml';
import { LithosError } from '../shared/errors';

/*
 * Headless twin of Obsidian's FileManager.processFrontMatter, as a pure text transform.
 * Only the frontmatter block is rewritten; the body is copied byte-for-byte. Unchanged keys keep
 * their YAML nodes (comments, quoting, flow style, order); changed scalars keep their style.
 */

/** `---` fence, optional YAML, closing `---` on its own line. Group 1 = YAML, group 2 = newline after the fence. */
const FENCE = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(\r?\n|$)/;

// flowCollectionPadding off: `tags: [a, b]` stays as people (and Obsidian) write it, not `[ a, b ]`.
const TO_STRING = { lineWidth: 0, flowCollectionPadding: false } as const;

type Json = unknown;

/**
 * Applies `fn` to the frontmatter of `text`. Returns the new text, or null when `fn` changed nothing
 * (so callers skip the write and don't touch mtime). Throws invalid_argument when the existing block is
 * not valid YAML or not a mapping: rewriting it would destroy what a human wrote.
 */
export function editFrontMatter(text: string, path: string, fn: (fm: Record<string, unknown>) => void): string | null {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const rest = text.slice(bom.length);
  const m = FENCE.exec(rest);
  const eol = (m ? /\r\n/.test(m[0]) : /^[^\n]*\r\n/.test(rest)) ? '\r\n' : '\n';

  if (!m) {
    const data: Record<string, unknown> = {};
    fn(data);
    const clean = dropUndefined(data) as Record<string, unknown>;
    if (Object.keys(clean).length === 0) return null;
    return `${bom}---${eol}${withEol(stringify(clean, TO_STRING), eol)}---${eol}${rest}`;
  }

  const doc = parseDocument(m[1] ?? '');
  if (doc.errors.length > 0) {
    throw new LithosError('invalid_argument', `Refusing to rewrite the frontmatter of "${path}": it is not valid YAML (${doc.errors[0].message.split('\n')[0]}). Fix it by hand first.`, { path });
  }
  if (doc.contents !== null && !isMap(doc.contents)) {
    throw new LithosError('invalid_argument', `Refusing to rewrite the frontmatter of "${path}": it is not a key/value mapping. Fix it by hand first.`, { path });
  }
  const before = (doc.contents ? doc.toJSON() : {}) as Record<string, unknown>;
  const after = structuredClone(before);
  fn(after);
  const next = dropUndefined(after) as Record<string, unknown>;
  if (deepEqual(before, next)) return null;

  if (!doc.contents) doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
  applyMap(doc, doc.contents as YAMLMap, before, next);
  const map = doc.contents as YAMLMap;
  // A root-level `- item` means the human writes unindented block sequences; keep that style.
  const indentSeq = !/^-[ \t]/m.test(m[1] ?? '');
  const yamlText = map.items.length === 0 && !doc.commentBefore && !doc.comment ? '' : withEol(doc.toString({ ...TO_STRING, indentSeq }), eol);
  const body = rest.slice(m[0].length);
  // m[2] is '' when the file ends right after the closing fence; keep that as it was.
  return `${bom}---${eol}${yamlText}---${m[2]}${body}`;
}

/** Mutates `map` so that it represents `after`, touching only what differs from `before`. */
function applyMap(doc: Document, map: YAMLMap, before: Record<string, Json>, after: Record<string, Json>): void {
  for (const key of Object.keys(before)) {
    if (!(key in after)) {
      const pair = findPair(map, key);
      if (pair) map.items.splice(map.items.indexOf(pair), 1);
    }
  }
  for (const [key, value] of Object.entries(after)) {
    if (key in before && deepEqual(before[key], value)) continue;
    const pair = findPair(map, key);
    if (!pair) {
      map.items.push(doc.createPair(key, value));
      continue;
    }
    const old = before[key];
    if (isMap(pair.value) && isPlainObject(old) && isPlainObject(value)) {
      applyMap(doc, pair.value, old, value);
    } else if (isScalar(pair.value) && !isObjectLike(value)) {
      // Keeps the scalar's quoting style and its comments.
      pair.value.value = value;
    } else if (isSeq(pair.value) && Array.isArray(value)) {
      const fresh = doc.createNode(value);
      fresh.flow = pair.value.flow;
      fresh.commentBefore = pair.value.commentBefore;
      fresh.comment = pair.value.comment;
      pair.value = fresh;
    } else {
      pair.value = doc.createNode(value);
    }
  }
}

/** Finds a pair by its key as toJSON() spells it (numeric keys become strings there). */
function findPair(map: YAMLMap, key: string): Pair<unknown, unknown> | undefined {
  return map.items.find((p: Pair<unknown, unknown>) => String(isScalar(p.key) ? p.key.value : p.key) === key);
}

function withEol(s: string, eol: string): string {
  return eol === '\n' ? s : s.replace(/\r?\n/g, eol);
}

function isPlainObject(v: unknown): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isObjectLike(v: unknown): boolean {
  return typeof v === 'object' && v !== null;
}

/** `fm.x = undefined` means "remove x", as JSON would. */
function dropUndefined(v: Json): Json {
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : dropUndefined(x)));
  if (isPlainObject(v)) {
    const out: Record<string, Json> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = dropUndefined(x);
    return out;
  }
  return v;
}

function deepEqual(a: Json, b: Json): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}
