/**
 * A frame's structural signature: what the analogy scout compares, with the note's subject taken out so
 * that "race condition fixed by adding a lock" in a database note meets "race condition fixed by adding a
 * mutex" in a UI note.
 *
 * - Pattern terms per slot: the lexical tokenizer's terms of the slot's phrases (NLTK stop words out), minus
 *   GENERIC_WORDS, numbers and tokens under 3 characters, lightly stemmed (stem()), minus the note's subject words: words of its title,
 *   aliases, entities, namespace segments and subject tags. PATTERN_WORDS (failure modes and remedies such
 *   as "race", "stampede", "jitter") stay even when the title uses them, because there they name the
 *   pattern, not the subject. At most MAX_TERMS_PER_SLOT per slot, in text order.
 * - Pattern tags: tags naming a kind of note or event (PATTERN_TAGS: postmortem, bug, decision…), compared
 *   by their last path segment (`type/postmortem` = `postmortem`). Every other tag is a subject tag.
 * - Subject keys: entities and subject tags, lowercased; the scout uses them (and the namespace) to prefer
 *   analogies across subjects.
 *
 * Signatures are cached per frame object (WeakMap), checked against the note, so a corpus that returns the
 * same frame object while a note is unchanged (as the engine's does) pays for each signature once. Terms
 * are interned to integer ids so the scout's per-query work is typed-array lookups.
 */
import { STOPWORDS, tokenize } from '../../index/tokenizer';
import { FRAME_SLOTS } from '../../model/frames';
import type { CorpusNote, NoteFrame } from '../scout-contract';

/** Bounds the per-query scan (terms × notes) whatever the notes' length. */
export const MAX_TERMS_PER_SLOT = 16;
/** Index of the pattern-tag pseudo-slot in FrameSignature.slotSize, after the five frame slots. */
export const TAG_SLOT = FRAME_SLOTS.length;

/** Words that carry no structure (on top of the tokenizer's stop set). */
const GENERIC_WORDS: ReadonlySet<string> = new Set([
  'also', 'would', 'could', 'one', 'two', 'three', 'first', 'second', 'get', 'got', 'make', 'made', 'use', 'used',
  'using', 'new', 'like', 'may', 'might', 'must', 'need', 'needed', 'every', 'way', 'time', 'times', 'thing', 'things',
  'still', 'even', 'much', 'many', 'lot', 'well', 'without', 'within', 'across', 'around', 'since', 'already', 'yet',
  'instead', 'rather', 'via', 'etc', 'per', 'another', 'able', 'let', 'went', 'see', 'know', 'found', 'took', 'came',
  // Dates say when, not what.
  'january', 'february', 'march', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'today', 'yesterday', 'tomorrow',
]);
/** Shorter tokens are mostly units and abbreviations ("ms", "db", "io") that name no pattern. */
const MIN_TERM_LENGTH = 3;

/** Failure modes and remedies: pattern words even when they appear in the note's title. */
const PATTERN_WORDS: readonly string[] = [
  'race', 'deadlock', 'leak', 'stampede', 'storm', 'herd', 'thundering', 'retry', 'timeout', 'outage', 'regression',
  'flaky', 'crash', 'overload', 'backpressure', 'cascade', 'contention', 'starvation', 'saturation', 'bottleneck',
  'hotspot', 'spike', 'jitter', 'backoff', 'idempotency', 'idempotent', 'duplicate', 'lock', 'mutex', 'restart',
  'failover', 'flush', 'rollback', 'drift', 'stale', 'corruption', 'reset', 'burst', 'throttle', 'debounce',
  'coalescing', 'cache', 'invalidation', 'expiry', 'queue', 'backlog', 'latency', 'partition', 'split', 'quorum',
];

