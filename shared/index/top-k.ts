/**
 * The k best items under `better` (a strict total order), best first, without sorting all n candidates:
 * O(n·log k) comparisons for the usual k ≪ n of a search.
 */
export function topK<T>(items: Iterable<T>, k: number, better: (a: T, b: T) => boolean): T[] {
  const top: T[] = [];
  if (k <= 0) return top;
  for (const item of items) {
    if (top.length === k && !better(item, top[k - 1])) continue;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (better(item, top[mid])) hi = mid;
      else lo = mid + 1;
    }
    top.splice(lo, 0, item);
    if (top.length > k) top.pop();
  }
  return top;
}
