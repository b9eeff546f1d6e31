import { FRAME_SLOTS } from '../frames';
import type { CorpusNote, Scout, ScoutHit, ScoutInput } from '../types';
import { signatureOf, TAG_SLOT, type FrameSignature } from './analogy-signature';

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
 * excluded (a note is trivially its own analogy). Cost per query: one pass over the corpus with cached
 * signatures and one hash lookup per candidate term.
 */
export const ANALOGY_SEEDS = 5;
/** problem, constraints, actions, outcome, lessons (FRAME_SLOTS order). */
export const SLOT_WEIGHTS: readonly number[] = [1, 0.5, 1, 0.7, 0.8];
export const MIX = { pattern: 0.7, shape: 0.1, tags: 0.2 } as const;
export const SEED_RANK_DECAY = 0.1;
export const MIN_SUBJECT_DISTANCE = 0.25;
const UNKNOWN_SUBJECT_OVERLAP = 0.5;
const REASON_TERMS = 3;

interface Entry {
  /** Bit j set when seed j has the key. */
  mask: number;
  df: number;
  w: number;
}

interface Seed {
  note: CorpusNote;
  sig: FrameSignature;
  rankWeight: number;
  /** w(S) per slot, TAG_SLOT included. */
  sum: Float64Array;
  /** Σ SLOT_WEIGHTS over frame slots with terms. */
  slotNorm: number;
}

interface Candidate {
  note: CorpusNote;
  sig: FrameSignature;
  /** Indices into sig.keys of keys some seed shares, with their entries. */
  idx: number[];
  entries: Entry[];
  raw: number;
  seed: number;
}

function popcount(x: number): number {
  let n = 0;
  for (let v = x; v !== 0; v &= v - 1) n++;
  return n;
}

function subjectOverlap(a: FrameSignature, b: FrameSignature): number {
  if (a.subject.size === 0 && b.subject.size === 0) return a.namespace === b.namespace ? UNKNOWN_SUBJECT_OVERLAP : 0;
  let inter = 0;
  for (const k of a.subject) if (b.subject.has(k)) inter++;
  return inter / (a.subject.size + b.subject.size - inter);
}

export function subjectDistance(a: FrameSignature, b: FrameSignature): number {
  const overlap = subjectOverlap(a, b);
  return a.namespace === b.namespace ? 1 - overlap : 1 - overlap / 2;
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
    out.push({ note, sig: signatureOf(note, frame), rankWeight: 1 - SEED_RANK_DECAY * out.length, sum: new Float64Array(TAG_SLOT + 1), slotNorm: 0 });
  }
  return out;
}

