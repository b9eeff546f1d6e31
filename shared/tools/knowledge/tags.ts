import { z } from 'zod';
import { listShape, pageItems } from '../text-budget';
import { READ_ONLY, defineTool } from './common';

const input = z.strictObject({
  namespace: z.string().min(1).optional().describe('Count only notes in this namespace (and below).'),
  prefix: z.string().min(1).optional().describe('Only tags starting with this (case-insensitive), e.g. "project/".'),
  min_count: z.number().int().min(1).default(1).describe('Leave out tags used by fewer notes.'),
  ...listShape(200, 1000),
});

export const lithosTags = defineTool({
  name: 'lithos_tags',
  title: 'Tags with counts',
  description: 'Every tag in the notes you can see, with how many notes carry it (frontmatter tags and inline #tags), most used first. Use it to learn the vault\'s vocabulary before filtering lithos_list or lithos_search by tags.',
  input,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof input>, ctx) {
    const ns = a.namespace?.replace(/\/+$/, '');
    const prefix = a.prefix?.replace(/^#/, '').toLowerCase();
    // Case-insensitive, as Obsidian counts them; the first spelling met (in path order) is shown.
    const counts = new Map<string, { tag: string; count: number }>();
    for (const n of ctx.memory.notes.all().sort((x, y) => (x.path < y.path ? -1 : 1))) {
      const m = n.cached.meta;
      if (ns !== undefined && m.namespace !== ns && !m.namespace.startsWith(ns + '/')) continue;
      for (const t of m.tags) {
        const key = t.toLowerCase();
        if (prefix !== undefined && !key.startsWith(prefix)) continue;
        const e = counts.get(key) ?? { tag: t, count: 0 };
        e.count++;
        counts.set(key, e);
      }
    }
    const tags = [...counts.values()].filter((t) => t.count >= a.min_count).sort((x, y) => y.count - x.count || (x.tag.toLowerCase() < y.tag.toLowerCase() ? -1 : 1));
    const { page, total, next_cursor } = pageItems(tags, a, 'lithos_tags');
    return { tags: page, total, next_cursor };
  },
});
