import type { Scout } from '../types';

/** Cosine similarity in every active embedding space, merged (a note keeps its best space). */
export const vectorScout: Scout = {
  name: 'vector',
  wave: 1,
  async run({ query, corpus, visible, limit }) {
    if (query.text === '') return [];
    return (await corpus.vector(query.text, limit, visible)).map((h) => ({
      id: h.id,
      score: h.score,
      reasons: [`embedding similarity ${h.score.toFixed(2)} (min-max over the vault)`],
    }));
  },
};
