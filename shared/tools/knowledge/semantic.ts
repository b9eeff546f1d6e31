import type { z } from 'zod';
import { READ_ONLY, RETRIEVE_HINT, defineTool, toFilters } from './common';
import { matches, searchInput } from './search';

export const lithosSemantic = defineTool({
  name: 'lithos_semantic',
  title: 'Semantic search',
  description: [
    'Vector search: notes whose meaning is close to the query even when they share no words with it (paraphrases, related concepts).',
    'Same filters as lithos_search. Use lithos_search instead when you know the words or the title.',
    RETRIEVE_HINT,
  ].join(' '),
  input: searchInput,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof searchInput>, ctx) {
    const hits = await ctx.memory.notes.search(a.query, { k: a.k, mode: 'vector', filters: toFilters(a) });
    return { query: a.query, mode: 'vector', ...matches(hits) };
  },
});
