import { z } from 'zod';
import type { EngineSearchHit } from '../../index/note-queries';
import { spaceTags } from '../../index/space-capabilities';
import { takePage } from '../text-budget';
import { READ_ONLY, RETRIEVE_HINT, defineTool, filterShape, toFilters } from './common';

export const searchInput = z.strictObject({
  query: z.string().trim().min(1).max(2000).describe('Words, a phrase or a title.'),
  k: z.number().int().min(1).max(100).default(10).describe('How many results.'),
  ...filterShape,
});

export function hitJson(h: EngineSearchHit): Record<string, unknown> {
  return {
    id: h.id,
    path: h.path,
    title: h.title,
    score: round(h.score),
    lexical: round(h.lexical),
    vector: round(h.vector),
    snippet: h.snippet,
    namespace: h.namespace,
    note_type: h.note_type,
    tags: h.tags,
  };
}

/**
 * A hit scoring 0 matched nothing (the index fills up to k); it is not a result. The best hits that fit the
 * character budget are kept; `truncated` says some were left out (ask for a smaller k or narrow the filters).
 */
export function matches(hits: EngineSearchHit[]): { results: Record<string, unknown>[]; truncated: boolean } {
  const all = hits.filter((h) => h.score > 0).map(hitJson);
  const { page } = takePage(all, 0, all.length);
  return { results: page, truncated: page.length < all.length };
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}

const input = searchInput.extend({
  mode: z.enum(['lexical', 'hybrid']).default('hybrid').describe('lexical: words only.'),
});

export const lithosSearch = defineTool({
  name: 'lithos_search',
  title: 'Search notes',
  description: [
    'Find notes by words (BM25, fused with vectors in hybrid mode); exact titles and aliases always surface. Returns ranked hits with snippets; `spaces` names the vector spaces and whether each is semantic.',
    RETRIEVE_HINT,
  ].join(' '),
  input,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof input>, ctx) {
    const hits = await ctx.memory.notes.search(a.query, { k: a.k, mode: a.mode, filters: toFilters(a) });
    const spaces = a.mode === 'hybrid' ? { spaces: spaceTags(ctx.memory.index.spaces()) } : {};
    const found = matches(hits);
    // The ledger ID where a hit has one (docs/ledger.md#stable-ids), beside its note id.
    for (const r of found.results) {
      const ledgerId = ctx.memory.notes.byId(String(r.id))?.cached.ledgerId;
      if (ledgerId) r.ledger_id = ledgerId;
    }
    return { query: a.query, mode: a.mode, ...spaces, ...found };
  },
});
