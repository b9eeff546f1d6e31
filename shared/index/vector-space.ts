import { LithosError } from '../errors';

/**
 * Chunk vectors of one embedding space, held as one contiguous matrix and searched by brute force. Chosen
 * over Orama vector fields: Orama fixes each vector field's size in the schema (a new space would mean a
 * new instance), keeps vectors in per-document objects its searches null out, and applies a similarity
 * threshold; a flat scan of 50k×384 values is a few milliseconds and needs no index upkeep.
 *
 * Vectors as the cache stores them (int8 steps times one float32 step per vector, vector-bytes.ts) are kept
 * as those int8 steps: a quarter of Float32's memory (at 10k notes 18 MB instead of 71 MB), and the cosine
 * is Σ q·u / ‖q‖ for the unit query u. Any other vector turns the space into unit-length Float32 rows (every
 * row converted exactly as if it had been stored that way), so callers never see a quantisation they did
 * not make themselves.
 *
 * Vectors given packed (addPacked: the cache's own arrays at a warm start) are not copied at all: the space
 * keeps a reference per note and scans them beside its matrix (at 10k notes the 18 MB are not held twice).
 */
const INITIAL_ROWS = 256;

/** A note's vectors as int8 steps: vector r is values[r·dims .. (r+1)·dims] times steps[r] (the cache's form). */
export interface PackedVectors {
  dims: number;
  count: number;
  steps: Float32Array;
  values: Int8Array;
}
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** Notes are addressed by slot: a small dense integer the search index assigns (Orama's internal id). */
export class VectorSpace {
  private data: Int8Array | Float32Array;
  /** row → what its dot product is divided by: ‖q‖ for int8 rows (Infinity for a zero row), 1 for unit Float32 rows */
  private norm: Float64Array;
  /** row → the float32 step of its int8 values (only meaningful while the space is int8) */
  private step: Float32Array;
  /** row → owning note slot, 0 for a free row */
  private owner: Int32Array;
  private chunkOf: Int32Array;
  private free: number[] = [];
  private rowsOf = new Map<number, number[]>();
  /** Rows in use are all below this mark. */
  private top = 0;
  /** slot → vectors added packed, referenced rather than copied (only while the space is int8) */
  private packed: (PackedRef | undefined)[] = [];
  private packedNotes = 0;

  constructor(readonly dims: number) {
    this.data = new Int8Array(INITIAL_ROWS * dims);
    this.norm = new Float64Array(INITIAL_ROWS);
    this.step = new Float32Array(INITIAL_ROWS);
    this.owner = new Int32Array(INITIAL_ROWS);
    this.chunkOf = new Int32Array(INITIAL_ROWS);
  }

  noteCount(): number {
    return this.rowsOf.size + this.packedNotes;
  }

  /** True while every row is held as int8 steps. */
  quantised(): boolean {
    return this.data instanceof Int8Array;
  }

  /** Adds a note's chunk vectors (copied; compared by cosine); the caller removes any old version first. */
  add(slot: number, vectors: readonly Float32Array[]): void {
    if (!(slot > 0)) throw new LithosError('internal', `Vector slot must be positive, got ${slot}.`);
    if (vectors.length === 0) return;
    if (vectors.some((v) => v.length !== this.dims)) {
      throw new LithosError('invalid_argument', `Vectors do not have ${this.dims} dimensions.`, { slot });
    }
    const rows: number[] = [];
    for (let c = 0; c < vectors.length; c++) {
      const row = this.free.length > 0 ? this.free.pop()! : this.grow();
      this.write(row, vectors[c]);
      this.owner[row] = slot;
      this.chunkOf[row] = c;
      rows.push(row);
    }
    this.rowsOf.set(slot, rows);
  }

  /**
   * Adds a note's vectors given as int8 steps. While the space is int8 they are kept by reference (the caller
   * must never change them); otherwise each is decoded into a unit Float32 row.
   */
  addPacked(slot: number, p: PackedVectors): void {
    if (!(slot > 0)) throw new LithosError('internal', `Vector slot must be positive, got ${slot}.`);
    if (p.dims !== this.dims) throw new LithosError('invalid_argument', `Vectors do not have ${this.dims} dimensions.`, { slot });
    if (p.count === 0) return;
    const { dims } = this;
    if (this.data instanceof Int8Array) {
      const norms = new Float64Array(p.count);
      const { values } = p;
      for (let c = 0; c < p.count; c++) {
        let sum = 0;
        for (let i = c * dims, end = i + dims; i < end; i++) sum += values[i] * values[i];
        norms[c] = sum > 0 ? Math.sqrt(sum) : Infinity;
      }
      this.packed[slot] = { values, steps: p.steps, norms, count: p.count };
      this.packedNotes++;
      return;
    }
    this.add(slot, decodePacked(p));
  }

  /** Unit-length mean of a note's chunk vectors (retrieval's note-level similarity); null when absent. */
  meanOf(slot: number): Float32Array | null {
    const mean = new Float32Array(this.dims);
    const p = this.packed[slot];
    const rows = this.rowsOf.get(slot);
    if (p) {
      for (let c = 0; c < p.count; c++) {
        const inv = 1 / p.norms[c];
        for (let i = 0, base = c * this.dims; i < this.dims; i++) mean[i] += p.values[base + i] * inv;
      }
    } else if (rows) {
      for (const row of rows) {
        const base = row * this.dims;
        const inv = 1 / this.norm[row];
        for (let i = 0; i < this.dims; i++) mean[i] += this.data[base + i] * inv;
      }
    } else return null;
    let norm = 0;
    for (let i = 0; i < this.dims; i++) norm += mean[i] * mean[i];
    if (norm === 0) return null;
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < this.dims; i++) mean[i] *= scale;
    return mean;
  }

  remove(slot: number): void {
    if (this.packed[slot]) {
      this.packed[slot] = undefined;
      this.packedNotes--;
    }
    const rows = this.rowsOf.get(slot);
    if (!rows) return;
    for (const row of rows) {
      this.owner[row] = 0;
      this.free.push(row);
    }
    this.rowsOf.delete(slot);
  }

  /**
   * Best cosine per note into `best[slot]` (NaN where the note has no allowed vector) and the chunk that
   * gave it into `chunk[slot]`; ties go to the lower chunk index.
   */
  search(query: Float32Array, allowed: Uint8Array | null, best: Float64Array, chunk: Int32Array): void {
    if (query.length !== this.dims) {
      throw new LithosError('invalid_argument', `Query vector has ${query.length} dimensions; this space has ${this.dims}.`, {
        expected: this.dims,
        got: query.length,
      });
    }
    const q = new Float32Array(this.dims);
    writeUnit(q, 0, query);
    const { data, dims, owner, chunkOf, norm } = this;
    // A short query's vector has few non-zero dimensions (the hashing embedder's features of a few
    // words): a dot product over those alone is exact and several times faster than over all dims.
    const nz: number[] = [];
    for (let i = 0; i < dims; i++) if (q[i] !== 0) nz.push(i);
    const sparse = nz.length * 2 < dims ? Int32Array.from(nz) : null;
    for (let row = 0, top = this.top; row < top; row++) {
      const slot = owner[row];
      if (slot === 0 || (allowed !== null && allowed[slot] === 0)) continue;
      const dot = (sparse !== null ? sparseDot(data, row * dims, q, sparse) : denseDot(data, row * dims, q)) / norm[row];
      const prev = best[slot];
      if (!(dot <= prev) || (dot === prev && chunkOf[row] < chunk[slot])) {
        // !(dot <= prev) is true when prev is NaN (first chunk seen) or dot is larger
        best[slot] = dot;
        chunk[slot] = chunkOf[row];
      }
    }
    // A note is either in the matrix or packed, never both, so each note's best chunk comes from one loop.
    const { packed } = this;
    for (let slot = 1; slot < packed.length; slot++) {
      const p = packed[slot];
      if (p === undefined || (allowed !== null && allowed[slot] === 0)) continue;
      for (let c = 0; c < p.count; c++) {
        const dot = (sparse !== null ? sparseDot(p.values, c * dims, q, sparse) : denseDot(p.values, c * dims, q)) / p.norms[c];
        const prev = best[slot];
        if (!(dot <= prev) || (dot === prev && c < chunk[slot])) {
          best[slot] = dot;
          chunk[slot] = c;
        }
      }
    }
  }

  private write(row: number, v: Float32Array): void {
    const base = row * this.dims;
    if (this.data instanceof Int8Array) {
      if (this.writeSteps(this.data, base, row, v)) return;
      this.toFloat();
    }
    writeUnit(this.data as Float32Array, base, v);
    this.norm[row] = 1;
  }

  /**
   * Stores `v` as int8 steps when it is exactly of that form (v[i] = fround(q[i]·s), |q[i]| ≤ 127), as
   * vectors read back from the cache are; false (row left dirty, caller converts) otherwise. The step s is
   * max|v|/127 give or take the last bit of its float32 rounding, so that value and its neighbours are tried.
   */
  private writeSteps(data: Int8Array, base: number, row: number, v: Float32Array): boolean {
    let max = 0;
    for (let i = 0; i < v.length; i++) {
      const a = Math.abs(v[i]);
      if (a > max) max = a;
    }
    if (max === 0) {
      data.fill(0, base, base + v.length);
      this.norm[row] = Infinity;
      return true;
    }
    if (!Number.isFinite(max)) return false;
    f32[0] = max / 127;
    const mid = u32[0];
    for (let k = 0; k < 3; k++) {
      u32[0] = k === 0 ? mid : k === 1 ? mid + 1 : mid - 1;
      const step = f32[0];
      const inv = 1 / step;
      let sum = 0;
      let i = 0;
      for (; i < v.length; i++) {
        const q = Math.round(v[i] * inv);
        if (q > 127 || q < -127 || Math.fround(q * step) !== v[i]) break;
        data[base + i] = q;
        sum += q * q;
      }
      if (i === v.length) {
        this.step[row] = step;
        this.norm[row] = Math.sqrt(sum);
        return true;
      }
    }
    return false;
  }

  /** Converts every row to unit Float32, exactly as writeUnit would have stored the original vector. */
  private toFloat(): void {
    const packed = this.packed;
    this.packed = [];
    this.packedNotes = 0;
    this.toFloatRows();
    packed.forEach((p, slot) => {
      if (p) this.add(slot, decodePacked({ dims: this.dims, count: p.count, steps: p.steps, values: p.values }));
    });
  }

  private toFloatRows(): void {
    const { dims } = this;
    const q = this.data;
    const out = new Float32Array(this.owner.length * dims);
    const v = new Float32Array(dims);
    for (let row = 0; row < this.top; row++) {
      const base = row * dims;
      for (let i = 0; i < dims; i++) v[i] = q[base + i] * this.step[row];
      writeUnit(out, base, v);
      this.norm[row] = 1;
    }
    this.data = out;
  }

  private grow(): number {
    const capacity = this.owner.length;
    if (this.top === capacity) {
      const data = this.data instanceof Int8Array ? new Int8Array(capacity * 2 * this.dims) : new Float32Array(capacity * 2 * this.dims);
      data.set(this.data);
      this.data = data;
      this.norm = grown(this.norm, new Float64Array(capacity * 2));
      this.step = grown(this.step, new Float32Array(capacity * 2));
      this.owner = grown(this.owner, new Int32Array(capacity * 2));
      this.chunkOf = grown(this.chunkOf, new Int32Array(capacity * 2));
    }
    return this.top++;
  }
}

