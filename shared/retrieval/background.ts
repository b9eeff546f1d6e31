/**
 * What "similar" and "stands out" mean in one vault and one embedding space, so that coherence is measured
 * against that background rather than against fixed cosines: the hashing space puts random notes of the
 * example vault at cosine 0.35 on average, a sentence model near 0.1, so a fixed ceiling saturates in one
 * space and is never reached in another.
 */
import { BACKGROUND } from './constants';
import { hashSeed, seededRandom } from './rng';
import { cosine } from './similarity';
import type { Contrast, Spread } from './scout-contract';

export type { Contrast, Spread } from './scout-contract';

/**
 * Cosine between random note pairs in the space of `vectorOf` (a seeded sample of at most BACKGROUND.pairs
 * pairs: the same vault gives the same background). Null with fewer than three notes with a vector.
 */
export function pairBackground(ids: readonly string[], vectorOf: (id: string) => Float32Array | null, seedText: string): Spread | null {
  if (ids.length < 3) return null;
  const random = seededRandom(hashSeed(seedText));
  const cache = new Map<string, Float32Array | null>();
  const vec = (id: string): Float32Array | null => {
    if (!cache.has(id)) cache.set(id, vectorOf(id));
    return cache.get(id)!;
  };
  // All pairs of a small vault, a sample of a large one: either way about BACKGROUND.pairs cosines.
  const all = (ids.length * (ids.length - 1)) / 2 <= BACKGROUND.pairs;
  const values: number[] = [];
  const add = (a: string, b: string): void => {
    const va = vec(a);
    const vb = vec(b);
    if (va && vb) values.push(cosine(va, vb));
  };
  if (all) {
    for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) add(ids[i], ids[j]);
  } else {
    for (let t = 0; t < BACKGROUND.pairs; t++) {
      const i = Math.floor(random() * ids.length);
      let j = Math.floor(random() * (ids.length - 1));
      if (j >= i) j++;
      add(ids[i], ids[j]);
    }
  }
  return values.length < 3 ? null : spread(values);
}

export function spread(values: readonly number[]): Spread {
  let s = 0;
  let s2 = 0;
  for (const v of values) {
    s += v;
    s2 += v * v;
  }
  const n = values.length;
  const mean = n ? s / n : 0;
  return { mean, sd: n ? Math.sqrt(Math.max(0, s2 / n - mean * mean)) : 0, n };
}

/**
 * How far the best of n draws of pure noise lies above their mean, in standard deviations (the expected
 * maximum of n standard normals, Gumbel approximation): a vault of 10k notes always has a best hit near
 * 3.9 sd even for a query about nothing, one of 50 notes near 2.2.
 */
export function noiseMaxZ(n: number): number {
  if (n < 2) return 0;
  const a = Math.sqrt(2 * Math.log(n));
  return a - (Math.log(Math.log(n)) + Math.log(4 * Math.PI)) / (2 * a) + 0.5772 / a;
}

/** How far the best score stands out of the query's own scores over the vault, beyond what noise gives (in sd). */
export function standOut(c: Contrast | null): number {
  if (!c || c.n < 2 || !(c.sd > 0)) return 0;
  return (c.top - c.mean) / c.sd - noiseMaxZ(c.n);
}
