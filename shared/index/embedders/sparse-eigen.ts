/**
 * Top eigenpairs (by magnitude) of a sparse symmetric matrix by randomized range finding (Halko, Martinsson
 * & Tropp 2011): a seeded Gaussian sketch, a few power iterations with re-orthonormalisation, then the exact
 * eigen-decomposition of the small projected matrix Qᵀ·A·Q (cyclic Jacobi). For a symmetric matrix these
 * are its singular vectors, at half the products of a general SVD. Plain TypeScript, Float64, every loop in
 * a fixed order: the same matrix and seed give bit-identical factors.
 */
export interface SparseRows {
  n: number;
  /** row i's entries are at [start[i], start[i+1]) of col/val */
  start: Int32Array;
  col: Int32Array;
  val: Float64Array;
}

const OVERSAMPLE = 10;
const POWER_ITERATIONS = 2;

/** Top `rank` eigenvectors (row-major n×rank) and |eigenvalues| (the singular values), largest first. */
export function truncatedEigen(a: SparseRows, rank: number, seed: number): { u: Float64Array; s: Float64Array } {
  const n = a.n;
  const l = Math.min(rank + OVERSAMPLE, n);
  const rng = gaussian(seed);
  let y: Float64Array = new Float64Array(n * l);
  for (let i = 0; i < y.length; i++) y[i] = rng();
  for (let it = 0; it <= POWER_ITERATIONS; it++) {
    y = multiply(a, y, l);
    orthonormalise(y, n, l);
  }
  const ay = multiply(a, y, l);
  const g = new Float64Array(l * l);
  for (let r = 0; r < n; r++) {
    const base = r * l;
    for (let i = 0; i < l; i++) {
      const x = y[base + i];
      if (x === 0) continue;
      for (let j = 0; j < l; j++) g[i * l + j] += x * ay[base + j];
    }
  }
  for (let i = 0; i < l; i++) {
    for (let j = 0; j < i; j++) {
      const m = (g[i * l + j] + g[j * l + i]) / 2;
      g[i * l + j] = m;
      g[j * l + i] = m;
    }
  }
  const { values, vectors } = jacobiEigen(g, l);
  const order = Array.from({ length: l }, (_, i) => i).sort((x, z) => Math.abs(values[z]) - Math.abs(values[x]) || x - z);
  const k = Math.min(rank, l);
  const s = new Float64Array(k);
  const u = new Float64Array(n * k);
  for (let c = 0; c < k; c++) {
    const e = order[c];
    s[c] = Math.abs(values[e]);
    // A sign convention (largest-magnitude entry positive) so the factors do not flip between equal inputs.
    let big = 0;
    for (let i = 0; i < n; i++) {
      let x = 0;
      for (let j = 0; j < l; j++) x += y[i * l + j] * vectors[j * l + e];
      u[i * k + c] = x;
      if (Math.abs(x) > Math.abs(big)) big = x;
    }
    if (big < 0) for (let i = 0; i < n; i++) u[i * k + c] = -u[i * k + c];
  }
  return { u, s };
}

/** A·X for dense row-major X (n × l). */
function multiply(a: SparseRows, x: Float64Array, l: number): Float64Array {
  const out = new Float64Array(a.n * l);
  for (let i = 0; i < a.n; i++) {
    const o = i * l;
    for (let e = a.start[i]; e < a.start[i + 1]; e++) {
      const v = a.val[e];
      const b = a.col[e] * l;
      for (let c = 0; c < l; c++) out[o + c] += v * x[b + c];
    }
  }
  return out;
}

/**
 * Modified Gram-Schmidt on the l columns of row-major y (n × l), in place; a dependent column becomes 0.
 * Done on a column-major copy: contiguous columns make it several times faster than strided access.
 */
function orthonormalise(y: Float64Array, n: number, l: number): void {
  const t = new Float64Array(n * l);
  for (let i = 0; i < n; i++) for (let c = 0; c < l; c++) t[c * n + i] = y[i * l + c];
  for (let c = 0; c < l; c++) {
    const cb = c * n;
    for (let p = 0; p < c; p++) {
      const pb = p * n;
      let dot = 0;
      for (let i = 0; i < n; i++) dot += t[cb + i] * t[pb + i];
      if (dot !== 0) for (let i = 0; i < n; i++) t[cb + i] -= dot * t[pb + i];
    }
    let norm = 0;
    for (let i = 0; i < n; i++) norm += t[cb + i] * t[cb + i];
    const inv = norm > 1e-300 ? 1 / Math.sqrt(norm) : 0;
    for (let i = 0; i < n; i++) t[cb + i] *= inv;
  }
  for (let i = 0; i < n; i++) for (let c = 0; c < l; c++) y[i * l + c] = t[c * n + i];
}

/** Cyclic Jacobi for a symmetric n × n matrix (row-major, destroyed): eigenvalues and column eigenvectors. */
function jacobiEigen(a: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    let diag = 0;
    for (let i = 0; i < n; i++) {
      diag += a[i * n + i] ** 2;
      for (let j = i + 1; j < n; j++) off += a[i * n + j] ** 2;
    }
    if (off <= 1e-22 * diag || off === 0) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q];
        if (apq === 0) continue;
        const theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p];
          const akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k];
          const aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p];
          const vkq = v[k * n + q];
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = a[i * n + i];
  return { values, vectors: v };
}

/** Seeded standard normal draws (mulberry32 + Box-Muller). */
function gaussian(seed: number): () => number {
  let s = seed >>> 0;
  const uniform = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}
