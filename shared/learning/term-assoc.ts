/**
 * Learned term associations, the counting side (retrieval/term-assoc.ts reads them and says why): for
 * feedback on a receipt, each query term counts the notes shown and used, and each word of those notes'
 * text how many of the shown and of the used ones held it.
 *
 * Bounded: a term keeps the TERM_ASSOC.max_words_per_term words of highest value (a word enters when a
 * used note holds it, so its showings count from then on), a scope keeps max_terms terms, and decay
 * forgets terms seldom shown and long not counted.
 *
 * Scope, as query expansion (learning/query-expansion.ts expansionScope): the words are the notes' words
 * and the terms the asker's; they go to the shared rows only when every agent could read the receipt,
 * else to the asking agent's own rows (read only by that agent), else nowhere.
 */
import { tokenize } from '../index/tokenizer';
import type { Receipt } from '../retrieval/types';
import { TERM_ASSOC, wordValue } from '../retrieval/term-assoc';
import type { TermAssocRow } from '../stores/memory-types';
import type { LearningPorts } from './learning-ports';
import { expansionScope } from './query-expansion';

/** The distinct words of a text as the association counts them (the first max_note_words). */
function wordsOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of tokenize(text)) {
    if (out.size >= TERM_ASSOC.max_note_words) break;
    out.add(w);
  }
  return out;
}

/**
 * The terms' rows after one feedback: `before` holds the existing rows of `terms` in the scope; `shown`
 * the words of each note shown (passed-over exploration picks left out) and whether it was used.
 */
export function countAssociations(
  scope: string,
  terms: readonly string[],
  before: readonly TermAssocRow[],
  shown: readonly { words: ReadonlySet<string>; used: boolean }[],
  at: number,
): TermAssocRow[] {
  if (terms.length === 0 || shown.length === 0) return [];
  const inShown = new Map<string, number>();
  const inUsed = new Map<string, number>();
  for (const n of shown) {
    for (const w of n.words) {
      inShown.set(w, (inShown.get(w) ?? 0) + 1);
      if (n.used) inUsed.set(w, (inUsed.get(w) ?? 0) + 1);
    }
  }
  const used = shown.filter((n) => n.used).length;
  const old = new Map(before.map((r) => [r.term, r]));
  return terms.map((term) => {
    const prev = old.get(term);
    const row = { shown: (prev?.shown ?? 0) + shown.length, used: (prev?.used ?? 0) + used };
    const words = new Map<string, [number, number]>(Object.entries(prev?.words ?? {}).map(([w, [s, u]]) => [w, [s + (inShown.get(w) ?? 0), u + (inUsed.get(w) ?? 0)]]));
    for (const [w, u] of inUsed) if (w !== term && !words.has(w)) words.set(w, [inShown.get(w) ?? u, u]);
    const kept = [...words]
      .map(([w, c]) => ({ w, c, v: wordValue(row.shown, row.used, c[0], c[1]) }))
      .sort((a, b) => b.v - a.v || b.c[1] - a.c[1] || (a.w < b.w ? -1 : 1))
      .slice(0, TERM_ASSOC.max_words_per_term);
    return { scope, term, ...row, words: Object.fromEntries(kept.map((k) => [k.w, k.c])), at };
  });
}

/** Counts one feedback's associations; false when nothing was recorded (no scope, no terms, nothing shown). */
export async function recordTermAssoc(
  d: Pick<LearningPorts, 'memory' | 'search'>,
  receipt: Pick<Receipt, 'agent_id' | 'query_text'>,
  shown: readonly { id: string; used: boolean }[],
  at: number,
  everyAgentReads: boolean,
): Promise<boolean> {
  const scope = expansionScope(receipt, everyAgentReads);
  const terms = [...new Set(tokenize(receipt.query_text))].slice(0, TERM_ASSOC.max_query_terms);
  if (scope === null || terms.length === 0) return false;
  const notes = shown.flatMap((n) => {
    const text = d.search.noteText(n.id);
    return text === null ? [] : [{ words: wordsOf(text), used: n.used }];
  });
  const rows = countAssociations(scope, terms, d.memory.learned.assoc.rows(terms, [scope]), notes, at);
  if (rows.length === 0) return false;
  await d.memory.learned.assoc.put(rows, TERM_ASSOC.max_terms);
  return true;
}
