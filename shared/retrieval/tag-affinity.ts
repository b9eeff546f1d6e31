/**
 * Reading the term–tag affinity at retrieval: the re-rank's tag_affinity term and its reason. What the
 * signal is and how feedback counts it: learning/tag-affinity.ts; both sides count tags as affinityTags does.
 */
import { normalizeText } from '../index/tokenizer';
import type { TagAffinityRow } from '../stores/memory-store';
import { TAG_AFFINITY } from './constants';
import type { AffinityScore, AffinityScorer } from './scout-contract';

/**
 * A note's tags as the affinity counts them: in the query terms' normal form (lowercased, NFKC, so `Café`
 * typed on macOS and on Windows is one tag), distinct, the first TAG_AFFINITY.max_tags.
 */
export function affinityTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((t) => normalizeText(t)).filter((t) => t !== ''))].slice(0, TAG_AFFINITY.max_tags);
}

const NONE: AffinityScore = { value: 0, reason: null };

/**
 * The scorer for a query's terms over the rows the store holds for them. Rates are smoothed toward the
 * level above (overall → term → term and tag) with TAG_AFFINITY.pseudo_count, so a pair seen a few times
 * barely moves from the term's own rate; terms shown fewer than min_term_shown times take no part.
 */
export function affinityScorer(
  rows: readonly TagAffinityRow[],
  terms: readonly string[],
  k: { pseudo_count: number; min_term_shown: number; cap: number; reason_min: number } = TAG_AFFINITY,
): AffinityScorer | null {
  const key = (t: string, g: string): string => `${t}\u0000${g}`;
  const byKey = new Map(rows.map((r) => [key(r.term, r.tag), r]));
  const all = byKey.get(key('', ''));
  if (!all) return null;
  const p = (all.used + 1) / (all.shown + 2);
  const rated: { term: string; rate: number }[] = [];
  for (const t of new Set(terms)) {
    const r = byKey.get(key(t, ''));
    if (r && r.shown >= k.min_term_shown) rated.push({ term: t, rate: (r.used + k.pseudo_count * p) / (r.shown + k.pseudo_count) });
  }
  if (rated.length === 0) return null;
  return (tags) => {
    const gs = affinityTags(tags);
    if (gs.length === 0) return NONE;
    let sum = 0;
    const pairs: { l: number; term: string; tag: string; row: TagAffinityRow }[] = [];
    for (const { term, rate } of rated) {
      for (const g of gs) {
        const r = byKey.get(key(term, g));
        if (!r) continue;
        const l = Math.log((r.used + k.pseudo_count * rate) / (r.shown + k.pseudo_count) / rate);
        sum += l;
        pairs.push({ l, term, tag: g, row: r });
      }
    }
    const value = Math.max(-k.cap, Math.min(k.cap, sum / (rated.length * gs.length)));
    if (value === 0) return NONE;
    // A shift too small to move a note past another is not worth a line in the result.
    if (Math.abs(value) < k.reason_min) return { value, reason: null };
    // The pair that pulls the most the way the mean went (a strong pair the other way would not explain it).
    let best: (typeof pairs)[number] | null = null;
    for (const pair of pairs) if (Math.sign(pair.l) === Math.sign(value) && (!best || Math.abs(pair.l) > Math.abs(best.l))) best = pair;
    if (!best) return { value, reason: null };
    const reason = `tag affinity ${value > 0 ? '+' : ''}${value.toFixed(2)}: notes tagged #${best.tag} were used ${best.row.used} of ${best.row.shown} times shown for "${best.term}"`;
    return { value, reason };
  };
}
