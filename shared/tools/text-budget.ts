/**
 * The paging rule for long text in tool results: an agent's context is a budget, so a tool never returns
 * more than `max_chars` characters of one text at once. The rest is read with `offset` (the previous
 * page's `next_offset`). Every tool returning a note body or other unbounded text uses this.
 */
import { z } from 'zod';

export const DEFAULT_MAX_CHARS = 20_000;
export const MAX_MAX_CHARS = 100_000;

/** The two arguments of a paged text, to spread into a tool's input shape. */
export const pageShape = {
  offset: z.number().int().min(0).default(0).describe('Start here (next_offset of the last page).'),
  max_chars: z.number().int().min(1).max(MAX_MAX_CHARS).default(DEFAULT_MAX_CHARS).describe('Most characters to return.'),
};

export interface PageArgs {
  offset: number;
  max_chars: number;
}

export interface TextPage {
  /** The slice returned. */
  text: string;
  /** Whether any text lies outside this slice (before or after it). */
  truncated: boolean;
  total_chars: number;
  offset: number;
  /** Where the next page starts; null when this one reaches the end. */
  next_offset: number | null;
}

/** A slice this short or shorter is not pulled back to a line end: the page would lose too much. */
const MIN_LINE_CUT = 0.5;

/**
 * At most `max_chars` characters of `text` from `offset`. A cut that is not at the end falls after the last
 * newline of the slice when that keeps at least half of it (a page ends on a whole line), and never between
 * the two halves of a surrogate pair (an emoji is not split into invalid text). An offset inside a pair
 * starts at the pair; an offset past the end gives an empty page.
 */
export function pageOf(text: string, args: PageArgs): TextPage {
  const total = text.length;
  let start = Math.min(Math.max(0, args.offset), total);
  if (start > 0 && start < total && isLowSurrogate(text.charCodeAt(start)) && isHighSurrogate(text.charCodeAt(start - 1))) start -= 1;
  let end = Math.min(total, start + Math.max(1, args.max_chars));
  if (end < total) {
    const nl = text.lastIndexOf('\n', end - 1);
    if (nl >= start && nl + 1 - start >= MIN_LINE_CUT * (end - start)) end = nl + 1;
    else if (isLowSurrogate(text.charCodeAt(end)) && isHighSurrogate(text.charCodeAt(end - 1)) && end - 1 > start) end -= 1;
  }
  return { text: text.slice(start, end), truncated: start > 0 || end < total, total_chars: total, offset: start, next_offset: end < total ? end : null };
}

/** What a result says about a page besides the text itself, with a hint an agent can follow as it stands. */
export function pageInfo(page: TextPage, how: string): Omit<TextPage, 'text'> & { hint: string | null } {
  const { text, ...info } = page;
  void text;
  const hint = page.next_offset === null ? null : `Showing characters ${page.offset}–${page.next_offset} of ${page.total_chars}. ${how}`;
  return { ...info, hint };
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
