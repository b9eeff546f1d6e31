import { parseDocument } from 'yaml';
import { fastParseYamlMapping } from './frontmatter-fast';

export interface FrontmatterSplit {
  /** The YAML between the fences ('' for an empty block), null when the file has no frontmatter block. */
  yaml: string | null;
  /** Everything after the closing fence line (the whole text when there is no block). */
  body: string;
  /** 0-based line of the file where `body` starts. */
  bodyStartLine: number;
}

export type FrontmatterParse =
  | { kind: 'mapping'; data: Record<string, unknown> }
  | { kind: 'not_mapping'; found: string }
  | { kind: 'malformed'; message: string };

const OPEN_RE = /^---[ \t]*$/;
const CLOSE_RE = /^(?:---|\.\.\.)[ \t]*$/;

/**
 * Obsidian's frontmatter rule: `---` alone on the very first line, closed by `---` (or YAML's `...`)
 * alone on a later line. A block that is never closed is not frontmatter: the whole text is body.
 * A leading BOM is ignored; CRLF line endings are accepted (the returned YAML uses LF).
 */
export function splitFrontmatter(text: string): FrontmatterSplit {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const none: FrontmatterSplit = { yaml: null, body: src, bodyStartLine: 0 };
  const firstEnd = src.indexOf('\n');
  if (firstEnd === -1 || !OPEN_RE.test(stripCr(src.slice(0, firstEnd)))) return none;
  const yamlStart = firstEnd + 1;
  let start = yamlStart;
  let line = 1;
  while (start < src.length) {
    let end = src.indexOf('\n', start);
    if (end === -1) end = src.length;
    const c = src.charCodeAt(start);
    // Only lines starting with '-' or '.' can close the block; skip the regex for all others.
    if ((c === 45 || c === 46) && CLOSE_RE.test(stripCr(src.slice(start, end)))) {
      const yaml = stripCr(src.slice(yamlStart, Math.max(yamlStart, start - 1)));
      return {
        yaml: yaml.indexOf('\r') === -1 ? yaml : yaml.replace(/\r\n/g, '\n'),
        body: end >= src.length ? '' : src.slice(end + 1),
        bodyStartLine: line + 1,
      };
    }
    start = end + 1;
    line++;
  }
  return none;
}

/**
 * Parses frontmatter YAML without ever throwing. Simple frontmatter (the common case) takes a fast
 * exact path; anything else goes through the `yaml` package (YAML 1.2 core schema, so
 * `2024-01-02` stays a string, alias expansion is capped against "billion laughs").
 */
export function parseFrontmatterYaml(yaml: string): FrontmatterParse {
  const fast = fastParseYamlMapping(yaml);
  if (fast !== undefined) return { kind: 'mapping', data: fast };
  if (nestingDepth(yaml) > MAX_YAML_DEPTH) {
    return { kind: 'malformed', message: `nested more than ${MAX_YAML_DEPTH} levels deep` };
  }
  let value: unknown;
  try {
    const doc = parseDocument(yaml, { prettyErrors: false });
    if (doc.errors.length > 0) return { kind: 'malformed', message: firstLine(doc.errors[0].message) };
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return { kind: 'malformed', message: firstLine(err instanceof Error ? err.message : String(err)) };
  }
  // `a: &a [*a]` is valid YAML and becomes a value that contains itself: everything downstream (JSON,
  // rewriting the block, validation) would recurse forever on it.
  if (refersToItself(value)) return { kind: 'malformed', message: 'an alias refers to the node it is in (a recursive structure)' };
  // An empty block or one holding only comments is an empty mapping, as in Obsidian.
  if (value === null || value === undefined) return { kind: 'mapping', data: {} };
  if (typeof value === 'object' && !Array.isArray(value) && !(value instanceof Uint8Array) && !(value instanceof Date)) {
    return { kind: 'mapping', data: value as Record<string, unknown> };
  }
  return { kind: 'not_mapping', found: Array.isArray(value) ? 'a list' : `a ${typeof value}` };
}

/** True when a parsed value contains itself (only a recursive alias can make one). Depth is capped by MAX_YAML_DEPTH. */
function refersToItself(value: unknown, path: Set<object> = new Set(), done: Set<object> = new Set()): boolean {
  if (value === null || typeof value !== 'object' || done.has(value)) return false; // `done`: aliases share nodes, walk each once
  if (path.has(value)) return true;
  path.add(value);
  const children = value instanceof Map ? [...value.values()] : value instanceof Set ? [...value] : Object.values(value);
  const found = children.some((c) => refersToItself(c, path, done));
  path.delete(value);
  done.add(value);
  return found;
}

/**
 * The `yaml` package recurses once per nesting level; past ~2000 levels it overflows the stack, and
 * V8 may then abort the whole process instead of throwing. Real frontmatter nests a few levels, so
 * anything deeper than this is refused before parsing.
 */
const MAX_YAML_DEPTH = 128;

/**
 * Upper bound on the nesting depth, in one pass: open flow brackets, or a line's indentation plus
 * its leading `- ` / `? ` markers (each block level needs at least one column). Quotes are not
 * tracked, so brackets inside strings count too: that only over-estimates.
 */
function nestingDepth(yaml: string): number {
  let max = 0;
  let flow = 0;
  let atLineStart = true;
  let lineDepth = 0;
  for (let i = 0; i < yaml.length; i++) {
    const c = yaml.charCodeAt(i);
    if (c === 10) {
      atLineStart = true;
      lineDepth = 0;
      continue;
    }
    if (atLineStart) {
      if (c === 32 || c === 9 || ((c === 45 || c === 63) && yaml.charCodeAt(i + 1) === 32)) {
        if (++lineDepth > max) max = lineDepth;
        continue;
      }
      atLineStart = false;
    }
    if (c === 91 || c === 123) {
      if (++flow > max) max = flow;
    } else if ((c === 93 || c === 125) && flow > 0) flow--;
  }
  return max;
}

function stripCr(s: string): string {
  return s.endsWith('\r') ? s.slice(0, -1) : s;
}

function firstLine(s: string): string {
  const i = s.indexOf('\n');
  return (i === -1 ? s : s.slice(0, i)).trim();
}