/** Tags that name a kind of note or event rather than a subject, with their common spellings. */
const PATTERN_TAGS: ReadonlyMap<string, string> = new Map([
  ['postmortem', 'postmortem'], ['post-mortem', 'postmortem'], ['incident', 'incident'], ['outage', 'incident'],
  ['bug', 'bug'], ['bugfix', 'bug'], ['fix', 'bug'], ['regression', 'regression'], ['decision', 'decision'],
  ['adr', 'decision'], ['retro', 'retrospective'], ['retrospective', 'retrospective'], ['lesson', 'lessons'],
  ['lessons', 'lessons'], ['lessons-learned', 'lessons'], ['rca', 'postmortem'], ['root-cause', 'postmortem'],
  ['runbook', 'runbook'], ['playbook', 'runbook'], ['howto', 'howto'], ['how-to', 'howto'], ['pattern', 'pattern'],
  ['antipattern', 'antipattern'], ['anti-pattern', 'antipattern'], ['experiment', 'experiment'],
  ['hypothesis', 'hypothesis'], ['finding', 'finding'], ['migration', 'migration'], ['refactor', 'refactor'],
  ['spike', 'spike'], ['tradeoff', 'tradeoff'], ['trade-off', 'tradeoff'], ['design', 'design'], ['review', 'review'],
]);

/**
 * A light suffix stripper so "fixed"/"fixes"/"fixing" and "locks"/"lock" meet; ASCII words only. Stems are
 * internal keys; reasons show the words as written.
 */
