/**
 * How often each concept note was retrieved in the last 24 h, for the repeated-retrieval penalty
 * (rerank.ts). Kept in memory per process, fed by every recorded retrieval and seeded once from the
 * receipt log before the first one, so a restart does not forget the day; only concept notes are
 * tracked, so it stays small.
 */
import { CONCEPT_REPEAT_WINDOW_MS } from './constants';

export class RecentRetrievals {
  private readonly times = new Map<string, number[]>();

  /** One retrieval of each id at `at` (ms). */
  record(ids: Iterable<string>, at: number): void {
    for (const id of ids) {
      const list = this.times.get(id);
      if (list) list.push(at);
      else this.times.set(id, [at]);
    }
  }

  /** Seeds from receipts (their times and final node ids): only the ids `track` accepts are kept. */
  seed(receipts: readonly { ts: string; ids: readonly string[] }[], track: (id: string) => boolean): void {
    for (const r of receipts) {
      const at = Date.parse(r.ts);
      if (Number.isFinite(at)) this.record(r.ids.filter(track), at);
    }
  }

  /** Retrievals of `id` in (now − 24 h, now]; times that fell out of every window are dropped. */
  count(id: string, now: number): number {
    const list = this.times.get(id);
    if (!list) return 0;
    const from = now - CONCEPT_REPEAT_WINDOW_MS;
    const live = list.filter((t) => t > from);
    if (live.length !== list.length) {
      if (live.length) this.times.set(id, live);
      else this.times.delete(id);
    }
    let n = 0;
    for (const t of live) if (t <= now) n++;
    return n;
  }
}
