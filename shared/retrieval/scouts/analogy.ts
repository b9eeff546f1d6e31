import { FRAME_SLOTS } from '../../model/frames';
import type { CorpusNote, ScoutHit, ScoutInput } from '../scout-contract';
import { codeId, codeSlot, internedCount, internedText, SIG_CODES, SIG_FILLED, signatureOf, TAG_SLOT, type FrameSignature } from './analogy-signature';
import { defineScout } from './define';

/**
 * Analogy: notes that have the same *shape* as the best seeds on a different subject (a UI postmortem
 * for a database postmortem), not notes that say the same thing.
 *
 * Similarity of a candidate C to a seed S, both with frames (signatures in analogy-signature.ts):
 *   pattern = Σ_slot SLOT_WEIGHTS[slot]·ochiai_slot / Σ SLOT_WEIGHTS over the seed's slots that have terms,
 *             ochiai_slot = w(S∩C) / √(w(S)·w(C)) over the slot's pattern terms (a weighted cosine of
 *             term sets: unlike Jaccard it does not sink a long slot against a short one);
 *   shape   = Jaccard of the filled slots;
 *   tags    = ochiai over pattern tags (#postmortem, #bug, #decision…);
 *   raw     = (MIX.pattern·pattern + MIX.shape·shape + MIX.tags·tags) · distance · (1 − SEED_RANK_DECAY·rank).
 * A term's weight w is its IDF among the framed visible candidates, ln(1 + N/(1+df)) / ln(1 + N), so
 * "fixed" shared by half the vault counts little and "mutex" a lot; terms no seed has count 1.
 * At least one frame slot must share a pattern term: same shape alone is not an analogy.
 *
 * distance (subject): overlap = Jaccard of subject keys (entities and subject tags). In the same namespace
 * distance = 1 − overlap; across namespaces 1 − overlap/2. Two notes of one namespace with no subject keys
 * at all count as overlap 0.5 (nothing says they differ). Below MIN_SUBJECT_DISTANCE the pair is a
 * near-duplicate on the same subject and is skipped.
 *
 * A candidate keeps its best seed; scores are divided by the best raw score (best = 1). The seeds used are
 * excluded (a note is trivially its own analogy). Only the first ANALOGY_SEEDS seeds that are visible and
 * have frames are used.
 *
 * Cost per query: one pass over the corpus (gate, frame, cached signature, one typed-array read per term)
 * that appends the shared terms to a buffer, then scoring from that buffer alone. Measured on 10,000
 * synthetic framed notes (every slot at its 16-term cap, 5 seeds): ~13 ms p50 / ~21 ms p95 of CPU per query
 * on the shared 2-core machine under load; the first query also builds every signature (~0.1 ms a note).
 */
export const ANALOGY_SEEDS = 5;
/** problem, constraints, actions, outcome, lessons (FRAME_SLOTS order). */
export const SLOT_WEIGHTS: readonly number[] = [1, 0.5, 1, 0.7, 0.8];
export const MIX = { pattern: 0.7, shape: 0.1, tags: 0.2 } as const;
export const SEED_RANK_DECAY = 0.1;
export const MIN_SUBJECT_DISTANCE = 0.25;
const UNKNOWN_SUBJECT_OVERLAP = 0.5;
const REASON_TERMS = 3;

const SLOTS = TAG_SLOT + 1;

interface Seed {
  note: CorpusNote;
  sig: FrameSignature;
  rankWeight: number;
  /** w(S) per slot, TAG_SLOT included. */
  sum: Float64Array;
  /** Σ SLOT_WEIGHTS over frame slots with terms. */
  slotNorm: number;
}

function pickSeeds({ seeds, corpus, visible }: ScoutInput): Seed[] {
  const out: Seed[] = [];
  const taken = new Set<string>();
  for (const hit of seeds) {
    if (out.length >= ANALOGY_SEEDS) break;
    if (taken.has(hit.id) || !visible(hit.id)) continue;
    const note = corpus.note(hit.id);
    const frame = note ? corpus.frame(hit.id) : null;
    if (!note || !frame) continue;
    taken.add(hit.id);
    out.push({ note, sig: signatureOf(note, frame), rankWeight: 1 - SEED_RANK_DECAY * out.length, sum: new Float64Array(SLOTS), slotNorm: 0 });
  }
  return out;
}

