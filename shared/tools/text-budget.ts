/**
 * The paging rule for long text in tool results: an agent's context is a budget, so a tool never returns
 * more than `max_chars` characters of one text at once. The rest is read with `offset` (the previous
 * page's `next_offset`). Every tool returning a note body or other unbounded text uses this.
 */
import { z } from 'zod';
import { LithosError } from '../errors';

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

// ── values and lists ────────────────────────────────────────────────────

/** The most characters of JSON one value from a note or an agent (frontmatter, evidence, metadata, a quoted text) takes in a result. */
export const FIELD_MAX_CHARS = 2_000;
/** A page of a list stops before its items pass this many characters of JSON, even short of `limit`. */
export const LIST_MAX_CHARS = DEFAULT_MAX_CHARS;

/** `text` cut to at most `max` characters, ending with … when cut (never inside a surrogate pair). */
export function clipText(text: string, max: number = FIELD_MAX_CHARS): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
  return text.slice(0, end) + '…';
}

/**
 * A JSON value kept to about `max` characters of JSON, its shape unchanged: strings past the budget are cut
 * (ending with …), array items and object keys past it left out. `truncated` says whether anything was.
 */
export function boundJson<T>(value: T, max: number = FIELD_MAX_CHARS): { value: T; truncated: boolean } {
  if (JSON.stringify(value ?? null).length <= max) return { value, truncated: false };
  let left = max;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const keep = Math.max(0, Math.min(v.length, left - 2));
      left -= keep + 2;
      return clipText(v, keep);
    }
    if (Array.isArray(v)) {
      left -= 2;
      const out: unknown[] = [];
      for (const x of v) {
        if (left <= 0) break;
        out.push(walk(x));
        left -= 1;
      }
      return out;
    }
    if (v !== null && typeof v === 'object') {
      left -= 2;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        if (left <= 0) break;
        left -= k.length + 4;
        out[k] = walk(x);
      }
      return out;
    }
    left -= JSON.stringify(v ?? null).length;
    return v;
  };
  return { value: walk(value) as T, truncated: true };
}

/** A paged list's cursor argument: one definition, since every listed tool repeats it (the instructions say how paging works). */
export const cursorArg = z.string().min(1).optional().describe('From next_cursor.');

/** The two arguments of a paged list, to spread into a tool's input shape. */
export function listShape(defaultLimit: number, maxLimit: number) {
  return {
    limit: z.number().int().min(1).max(maxLimit).default(defaultLimit).describe('Page size.'),
    cursor: cursorArg,
  };
}

const AT = 'at:';

/** The positions a cursor of `pageItems`/`cursorOf` holds (one per list it pages); zeros without one. */
export function cursorStarts(cursor: string | undefined, lists: number, tool: string): number[] {
  if (cursor === undefined) return new Array<number>(lists).fill(0);
  const parts = cursor.startsWith(AT) ? cursor.slice(AT.length).split(',') : [];
  const starts = parts.map((p) => (/^\d{1,9}$/.test(p) ? Number(p) : NaN));
  if (starts.length !== lists || starts.some((n) => !Number.isFinite(n))) {
    throw new LithosError('invalid_argument', `cursor is not one ${tool} returned; pass next_cursor unchanged.`, { field: 'cursor' });
  }
  return starts;
}

/** The cursor for the next page: null when every list is at its end (a null position). */
export function cursorOf(next: (number | null)[]): string | null {
  return next.every((n) => n === null) ? null : AT + next.map((n) => n ?? 0).join(',');
}

/**
 * Items from `start`: at most `limit`, and no more once they pass `budget` characters of JSON (the first
 * always comes, so a page is never empty while items remain). `next` is where the next page starts.
 */
export function takePage<T>(items: readonly T[], start: number, limit: number, budget: number = LIST_MAX_CHARS): { page: T[]; next: number | null } {
  const page: T[] = [];
  let used = 0;
  let i = start;
  for (; i < items.length && page.length < limit; i++) {
    const size = JSON.stringify(items[i]).length + 1;
    if (page.length > 0 && used + size > budget) break;
    page.push(items[i]);
    used += size;
  }
  return { page, next: i < items.length ? i : null };
}

/** One list paged by `limit` and `cursor`: the page, the total and the cursor of the next page. */
export function pageItems<T>(items: readonly T[], a: { limit: number; cursor?: string }, tool: string, budget?: number): { page: T[]; total: number; next_cursor: string | null } {
  const [start] = cursorStarts(a.cursor, 1, tool);
  const { page, next } = takePage(items, start, a.limit, budget);
  return { page, total: items.length, next_cursor: cursorOf([next]) };
}