export const analogyScout: Scout = {
  name: 'analogy',
  wave: 2,
  run(input) {
    const { corpus, visible, limit } = input;
    if (limit <= 0) return [];
    const seeds = pickSeeds(input);
    if (seeds.length === 0) return [];

    const table = new Map<string, Entry>();
    seeds.forEach((s, j) => {
      for (const key of s.sig.keys) {
        const e = table.get(key);
        if (e) e.mask |= 1 << j;
        else table.set(key, { mask: 1 << j, df: 0, w: 1 });
      }
    });
    const seedIds = new Set(seeds.map((s) => s.note.id));

    // One pass: gate first, then frames; remember only candidates sharing some key with a seed.
    let n = 0;
    const cands: Candidate[] = [];
    for (const note of corpus.notes()) {
      if (!visible(note.id) || seedIds.has(note.id)) continue;
      const frame = corpus.frame(note.id);
      if (!frame) continue;
      const sig = signatureOf(note, frame);
      n++;
      let idx: number[] | null = null;
      let entries: Entry[] | null = null;
      for (let i = 0; i < sig.keys.length; i++) {
        const e = table.get(sig.keys[i]);
        if (e === undefined) continue;
        e.df++;
        (idx ??= []).push(i);
        (entries ??= []).push(e);
      }
      if (idx && entries) cands.push({ note, sig, idx, entries, raw: 0, seed: -1 });
    }
    if (cands.length === 0) return [];

    const lnN = Math.log(1 + n);
    for (const e of table.values()) e.w = Math.log(1 + n / (1 + e.df)) / lnN;
    seeds.forEach((s) => {
      s.sig.keys.forEach((key, k) => (s.sum[s.sig.slot[k]] += (table.get(key) as Entry).w));
      for (let slot = 0; slot < TAG_SLOT; slot++) if (s.sum[slot] > 0) s.slotNorm += SLOT_WEIGHTS[slot];
    });

    const sumC = new Float64Array(TAG_SLOT + 1);
    const inter = new Float64Array(seeds.length * (TAG_SLOT + 1));
    let best = 0;
    for (const c of cands) {
      for (let slot = 0; slot <= TAG_SLOT; slot++) sumC[slot] = c.sig.slotSize[slot];
      inter.fill(0);
      for (let m = 0; m < c.idx.length; m++) {
        const slot = c.sig.slot[c.idx[m]];
        const e = c.entries[m];
        sumC[slot] += e.w - 1;
        for (let j = 0; j < seeds.length; j++) if (e.mask & (1 << j)) inter[j * (TAG_SLOT + 1) + slot] += e.w;
      }
      for (let j = 0; j < seeds.length; j++) {
        const s = seeds[j];
        const base = j * (TAG_SLOT + 1);
        let pattern = 0;
        for (let slot = 0; slot < TAG_SLOT; slot++) {
          const x = inter[base + slot];
          if (x > 0) pattern += (SLOT_WEIGHTS[slot] * x) / Math.sqrt(s.sum[slot] * sumC[slot]);
        }
        if (pattern === 0 || s.slotNorm === 0) continue;
        pattern /= s.slotNorm;
        const xt = inter[base + TAG_SLOT];
        const tags = xt > 0 ? xt / Math.sqrt(s.sum[TAG_SLOT] * sumC[TAG_SLOT]) : 0;
        const shape = popcount(s.sig.filled & c.sig.filled) / popcount(s.sig.filled | c.sig.filled);
        const distance = subjectDistance(s.sig, c.sig);
        if (distance < MIN_SUBJECT_DISTANCE) continue;
        const raw = (MIX.pattern * pattern + MIX.shape * shape + MIX.tags * tags) * distance * s.rankWeight;
        if (raw > c.raw) {
          c.raw = raw;
          c.seed = j;
        }
      }
      if (c.raw > best) best = c.raw;
    }
    if (best === 0) return [];

    const ranked = cands.filter((c) => c.seed >= 0);
    ranked.sort((a, b) => b.raw - a.raw || (a.note.id < b.note.id ? -1 : a.note.id > b.note.id ? 1 : 0));
    return ranked.slice(0, limit).map((c): ScoutHit => ({ id: c.note.id, score: Math.min(1, c.raw / best), reasons: [reasonFor(c, seeds[c.seed], c.seed)] }));
  },
};

/**
 * The reason names the seed, the slots that share terms and the strongest shared terms: summed weight over
 * slots (a term shared in problem and actions beats one shared once), then earlier slot, then the term.
 */
function reasonFor(c: Candidate, seed: Seed, j: number): string {
  const slots = new Set<number>();
  const terms = new Map<string, { word: string; w: number; slot: number }>();
  const tagWords: string[] = [];
  c.idx.forEach((i, m) => {
    const e = c.entries[m];
    if (!(e.mask & (1 << j))) return;
    const slot = c.sig.slot[i];
    if (slot === TAG_SLOT) {
      tagWords.push(c.sig.shown[i]);
      return;
    }
    slots.add(slot);
    const stemmed = c.sig.keys[i].slice(2);
    const t = terms.get(stemmed);
    if (t) t.w += e.w;
    else terms.set(stemmed, { word: c.sig.shown[i], w: e.w, slot });
  });
  const ranked = [...terms.entries()].sort(([ka, a], [kb, b]) => b.w - a.w || a.slot - b.slot || (ka < kb ? -1 : ka > kb ? 1 : 0));
  const words = ranked.slice(0, REASON_TERMS).map(([, t]) => `"${t.word}"`);
  const slotNames = FRAME_SLOTS.filter((_s, i) => slots.has(i)).join('+');
  const tagPart = tagWords.length > 0 ? `, both ${tagWords.sort().join(' ')}` : '';
  return `analogy to "${seed.note.title}": ${slotNames} match (${words.join(', ')})${tagPart}, ${subjectPhrase(seed.sig, c.sig)}`;
}

function subjectPhrase(s: FrameSignature, c: FrameSignature): string {
  const distance = subjectDistance(s, c);
  const sameNs = s.namespace === c.namespace;
  if (distance === 1) return sameNs ? 'different subject (no shared entities or tags)' : `different subject (${s.namespace} vs ${c.namespace})`;
  const shared = [...s.subject].filter((k) => c.subject.has(k)).sort().slice(0, 3);
  if (shared.length === 0) return `same namespace (${s.namespace}), subject unknown`;
  return `related subject (shares ${shared.map((k) => `"${k}"`).join(', ')})`;
}