/**
 * Interned id → what the seeds of the current query hold: for a term, 1 + its entry index; for a subject
 * key, the bits of the seeds that have it. Module-level and grown to the dictionary, so lookups are array
 * reads and nothing is allocated per note; reset before the scout returns (run is synchronous).
 */
let lookup = new Int32Array(1024);

/** The seeds' terms for one query: entry e, slot s at e·SLOTS + s. */
class SeedTerms {
  readonly mask: Int32Array;
  readonly df: Int32Array;
  readonly w: Float64Array;
  private readonly ids: number[] = [];

  constructor(seeds: readonly Seed[]) {
    const need = internedCount();
    if (lookup.length < need) lookup = new Int32Array(Math.max(need, lookup.length * 2));
    let entries = 0;
    for (const s of seeds) {
      const d = s.sig.data;
      for (let k = SIG_CODES; k < SIG_CODES + s.sig.termCount; k++) {
        const id = codeId(d[k]);
        if (lookup[id] === 0) {
          this.ids.push(id);
          lookup[id] = ++entries;
        }
      }
    }
    this.mask = new Int32Array(entries * SLOTS);
    this.df = new Int32Array(entries * SLOTS);
    this.w = new Float64Array(entries * SLOTS).fill(1);
    seeds.forEach((s, j) => {
      const d = s.sig.data;
      for (let k = SIG_CODES; k < SIG_CODES + s.sig.termCount; k++) this.mask[this.index(d[k])] |= 1 << j;
      for (let k = SIG_CODES + s.sig.termCount; k < d.length; k++) {
        if (lookup[d[k]] === 0) this.ids.push(d[k]);
        lookup[d[k]] |= 1 << j;
      }
    });
  }

  /** Table index of a term code whose id is a seed term. */
  index(code: number): number {
    return (lookup[codeId(code)] - 1) * SLOTS + codeSlot(code);
  }

  /** Table index of a candidate's term code, or -1 when no seed has that term in that slot. */
  find(code: number): number {
    const id = codeId(code);
    const e = id < lookup.length ? lookup[id] : 0;
    if (e === 0) return -1;
    const x = (e - 1) * SLOTS + codeSlot(code);
    return this.mask[x] === 0 ? -1 : x;
  }

  release(): void {
    for (const id of this.ids) lookup[id] = 0;
  }
}

export const analogyScout = defineScout({
  name: 'analogy',
  wave: 2,
  weight: 0.04,
  run(input) {
    if (input.limit <= 0) return [];
    const seeds = pickSeeds(input);
    if (seeds.length === 0) return [];
    const table = new SeedTerms(seeds);
    try {
      return scan(input, seeds, table);
    } finally {
      table.release();
    }
  },
});

/** A growable Int32Array: pass 1 appends, pass 2 reads contiguous memory instead of each note's objects. */
class IntBuffer {
  data = new Int32Array(1 << 12);
  length = 0;

  push(v: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = v;
  }
}

/** Per-candidate record of pass 1: slot sizes, filled slots, subject size, same-namespace bits, shared subject keys per seed. */
const META_FILLED = SLOTS;
const META_SUBJECT = SLOTS + 1;
const META_SAME_NS = SLOTS + 2;
const META_SHARED = SLOTS + 3;
const META_STRIDE = META_SHARED + ANALOGY_SEEDS;

