import { defineScout } from './define';

/** BM25 over the whole note (title, aliases, tags, headings, body), max-normalised. */
export const lexicalScout = defineScout({
  name: 'lexical',
  wave: 1,
  weight: 0.62, // lexical : vector as in hybrid search (index/fusion.ts)
  async run({ query, corpus, visible, limit }) {
    if (query.terms.length === 0) return [];
    return (await corpus.lexical(query.text, limit, visible)).map((h) => ({
      id: h.id,
      score: h.score,
      reasons: [`BM25 ${h.score.toFixed(2)} of the best match`],
    }));
  },
});
