/**
 * Does what the agent did with a note predict whether it is relevant to a later, different question? For
 * the notes the fresh index returned to the held-out queries, grouped by the history feedback then gave
 * them (used at least once; only ignored, 1, 2 or 3+ times; never shown), how many the qrels call
 * relevant. Any learned per-note prior can only be as good as the spread of these shares.
 */
import type { NodeStats } from '../../shared/stores/memory-types';

export const HISTORY_BUCKETS = ['used', 'ignored_1', 'ignored_2', 'ignored_3_plus', 'not_shown'] as const;
export type HistoryBucket = (typeof HISTORY_BUCKETS)[number];
export type HistoryRates = Record<HistoryBucket, { notes: number; relevant: number }>;

export function bucketOf(stats: Pick<NodeStats, 'use_count' | 'ignored_count'>): HistoryBucket {
  if (stats.use_count > 0) return 'used';
  if (stats.ignored_count >= 3) return 'ignored_3_plus';
  if (stats.ignored_count === 2) return 'ignored_2';
  if (stats.ignored_count === 1) return 'ignored_1';
  return 'not_shown';
}

export function emptyRates(): HistoryRates {
  return Object.fromEntries(HISTORY_BUCKETS.map((b) => [b, { notes: 0, relevant: 0 }])) as HistoryRates;
}

/** Tallies each returned note (one count per query that returned it) by its history now. */
export function historyRates(returned: readonly (readonly { id: string; relevant: boolean }[])[], stats: (id: string) => Pick<NodeStats, 'use_count' | 'ignored_count'>): HistoryRates {
  const out = emptyRates();
  for (const list of returned) {
    for (const n of list) {
      const b = out[bucketOf(stats(n.id))];
      b.notes++;
      if (n.relevant) b.relevant++;
    }
  }
  return out;
}

export function sumRates(all: readonly HistoryRates[]): HistoryRates {
  const out = emptyRates();
  for (const r of all) {
    for (const b of HISTORY_BUCKETS) {
      out[b].notes += r[b].notes;
      out[b].relevant += r[b].relevant;
    }
  }
  return out;
}

/** "used 8.1% (n=1005) · ignored 1× 4.1% …": the share relevant per bucket, for the text report. */
export function formatRates(r: HistoryRates): string {
  const label: Record<HistoryBucket, string> = { used: 'used', ignored_1: 'ignored 1×', ignored_2: 'ignored 2×', ignored_3_plus: 'ignored 3×+', not_shown: 'never shown' };
  return HISTORY_BUCKETS.map((b) => `${label[b]} ${r[b].notes ? ((100 * r[b].relevant) / r[b].notes).toFixed(1) + '%' : '–'} (n=${r[b].notes})`).join(' · ');
}

/**
 * How much of the held-out answers feedback could have taught at all: of the held-out queries' relevant
 * notes (one per query and note), how many the qrels also call relevant to a training query, and how many
 * feedback actually saw used (a training query returned them in its top ten). A learned per-note prior can
 * only lift the second; signals that carry over to other notes are needed for the rest.
 */
export interface Reach {
  relevant: number;
  relevant_in_training: number;
  used_in_training: number;
}

export function reachOf(heldOut: readonly (readonly string[])[], relevantInTraining: ReadonlySet<string>, used: (id: string) => boolean): Reach {
  const out: Reach = { relevant: 0, relevant_in_training: 0, used_in_training: 0 };
  for (const ids of heldOut) {
    for (const id of ids) {
      out.relevant++;
      if (relevantInTraining.has(id)) out.relevant_in_training++;
      if (used(id)) out.used_in_training++;
    }
  }
  return out;
}

export function sumReach(all: readonly Reach[]): Reach {
  const out: Reach = { relevant: 0, relevant_in_training: 0, used_in_training: 0 };
  for (const r of all) {
    out.relevant += r.relevant;
    out.relevant_in_training += r.relevant_in_training;
    out.used_in_training += r.used_in_training;
  }
  return out;
}

/** "412 relevant · 43.2% relevant to a training query · 21.1% used by feedback", for the text report. */
export function formatReach(r: Reach): string {
  const pct = (n: number): string => (r.relevant ? `${((100 * n) / r.relevant).toFixed(1)}%` : '–');
  return `${r.relevant} relevant · ${pct(r.relevant_in_training)} relevant to a training query · ${pct(r.used_in_training)} used by feedback`;
}
