/** Seeded randomness for the synthetic vault: same seed, same vault, on every machine. */

/** sfc32 PRNG: small, fast, good statistical quality, fully determined by the seed. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    // Discard the first outputs so nearby seeds diverge.
    for (let i = 0; i < 15; i++) this.nextU32();
  }

  nextU32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextU32() / 4294967296;
  }

  /** Integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** An independent stream, so adding draws in one part of the generator does not shift another. */
  fork(salt: number): Rng {
    return new Rng((this.nextU32() ^ Math.imul(salt + 1, 0x85ebca6b)) >>> 0);
  }
}

/** Samples ranks 0..n-1 with P(rank r) ∝ 1 / (r + 1)^s, by binary search over the CDF. */
export class ZipfSampler {
  private readonly cdf: Float64Array;

  constructor(
    readonly n: number,
    readonly s = 1.07,
  ) {
    this.cdf = new Float64Array(n);
    let total = 0;
    for (let r = 0; r < n; r++) {
      total += 1 / Math.pow(r + 1, s);
      this.cdf[r] = total;
    }
    for (let r = 0; r < n; r++) this.cdf[r] /= total;
  }

  sample(rng: Rng): number {
    const u = rng.next();
    let lo = 0;
    let hi = this.n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Log-normal draw (median e^mu) clamped to [min, max]. */
export function logNormalInt(rng: Rng, mu: number, sigma: number, min: number, max: number): number {
  const x = Math.round(Math.exp(mu + sigma * rng.normal()));
  return Math.min(max, Math.max(min, x));
}
