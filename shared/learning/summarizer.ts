/**
 * The Summarizer port: turns the material of a summary or concept note (its members' texts) into a short
 * and a long summary. The default is extractive and deterministic — sentences ranked by the weight of
 * their terms across the material (term frequency × spread over members), kept in document order — so the
 * same material always gives the same summary and consolidation can tell "changed" from "unchanged".
 * A host may plug in a model-backed one (engine.setSummarizer).
 */
import { tokenize } from '../index/tokenizer';

export interface SummaryMaterial {
  /** The note being summarised. */
  title: string;
  /** Its members' texts (frontmatter stripped), in a stable order. */
  texts: { title: string; body: string }[];
}

export interface Summaries {
  short: string;
  long: string;
}

export interface Summarizer {
  summarize(material: SummaryMaterial): Promise<Summaries> | Summaries;
}

/** Sentences in the short and long summaries, and the most characters each may hold. */
export const SHORT_SENTENCES = 1;
export const LONG_SENTENCES = 5;
export const SHORT_MAX_CHARS = 240;
export const LONG_MAX_CHARS = 1200;

const SENTENCE_RE = /[^.!?\n]+[.!?]?/g;

interface Sentence {
  text: string;
  order: number;
  score: number;
}

/** Markdown noise a summary should not carry: headings' #, list bullets, link brackets, callouts. */
function plain(line: string): string {
  return line
    .replace(/^\s{0,3}(#{1,6}\s+|>\s*(\[![^\]]*\][+-]?\s*)?|[-*+]\s+|\d+[.)]\s+)/, '')
    .replace(/!?\[\[([^\]|#]*)(?:#[^\]|]*)?(?:\|([^\]]*))?\]\]/g, (_m, target: string, shown?: string) => shown ?? target)
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_]{1,3}/g, '')
    .trim();
}

function sentences(body: string): string[] {
  const out: string[] = [];
  let fence = false;
  for (const raw of body.split('\n')) {
    if (/^\s*(```|~~~)/.test(raw)) {
      fence = !fence;
      continue;
    }
    if (fence) continue;
    const line = plain(raw);
    if (!line) continue;
    for (const m of line.match(SENTENCE_RE) ?? []) {
      const s = m.trim();
      if (tokenize(s).length >= 3) out.push(s); // fragments ("See below.") say nothing on their own
    }
  }
  return out;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

export const extractiveSummarizer: Summarizer = {
  summarize({ texts }) {
    // Term weight: frequency across the material × the share of members using it (shared themes win).
    const tf = new Map<string, number>();
    const spread = new Map<string, number>();
    const perText = texts.map((t) => sentences(t.body));
    perText.forEach((list) => {
      const seen = new Set<string>();
      for (const s of list) {
        for (const w of tokenize(s)) {
          tf.set(w, (tf.get(w) ?? 0) + 1);
          if (!seen.has(w)) spread.set(w, (spread.get(w) ?? 0) + 1);
          seen.add(w);
        }
      }
    });
    const n = Math.max(1, texts.length);
    const weight = (w: string): number => (tf.get(w) ?? 0) * ((spread.get(w) ?? 0) / n);
    const all: Sentence[] = [];
    const seenText = new Set<string>();
    perText.forEach((list) => {
      for (const text of list) {
        const key = text.toLowerCase();
        if (seenText.has(key)) continue;
        seenText.add(key);
        const terms = [...new Set(tokenize(text))];
        const score = terms.reduce((s, w) => s + weight(w), 0) / Math.sqrt(terms.length);
        all.push({ text, order: all.length, score });
      }
    });
    const best = [...all].sort((a, b) => b.score - a.score || a.order - b.order);
    const pick = (count: number, max: number): string => {
      const chosen = best.slice(0, count).sort((a, b) => a.order - b.order);
      return cut(chosen.map((s) => s.text).join(' '), max);
    };
    return { short: pick(SHORT_SENTENCES, SHORT_MAX_CHARS), long: pick(LONG_SENTENCES, LONG_MAX_CHARS) };
  },
};