export function stem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = w.slice(0, -3) + 'y';
  else if (w.length > 5 && w.endsWith('ing')) w = undouble(w.slice(0, -3));
  else if (w.length > 4 && w.endsWith('ed')) w = undouble(w.slice(0, -2));
  else if (/(?:ss|x|ch|sh|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  // "cache"/"caching"/"cached" all end as "cach".
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

function undouble(w: string): string {
  return w.length > 3 && w[w.length - 1] === w[w.length - 2] && !/[lsz]/.test(w[w.length - 1]) ? w.slice(0, -1) : w;
}

const PATTERN_STEMS: ReadonlySet<string> = new Set(PATTERN_WORDS.map(stem));

export function tagKey(tag: string): string {
  const t = tag.toLowerCase().replace(/^#/, '').trim();
  return t.slice(t.lastIndexOf('/') + 1);
}

export function patternTag(tag: string): string | null {
  return PATTERN_TAGS.get(tagKey(tag)) ?? null;
}

/**
 * Interned strings: pattern terms (stems), pattern tags (`#postmortem`), subject keys (`@postgres`) and
 * namespaces (`/project/db`) share one id space, so the scout looks them up in typed arrays instead of hashing strings. Ids are never
 * reused; the dictionary grows with the vocabulary of frames, not with the number of notes or queries.
 */
const dictionary = new Map<string, number>();
const texts: string[] = [];

export function internId(text: string): number {
  let id = dictionary.get(text);
  if (id === undefined) {
    id = texts.length;
    dictionary.set(text, id);
    texts.push(text);
  }
  return id;
}

export function internedText(id: number): string {
  return texts[id] ?? '';
}

export function internedCount(): number {
  return texts.length;
}

/** Layout of FrameSignature.data: slot sizes (TAG_SLOT included), the filled-slot bits, then the codes. */
export const SIG_FILLED = TAG_SLOT + 1;
export const SIG_CODES = TAG_SLOT + 2;

/** A term code packs an interned id and its slot: id·8 + slot. */
export function codeId(code: number): number {
  return code >>> 3;
}

export function codeSlot(code: number): number {
  return code & 7;
}

export interface FrameSignature {
  /**
   * One array, so the scout's scan touches one block of memory per note: [terms per slot ×(TAG_SLOT+1),
   * filled-slot bits (bit i: frame slot i has phrases, even if all its words were subject words), term codes
   * ×termCount (pattern terms by slot in FRAME_SLOTS order, then pattern tags), subject key ids ×subjectCount].
   */
  data: Int32Array;
  termCount: number;
  subjectCount: number;
  /** The word as first written, per term code, for reasons (`#postmortem` for tags). */
  shown: string[];
  namespace: string;
  /** Interned namespace, for a cheap same-namespace test. */
  namespaceId: number;
}

/** Readable view of a signature (tests, debugging): terms by slot name, pattern tags, subject keys. */
export function describeSignature(sig: FrameSignature): { terms: Record<string, string[]>; tags: string[]; subject: string[]; filled: string[] } {
  const terms: Record<string, string[]> = Object.fromEntries(FRAME_SLOTS.map((slot) => [slot, [] as string[]]));
  const tags: string[] = [];
  for (let k = SIG_CODES; k < SIG_CODES + sig.termCount; k++) {
    const code = sig.data[k];
    const text = internedText(codeId(code));
    if (codeSlot(code) === TAG_SLOT) tags.push(text);
    else terms[FRAME_SLOTS[codeSlot(code)]].push(text);
  }
  const subject = Array.from(sig.data.subarray(SIG_CODES + sig.termCount), (id) => internedText(id).slice(1));
  const filled = FRAME_SLOTS.filter((_s, i) => (sig.data[SIG_FILLED] & (1 << i)) !== 0);
  return { terms, tags, subject, filled };
}

function words(texts: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const t of texts) for (const w of tokenize(t)) out.add(stem(w));
  return out;
}

export function buildSignature(note: CorpusNote, frame: NoteFrame): FrameSignature {
  const subjectTags = note.tags.filter((t) => patternTag(t) === null);
  const subjectWords = words([note.title, ...note.aliases, ...note.entities, ...note.namespace.split('/'), ...subjectTags.flatMap((t) => t.split(/[/_-]/))]);

  const codes: number[] = [];
  const shown: string[] = [];
  const slotSize = new Array<number>(TAG_SLOT + 1).fill(0);
  let filled = 0;
  FRAME_SLOTS.forEach((name, i) => {
    const phrases = frame[name];
    if (phrases.length > 0) filled |= 1 << i;
    const seen = new Set<string>();
    for (const phrase of phrases) {
      if (seen.size >= MAX_TERMS_PER_SLOT) break;
      for (const w of tokenize(phrase)) {
        if (seen.size >= MAX_TERMS_PER_SLOT) break;
        // STOPWORDS again: the tokenizer skips only stop words of up to 5 letters ("between" passes).
        if (w.length < MIN_TERM_LENGTH || GENERIC_WORDS.has(w) || STOPWORDS.has(w) || /^\d/.test(w)) continue;
        const s = stem(w);
        if (seen.has(s) || (subjectWords.has(s) && !PATTERN_STEMS.has(s))) continue;
        seen.add(s);
        codes.push(internId(s) * 8 + i);
        shown.push(w);
      }
    }
    slotSize[i] = seen.size;
  });
  const tags = new Set<string>();
  for (const t of note.tags) {
    const p = patternTag(t);
    if (p && !tags.has(p)) {
      tags.add(p);
      codes.push(internId(`#${p}`) * 8 + TAG_SLOT);
      shown.push(`#${p}`);
    }
  }
  slotSize[TAG_SLOT] = tags.size;
  const subject = new Set<string>([...note.entities.map((e) => e.toLowerCase().trim()), ...subjectTags.map((t) => t.toLowerCase().replace(/^#/, ''))]);
  subject.delete('');
  const subjectIds = [...subject].sort().map((k) => internId(`@${k}`));
  return {
    data: Int32Array.from([...slotSize, filled, ...codes, ...subjectIds]),
    termCount: codes.length,
    subjectCount: subjectIds.length,
    shown,
    namespace: note.namespace,
    namespaceId: internId(`/${note.namespace}`),
  };
}

interface Cached {
  sig: FrameSignature;
  note: CorpusNote;
  title: string;
  namespace: string;
  tags: readonly string[];
  aliases: readonly string[];
  entities: readonly string[];
}

const cache = new WeakMap<NoteFrame, Cached>();

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The note's signature, from the cache when the frame object is unchanged and so is the note: the same
 * CorpusNote object (corpus views are immutable), or one with equal subject fields (a fresh view).
 */
export function signatureOf(note: CorpusNote, frame: NoteFrame): FrameSignature {
  const hit = cache.get(frame);
  if (hit) {
    if (hit.note === note) return hit.sig;
    if (
      hit.title === note.title &&
      hit.namespace === note.namespace &&
      sameList(hit.tags, note.tags) &&
      sameList(hit.aliases, note.aliases) &&
      sameList(hit.entities, note.entities)
    ) {
      hit.note = note;
      return hit.sig;
    }
  }
  const sig = buildSignature(note, frame);
  cache.set(frame, { sig, note, title: note.title, namespace: note.namespace, tags: [...note.tags], aliases: [...note.aliases], entities: [...note.entities] });
  return sig;
}
