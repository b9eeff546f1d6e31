import type { NoteLink } from './types';
import { forEachProseLine } from './markdown-lines';

export { extractHeadings } from './headings';
export { extractInlineTags } from './tags';

/** `[[...]]` / `![[...]]`; the inner text cannot contain brackets or span lines (Obsidian's rule). */
const WIKI_RE = /(!?)\[\[([^[\]\n]*)\]\]/g;

/**
 * `[text](dest)` / `![alt](dest)`: text may hold one level of brackets or escapes; dest is `<...>` or
 * a run without spaces (balanced parentheses allowed), optionally followed by a quoted title.
 * Alternations are disjoint on their first character, and each run of blanks is taken atomically
 * (`(?=([ \t]*))\N`), so a failing match costs linear time, never one retry per split of the blanks.
 * Groups: 1 `!`, 4 `<dest>`, 5 plain dest.
 */
const MD_RE =
  /(!?)\[((?:[^[\]\n\\]|\\.|\[[^[\]\n]*\])*)\]\((?=([ \t]*))\3(?:<([^<>\n]*)>|((?:[^\s()<>\\]|\\.)*(?:\((?:[^\s()\\]|\\.)*\)(?:[^\s()<>\\]|\\.)*)*))(?=([ \t]*))\6(?:(?:"[^"\n]*"|'[^'\n]*')(?=([ \t]*))\7)?\)/g;

/** `scheme:` (http:, mailto:, obsidian:, file:, ...) or `//host`: never a note in this vault. */
const EXTERNAL_RE = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;
const EXTENSION_RE = /\.([^./]*)$/;

/** Links in a note body (after the frontmatter), in reading order. Links in code are ignored. */
export function extractLinks(body: string): NoteLink[] {
  const out: NoteLink[] = [];
  forEachProseLine(body, (_line, masked, index) => linksInLine(masked, index, out));
  return out;
}

/** Nested properties deeper than this are not searched for links (frontmatter is small; this bounds a hostile one). */
const MAX_PROPERTY_DEPTH = 8;

/**
 * Wiki-links in frontmatter property values (`related: "[[Other]]"`, lists of them, nested mappings), as
 * Obsidian records them in frontmatterLinks: they count in the link graph and as backlinks like body links.
 * Markdown links there are plain text to Obsidian, so they are not links here either. Keys in document order.
 */
export function frontmatterLinks(frontmatter: Record<string, unknown>): NoteLink[] {
  const out: NoteLink[] = [];
  const visit = (value: unknown, key: string, depth: number): void => {
    if (depth > MAX_PROPERTY_DEPTH) return;
    if (typeof value === 'string') {
      if (value.indexOf('[[') === -1) return;
      const found: NoteLink[] = [];
      wikiLinks(value, -1, found, null);
      for (const l of found) out.push({ ...l, property: key });
    } else if (Array.isArray(value)) value.forEach((v, i) => visit(v, `${key}.${i}`, depth + 1));
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, `${key}.${k}`, depth + 1);
  };
  for (const [k, v] of Object.entries(frontmatter)) visit(v, k, 0);
  return out;
}

/** Appends the links of one line (inline code already masked) to `out`, ordered by column. */
export function linksInLine(masked: string, line: number, out: NoteLink[]): void {
  if (masked.indexOf('[') === -1) return;
  const hasWiki = masked.indexOf('[[') !== -1;
  const hasMarkdown = masked.indexOf('](') !== -1;
  if (hasWiki && !hasMarkdown) {
    wikiLinks(masked, line, out, null);
    return;
  }
  if (!hasMarkdown) return;
  // Both kinds may be present: collect with columns, then merge in reading order.
  const starts: number[] = [];
  const found: NoteLink[] = [];
  let rest = masked;
  if (hasWiki) {
    wikiLinks(masked, line, found, starts);
    // Blank the wiki links out so the markdown pattern cannot match across them.
    rest = masked.replace(WIKI_RE, (m) => ' '.repeat(m.length));
  }
  const wikiCount = found.length;
  MD_RE.lastIndex = 0;
  for (let m = MD_RE.exec(rest); m; m = MD_RE.exec(rest)) {
    const link = markdownLink(m[0], m[1] === '!', m[4] ?? m[5] ?? '', line);
    if (link) {
      found.push(link);
      starts.push(m.index);
    }
  }
  if (wikiCount === 0 || wikiCount === found.length) {
    for (const l of found) out.push(l);
    return;
  }
  const order = found.map((_, i) => i).sort((a, b) => starts[a] - starts[b]);
  for (const i of order) out.push(found[i]);
}

function wikiLinks(masked: string, line: number, out: NoteLink[], starts: number[] | null): void {
  WIKI_RE.lastIndex = 0;
  for (let m = WIKI_RE.exec(masked); m; m = WIKI_RE.exec(masked)) {
    const link = wikiLink(m[0], m[1] === '!', m[2], line);
    if (link) {
      out.push(link);
      starts?.push(m.index);
    }
  }
}

function wikiLink(raw: string, embed: boolean, inner: string, line: number): NoteLink | null {
  const bar = inner.indexOf('|');
  let left = bar === -1 ? inner : inner.slice(0, bar);
  // Inside tables the pipe is escaped as `\|`; the backslash belongs to the syntax, not the target.
  if (bar !== -1 && left.endsWith('\\')) left = left.slice(0, -1);
  const alias = bar === -1 ? undefined : inner.slice(bar + 1).trim();
  const parts = splitSubpath(left.trim());
  if (parts.target === '' && parts.heading === undefined && parts.block === undefined) return null;
  return build(raw, parts, embed, 'wiki', line, alias);
}

function markdownLink(raw: string, embed: boolean, dest: string, line: number): NoteLink | null {
  const trimmed = dest.replace(/\\(.)/g, '$1').trim();
  if (trimmed === '' || EXTERNAL_RE.test(trimmed)) return null;
  const hash = trimmed.indexOf('#');
  const pathPart = decode(hash === -1 ? trimmed : trimmed.slice(0, hash)).trim();
  const sub = hash === -1 ? undefined : decode(trimmed.slice(hash + 1)).trim();
  if (pathPart.endsWith('/')) return null;
  const ext = EXTENSION_RE.exec(pathPart.slice(pathPart.lastIndexOf('/') + 1));
  // Only notes: `x.md` or an extension-less name (Obsidian resolves `[t](Note)` to Note.md).
  if (ext && ext[1].toLowerCase() !== 'md') return null;
  const parts = sub === undefined ? { target: pathPart } : splitSubpath(`${pathPart}#${sub}`);
  if (parts.target === '' && !parts.heading && !parts.block) return null;
  return build(raw, parts, embed, 'markdown', line);
}

interface Parts {
  target: string;
  heading?: string;
  block?: string;
}

/** `t#heading`, `t#^block`, `t^block` (Obsidian accepts the block form without '#'), `#heading`. */
function splitSubpath(text: string): Parts {
  const hash = text.indexOf('#');
  if (hash !== -1) {
    const target = text.slice(0, hash).trim();
    const sub = text.slice(hash + 1).trim();
    if (sub.startsWith('^')) return { target, block: sub.slice(1).trim() };
    return sub === '' ? { target } : { target, heading: sub };
  }
  const caret = text.indexOf('^');
  if (caret !== -1) return { target: text.slice(0, caret).trim(), block: text.slice(caret + 1).trim() };
  return { target: text };
}

function build(raw: string, parts: Parts, embed: boolean, kind: NoteLink['kind'], line: number, alias?: string): NoteLink {
  const link: NoteLink = { raw, target: parts.target, embed, kind, line };
  if (parts.heading) link.heading = parts.heading;
  if (parts.block) link.block = parts.block;
  if (alias) link.alias = alias;
  return link;
}

function decode(s: string): string {
  if (s.indexOf('%') === -1) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s; // a stray '%' (e.g. "100%.md") is literal text, not an escape
  }
}
