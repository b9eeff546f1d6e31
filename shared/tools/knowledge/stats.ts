import { z } from 'zod';
import { READ_ONLY, defineTool } from './common';

const input = z.strictObject({});

/** by_namespace shows the most populated namespaces up to this many (a vault may have thousands of folders). */
const MAX_NAMESPACES = 100;

function topEntries(counts: Record<string, number>, max: number): Record<string, number> {
  const entries = Object.entries(counts);
  if (entries.length <= max) return counts;
  return Object.fromEntries(entries.sort(([x, a], [y, b]) => b - a || (x < y ? -1 : 1)).slice(0, max));
}

export const lithosStats = defineTool({
  name: 'lithos_stats',
  title: 'Memory statistics',
  description: 'Counts of the notes you can see (by note type, namespace, access scope and status), chunks, tags, typed edges between them, embedding spaces and index state. Use it to get a feel for what the memory holds before searching.',
  input,
  annotations: READ_ONLY,
  async handler(_a: z.infer<typeof input>, ctx) {
    const notes = ctx.memory.notes.all();
    const count = (key: (m: (typeof notes)[number]['cached']['meta']) => string) => {
      const out: Record<string, number> = {};
      for (const n of notes) out[key(n.cached.meta)] = (out[key(n.cached.meta)] ?? 0) + 1;
      return out;
    };
    const tags = new Set(notes.flatMap((n) => n.cached.meta.tags.map((t) => t.toLowerCase())));
    const namespaces = count((m) => m.namespace);
    return {
      notes: notes.length,
      chunks: notes.reduce((s, n) => s + n.chunkCount, 0),
      tags: tags.size,
      by_note_type: count((m) => m.note_type),
      by_namespace: topEntries(namespaces, MAX_NAMESPACES),
      namespaces_total: Object.keys(namespaces).length,
      by_access_scope: count((m) => m.access_scope),
      by_status: count((m) => m.status),
      edges: ctx.memory.edges.find().length,
      embedding_spaces: ctx.memory.index.spaces(),
      pending_events: ctx.memory.index.pendingEvents(),
    };
  },
});