function grown<T extends Float64Array | Float32Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** Copies `v` scaled to unit length into `dst` at `offset` (a zero vector stays zero and never matches). */
export function writeUnit(dst: Float32Array, offset: number, v: Float32Array): void {
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i] * v[i];
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < v.length; i++) dst[offset + i] = v[i] * scale;
}

interface PackedRef {
  values: Int8Array;
  steps: Float32Array;
  /** chunk → ‖q‖ (Infinity for a zero vector) */
  norms: Float64Array;
  count: number;
}

/** Packed vectors as the Float32 vectors they stand for (vector-bytes.ts's stored form). */
function decodePacked(p: PackedVectors): Float32Array[] {
  const out: Float32Array[] = [];
  for (let c = 0; c < p.count; c++) {
    const v = new Float32Array(p.dims);
    for (let i = 0; i < p.dims; i++) v[i] = p.values[c * p.dims + i] * p.steps[c];
    out.push(v);
  }
  return out;
}

/** Dot product of row data[base ..] with q, four accumulators (measured ~1.7x faster than one in V8). */
function denseDot(data: Int8Array | Float32Array, base: number, q: Float32Array): number {
  const dims = q.length;
  const tail = dims - (dims % 4);
  let d0 = 0;
  let d1 = 0;
  let d2 = 0;
  let d3 = 0;
  let i = 0;
  for (; i < tail; i += 4) {
    d0 += data[base + i] * q[i];
    d1 += data[base + i + 1] * q[i + 1];
    d2 += data[base + i + 2] * q[i + 2];
    d3 += data[base + i + 3] * q[i + 3];
  }
  for (; i < dims; i++) d0 += data[base + i] * q[i];
  return d0 + d1 + d2 + d3;
}

/** Dot product over the query's non-zero dimensions only (exact, and far cheaper for short queries). */
function sparseDot(data: Int8Array | Float32Array, base: number, q: Float32Array, nz: Int32Array): number {
  let dot = 0;
  for (let j = 0; j < nz.length; j++) dot += data[base + nz[j]] * q[nz[j]];
  return dot;
}
