import { forEachProseLine } from './markdown-lines';

/**
 * Obsidian's inline tag rule: '#' at the start of a line or after whitespace (so URL fragments,
 * `[[note#heading]]` and `&#39;` never count), then letters of any script, digits, `_`, `-`, `/`.
 * Marks (\p{M}) are allowed so that scripts with combining vowels (Hindi, Thai) keep whole words.
 */
const INLINE_TAG_RE = /(?:^|\s)#([\p{L}\p{M}\p{N}_\-/]+)/gu;
const ALL_DIGITS_RE = /^[0-9]+$/;

/** A tag needs at least one non-digit character (`#1984` is not a tag, `#y1984` is). */
export function isValidTagBody(tag: string): boolean {
  return tag !== '' && !ALL_DIGITS_RE.test(tag);
}

/**
 * The words a tag or an entity is matched by (`project/lithos` → project, lithos): lowercase, split on
 * anything but letters and digits, one-letter pieces dropped.
 */
export function labelWords(label: string): string[] {
  return label.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1);
}

/** Strips the leading '#'s and surrounding whitespace; '' when nothing remains. */
export function normalizeTag(raw: string): string {
  return raw.trim().replace(/^#+/, '').trim();
}

/** Adds each tag of `source` to `out` unless already present in another case (first spelling wins). */
export function mergeTags(out: string[], seen: Set<string>, source: Iterable<string>): void {
  for (const t of source) {
    const key = t.toLowerCase();
    if (t === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(t);
  }
}

/** Inline tags in one line whose inline code is already masked. */
export function tagsInLine(masked: string, out: string[]): void {
  if (masked.indexOf('#') === -1) return;
  INLINE_TAG_RE.lastIndex = 0;
  for (let m = INLINE_TAG_RE.exec(masked); m; m = INLINE_TAG_RE.exec(masked)) {
    if (isValidTagBody(m[1])) out.push(m[1]);
  }
}

/** Inline `#tags` outside code, without '#', de-duplicated case-insensitively in order of appearance. */
export function extractInlineTags(body: string): string[] {
  const found: string[] = [];
  forEachProseLine(body, (_line, masked) => tagsInLine(masked, found));
  const out: string[] = [];
  mergeTags(out, new Set(), found);
  return out;
}