function scan({ corpus, visible, limit }: ScoutInput, seeds: readonly Seed[], table: SeedTerms): ScoutHit[] {
  const seedIds = new Set(seeds.map((s) => s.note.id));
  const lk = lookup;
  const lkLen = lk.length;
  const { mask, df, w } = table;

  // Pass 1, over every note: gate first, then frames. Each candidate's terms that some seed has (table
  // index x) go into one shared buffer, and their document frequencies are counted.
  let n = 0;
  const notes: CorpusNote[] = [];
  const sigs: FrameSignature[] = [];
  const from: number[] = [0];
  const hits = new IntBuffer();
  const meta = new IntBuffer();
  for (const note of corpus.notes()) {
    if (!visible(note.id) || seedIds.has(note.id)) continue;
    const frame = corpus.frame(note.id);
    if (!frame) continue;
    const sig = signatureOf(note, frame);
    n++;
    const d = sig.data;
    const codesEnd = SIG_CODES + sig.termCount;
    const start = hits.length;
    for (let k = SIG_CODES; k < codesEnd; k++) {
      const code = d[k];
      const id = code >>> 3;
      // Ids interned during this query lie past the table: not seed terms. (An explicit check: reading past
      // a typed array's end sends V8 down a slow path.)
      if (id >= lkLen) continue;
      const e = lk[id];
      if (e === 0) continue;
      const x = (e - 1) * SLOTS + (code & 7);
      if (mask[x] === 0) continue;
      df[x]++;
      hits.push(x);
    }
    if (hits.length === start) continue;
    notes.push(note);
    sigs.push(sig);
    from.push(hits.length);
    for (let i = 0; i < SLOTS; i++) meta.push(d[i]);
    meta.push(d[SIG_FILLED]);
    meta.push(sig.subjectCount);
    let sameNs = 0;
    for (let j = 0; j < seeds.length; j++) if (seeds[j].sig.namespaceId === sig.namespaceId) sameNs |= 1 << j;
    meta.push(sameNs);
    const shared = meta.length;
    for (let j = 0; j < ANALOGY_SEEDS; j++) meta.push(0);
    for (let k = codesEnd; k < d.length; k++) {
      const id = d[k];
      for (let m = id < lkLen ? lk[id] : 0; m !== 0; m &= m - 1) meta.data[shared + 31 - Math.clz32(m & -m)]++;
    }
  }
  if (sigs.length === 0) return [];

  const lnN = Math.log(1 + n);
  for (let x = 0; x < w.length; x++) w[x] = Math.log(1 + n / (1 + df[x])) / lnN;
  for (const s of seeds) {
    const d = s.sig.data;
    for (let k = SIG_CODES; k < SIG_CODES + s.sig.termCount; k++) s.sum[codeSlot(d[k])] += w[table.index(d[k])];
    for (let slot = 0; slot < TAG_SLOT; slot++) if (s.sum[slot] > 0) s.slotNorm += SLOT_WEIGHTS[slot];
  }

  // Pass 2, over the buffers only: score each candidate against each seed and keep the best.
  const raw = new Float64Array(sigs.length);
  const bestSeed = new Int32Array(sigs.length).fill(-1);
  const sumC = new Float64Array(SLOTS);
  const inter = new Float64Array(seeds.length * SLOTS);
  const hd = hits.data;
  const md = meta.data;
  let best = 0;
  for (let i = 0; i < sigs.length; i++) {
    const mi = i * META_STRIDE;
    for (let slot = 0; slot < SLOTS; slot++) sumC[slot] = md[mi + slot];
    inter.fill(0);
    for (let h = from[i]; h < from[i + 1]; h++) {
      const x = hd[h];
      const slot = x % SLOTS;
      const wx = w[x];
      sumC[slot] += wx - 1;
      for (let m = mask[x]; m !== 0; m &= m - 1) inter[(31 - Math.clz32(m & -m)) * SLOTS + slot] += wx;
    }
    const filled = md[mi + META_FILLED];
    for (let j = 0; j < seeds.length; j++) {
      const s = seeds[j];
      const base = j * SLOTS;
      let pattern = 0;
      for (let slot = 0; slot < TAG_SLOT; slot++) {
        const x = inter[base + slot];
        if (x > 0) pattern += (SLOT_WEIGHTS[slot] * x) / Math.sqrt(s.sum[slot] * sumC[slot]);
      }
      if (pattern === 0 || s.slotNorm === 0) continue;
      pattern /= s.slotNorm;
      const xt = inter[base + TAG_SLOT];
      const tags = xt > 0 ? xt / Math.sqrt(s.sum[TAG_SLOT] * sumC[TAG_SLOT]) : 0;
      const seedFilled = s.sig.data[SIG_FILLED];
      const shape = popcount(seedFilled & filled) / popcount(seedFilled | filled);
      const distance = subjectDistance(s.sig.subjectCount, md[mi + META_SUBJECT], md[mi + META_SHARED + j], (md[mi + META_SAME_NS] & (1 << j)) !== 0);
      if (distance < MIN_SUBJECT_DISTANCE) continue;
      const r = (MIX.pattern * pattern + MIX.shape * shape + MIX.tags * tags) * distance * s.rankWeight;
      if (r > raw[i]) {
        raw[i] = r;
        bestSeed[i] = j;
      }
    }
    if (raw[i] > best) best = raw[i];
  }
  if (best === 0) return [];

  const cut = raw.length > limit ? kthLargest(raw, limit) : 0;
  const ranked: number[] = [];
  for (let i = 0; i < sigs.length; i++) if (bestSeed[i] >= 0 && raw[i] >= cut) ranked.push(i);
  ranked.sort((a, b) => raw[b] - raw[a] || (notes[a].id < notes[b].id ? -1 : notes[a].id > notes[b].id ? 1 : 0));
  return ranked.slice(0, limit).map((i): ScoutHit => ({
    id: notes[i].id,
    score: Math.min(1, raw[i] / best),
    reasons: [reasonFor(sigs[i], seeds[bestSeed[i]], bestSeed[i], table)],
  }));
}

