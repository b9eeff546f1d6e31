import type { Chunk } from './chunker';
import { tokenize } from './tokenizer';

export const SNIPPET_WIDTH = 200;

/**
 * The chunk that best explains a lexical hit: idf-weighted, saturated term counts (BM25's shape without
 * length normalisation, since the chunks of one note are of similar size). Ties go to the earlier chunk;
 * -1 when the note has no chunks.
 */
export function bestLexicalChunk(chunks: readonly Chunk[], queryTerms: ReadonlySet<string>, idf: (term: string) => number): number {
  let best = chunks.length > 0 ? 0 : -1;
  let bestScore = 0;
  for (const chunk of chunks) {
    const counts = new Map<string, number>();
    for (const t of tokenize(chunk.text)) if (queryTerms.has(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
    let score = 0;
    for (const [t, tf] of counts) score += (idf(t) * tf) / (tf + 1);
    if (score > bestScore) {
      bestScore = score;
      best = chunk.index;
    }
  }
  return best;
}

const WORD_CHAR_RE = /[\p{L}\p{N}\p{M}]/u;

/** Where a query term first occurs as a whole word (CJK terms anywhere); -1 when none does. */
function firstHit(lower: string, terms: readonly string[]): number {
  let first = -1;
  for (const term of terms) {
    const wordLike = !/[\p{scx=Han}\p{scx=Hira}\p{scx=Kana}]/u.test(term);
    let from = 0;
    while (from < lower.length) {
      const at = lower.indexOf(term, from);
      if (at < 0 || (first >= 0 && at >= first)) break;
      const before = at > 0 ? lower[at - 1] : ' ';
      const after = lower[at + term.length] ?? ' ';
      if (!wordLike || (!WORD_CHAR_RE.test(before) && !WORD_CHAR_RE.test(after))) {
        first = at;
        break;
      }
      from = at + 1;
    }
  }
  return first;
}

/** About `width` characters of `text` on one line, around the first query term, cut at spaces. */
export function makeSnippet(text: string, queryTerms: readonly string[], width: number = SNIPPET_WIDTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= width) return flat;
  const lower = flat.toLowerCase();
  const hit = lower.length === flat.length ? firstHit(lower, queryTerms) : -1;
  let start = hit < 0 ? 0 : Math.max(0, hit - Math.floor(width * 0.3));
  let end = Math.min(flat.length, start + width);
  start = Math.max(0, end - width);
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    if (space >= 0 && space - start < 20 && (hit < 0 || space < hit)) start = space + 1;
  }
  if (end < flat.length) {
    const space = flat.lastIndexOf(' ', end);
    if (space > start && end - space < 20) end = space;
    else if (/[\ud800-\udbff]/.test(flat[end - 1])) end -= 1; // never split an emoji's surrogate pair
  }
  return (start > 0 ? '…' : '') + flat.slice(start, end).trim() + (end < flat.length ? '…' : '');
}
