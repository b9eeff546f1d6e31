import { labelWords } from '../../model/tags';
import type { CorpusNote, RetrievalCorpus, ScoutHit } from '../scout-contract';
import { defineScout } from './define';

/**
 * Tag and entity overlap with the query's terms (a tag `project/lithos` matches "lithos"), plus the fit of
 * note_type and namespace when the query names them. Scores are the share of query terms matched.
 */
export const tagsScout = defineScout({
  name: 'tags',
  wave: 1,
  weight: 0.05,
  run({ query, corpus, visible, limit }) {
    if (query.terms.length === 0) return [];
    const terms = new Set(query.terms);
    const found = new Set<CorpusNote>();
    for (const t of terms) for (const n of withWord(corpus, t)) found.add(n);
    const hits: ScoutHit[] = [];
    for (const note of found) {
      const matched = matchedKeys(note, terms);
      if (matched.length === 0 || !visible(note.id)) continue;
      const score = Math.min(1, matched.length / Math.min(terms.size, 3));
      hits.push({ id: note.id, score, reasons: [`tags/entities match ${matched.map((m) => `"${m}"`).join(', ')}`] });
    }
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    return hits.slice(0, limit);
  },
});

/** Notes holding `word`: from the corpus's own index when it keeps one, else from wordIndex. */
function withWord(corpus: RetrievalCorpus, word: string): Iterable<CorpusNote> {
  if (!corpus.taggedWith) return wordIndex(corpus.notes()).get(word) ?? [];
  const out: CorpusNote[] = [];
  for (const id of corpus.taggedWith(word)) {
    const n = corpus.note(id);
    if (n) out.push(n);
  }
  return out;
}

/**
 * word → notes whose tags or entities contain it, built once per corpus snapshot (a corpus returning the
 * same list object until a note changes), so a query touches only the notes it can match.
 */
const indexes = new WeakMap<object, Map<string, CorpusNote[]>>();

function wordIndex(notes: Iterable<CorpusNote>): Map<string, CorpusNote[]> {
  let idx = indexes.get(notes);
  if (!idx) {
    idx = new Map();
    const add = (w: string, n: CorpusNote): void => {
      const list = idx!.get(w);
      if (!list) idx!.set(w, [n]);
      else if (list[list.length - 1] !== n) list.push(n);
    };
    for (const n of notes) {
      for (const { parts } of keysOf(n)) for (const w of parts) add(w, n);
      add(n.note_type, n); // a query naming a note type (`hypothesis`) finds its notes too
    }
    indexes.set(notes, idx);
  }
  return idx;
}

/** Tag and entity words per note view, split once (views are stable while the note is unchanged). */
const keyWords = new WeakMap<CorpusNote, { label: string; parts: string[] }[]>();

function keysOf(note: CorpusNote): { label: string; parts: string[] }[] {
  let keys = keyWords.get(note);
  if (!keys) {
    keys = [...note.tags.map((t) => ({ label: `#${t}`, parts: labelWords(t) })), ...note.entities.map((e) => ({ label: e, parts: labelWords(e) }))];
    keyWords.set(note, keys);
  }
  return keys;
}

function matchedKeys(note: CorpusNote, terms: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const { label, parts } of keysOf(note)) if (parts.some((w) => terms.has(w)) && !out.includes(label)) out.push(label);
  if (terms.has(note.note_type)) out.push(`type ${note.note_type}`);
  return out;
}