/** The k-th largest value (quickselect on a copy), so only the best k are sorted. */
function kthLargest(values: Float64Array, k: number): number {
  const a = Float64Array.from(values);
  const target = a.length - k;
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i++] = a[j];
        a[j--] = t;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else break;
  }
  return a[target];
}

function popcount(x: number): number {
  let n = 0;
  for (let v = x; v !== 0; v &= v - 1) n++;
  return n;
}

/** Subject distance from the two notes' subject-key counts, the keys they share and whether they share a namespace. */
export function subjectDistance(aSize: number, bSize: number, shared: number, sameNamespace: boolean): number {
  const overlap = aSize === 0 && bSize === 0 ? (sameNamespace ? UNKNOWN_SUBJECT_OVERLAP : 0) : shared / (aSize + bSize - shared);
  return sameNamespace ? 1 - overlap : 1 - overlap / 2;
}

function subjectIds(sig: FrameSignature): number[] {
  return Array.from(sig.data.subarray(SIG_CODES + sig.termCount));
}

function sharedSubject(a: FrameSignature, b: FrameSignature): string[] {
  const bs = new Set(subjectIds(b));
  return subjectIds(a)
    .filter((id) => bs.has(id))
    .map((id) => internedText(id).slice(1))
    .sort();
}

/**
 * The reason names the seed, the slots that share terms and the strongest shared terms: summed weight over
 * slots (a term shared in problem and actions beats one shared once), then earlier slot, then the term.
 */
function reasonFor(c: FrameSignature, seed: Seed, j: number, table: SeedTerms): string {
  const slots = new Set<number>();
  const terms = new Map<number, { word: string; w: number; slot: number }>();
  const tagWords: string[] = [];
  for (let k = 0; k < c.termCount; k++) {
    const code = c.data[SIG_CODES + k];
    const x = table.find(code);
    if (x < 0 || !(table.mask[x] & (1 << j))) continue;
    const slot = codeSlot(code);
    if (slot === TAG_SLOT) {
      tagWords.push(c.shown[k]);
      continue;
    }
    slots.add(slot);
    const t = terms.get(codeId(code));
    if (t) t.w += table.w[x];
    else terms.set(codeId(code), { word: c.shown[k], w: table.w[x], slot });
  }
  const ranked = [...terms.values()].sort((a, b) => b.w - a.w || a.slot - b.slot || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
  const words = ranked.slice(0, REASON_TERMS).map((t) => `"${t.word}"`);
  const slotNames = FRAME_SLOTS.filter((_s, i) => slots.has(i)).join('+');
  const tagPart = tagWords.length > 0 ? `, both ${tagWords.sort().join(' ')}` : '';
  return `analogy to "${seed.note.title}": ${slotNames} match (${words.join(', ')})${tagPart}, ${subjectPhrase(seed.sig, c)}`;
}

function subjectPhrase(s: FrameSignature, c: FrameSignature): string {
  const shared = sharedSubject(s, c);
  const sameNs = s.namespace === c.namespace;
  const distance = subjectDistance(s.subjectCount, c.subjectCount, shared.length, sameNs);
  if (distance === 1) return sameNs ? 'different subject (no shared entities or tags)' : `different subject (${s.namespace} vs ${c.namespace})`;
  if (shared.length === 0) return `same namespace (${s.namespace}), subject unknown`;
  return `related subject (shares ${shared.slice(0, 3).map((k) => `"${k}"`).join(', ')})`;
}
