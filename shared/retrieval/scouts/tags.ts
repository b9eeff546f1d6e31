import type { CorpusNote, Scout, ScoutHit } from '../types';

function words(s: string): string[] {
  return s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1);
}

/**
 * Tag and entity overlap with the query's terms (a tag `project/lithos` matches "lithos"), plus the fit of
 * note_type and namespace when the query names them. Scores are the share of query terms matched.
 */
export const tagsScout: Scout = {
  name: 'tags',
  wave: 1,
  run({ query, corpus, visible, limit }) {
    if (query.terms.length === 0) return [];
    const terms = new Set(query.terms);
    const hits: ScoutHit[] = [];
    for (const note of corpus.notes()) {
      const matched = matchedKeys(note, terms);
      if (matched.length === 0 || !visible(note.id)) continue;
      const score = Math.min(1, matched.length / Math.min(terms.size, 3));
      hits.push({ id: note.id, score, reasons: [`tags/entities match ${matched.map((m) => `"${m}"`).join(', ')}`] });
    }
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    return hits.slice(0, limit);
  },
};

function matchedKeys(note: CorpusNote, terms: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const check = (label: string, parts: string[]): void => {
    if (parts.some((w) => terms.has(w)) && !out.includes(label)) out.push(label);
  };
  for (const t of note.tags) check(`#${t}`, words(t));
  for (const e of note.entities) check(e, words(e));
  if (terms.has(note.note_type.replace('_', ' ')) || terms.has(note.note_type)) out.push(`type ${note.note_type}`);
  return out;
}
