import { z } from 'zod';
import type { EngineSearchHit } from '../../engine';
import { READ_ONLY, RETRIEVE_HINT, allowFor, defineTool, filterShape, toFilters } from './common';

export const searchInput = z.strictObject({
  query: z.string().trim().min(1).max(2000).describe('What to look for: words, a phrase, a title.'),
  k: z.number().int().min(1).max(100).default(10).describe('How many results (1–100, default 10).'),
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

/** A hit scoring 0 matched nothing (the index fills up to k); it is not a result. */
export function matches(hits: EngineSearchHit[]): Record<string, unknown>[] {
  return hits.filter((h) => h.score > 0).map(hitJson);
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}

const input = searchInput.extend({
  mode: z.enum(['lexical', 'hybrid']).default('hybrid').describe('hybrid (default): BM25 words + vectors; lexical: BM25 words only.'),
});

export const lithosSearch = defineTool({
  name: 'lithos_search',
  title: 'Search notes',
  description: [
    'Quick keyword lookup over the vault: BM25 word match, fused with vector similarity in hybrid mode (default); exact titles and aliases always surface.',
    'Use it to find a note you know exists, or to check what is written about a term. Filters: namespace, tags, note_type, status, path_prefix.',
    RETRIEVE_HINT,
    'For meaning rather than words, use lithos_semantic.',
  ].join(' '),
  input,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof input>, ctx) {
    const hits = await ctx.engine.search(a.query, { k: a.k, mode: a.mode, filters: toFilters(a), allow: allowFor(ctx) });
    return { query: a.query, mode: a.mode, results: matches(hits) };
  },
});
