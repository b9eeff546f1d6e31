import type { z } from 'zod';
import { MODEL_PULL_HINT, spaceTags } from '../../index/space-capabilities';
import { READ_ONLY, RETRIEVE_HINT, defineTool, toFilters } from './common';
import { matches, searchInput } from './search';

export const lithosSemantic = defineTool({
  name: 'lithos_semantic',
  title: 'Vector search',
  description: [
    'Vector search over the active embedding spaces. With a semantic model (all-MiniLM-L6-v2) it finds notes close in meaning even when they share no words with the query (paraphrases, related concepts);',
    'the built-in hashing space only matches shared words and word pieces. `spaces` in the result says which space answered and whether it is semantic; `hint` appears when none is.',
    'Same filters as lithos_search. Use lithos_search instead when you know the words or the title.',
    RETRIEVE_HINT,
  ].join(' '),
  input: searchInput,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof searchInput>, ctx) {
    const spaces = spaceTags(ctx.memory.index.spaces());
    const hits = await ctx.memory.notes.search(a.query, { k: a.k, mode: 'vector', filters: toFilters(a) });
    // Results still come back without a semantic space (shared word pieces can help), labelled as what they are.
    const hint = spaces.some((s) => s.semantic) ? {} : { hint: MODEL_PULL_HINT };
    return { query: a.query, mode: 'vector', spaces, ...hint, ...matches(hits) };
  },
});
