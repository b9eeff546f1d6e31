import { defineScout } from './define';

/** Cosine similarity in every active embedding space, merged (a note keeps its best space). */
export const vectorScout = defineScout({
  name: 'vector',
  wave: 1,
  weight: 0.3, // lexical : vector as in hybrid search (index/fusion.ts)
  async run({ query, corpus, visible, limit }) {
    if (query.text === '') return [];
    return (await corpus.vector(query.text, limit, visible)).map((h) => ({
      id: h.id,
      score: h.score,
      reasons: [`embedding similarity ${h.score.toFixed(2)} (min-max over the vault)`],
    }));
  },
});
