import { z } from 'zod';
import { READ_ONLY, defineTool, noteRefShape, oneRef, ONE_REF_MESSAGE } from '../knowledge/common';
import { boundJson } from '../text-budget';

const input = z.strictObject({ ...noteRefShape }).refine(oneRef, ONE_REF_MESSAGE);

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export const lithosNodeStats = defineTool({
  name: 'lithos_node_stats',
  title: 'What memory learned about a note',
  description: [
    'The learned signals of one note, by id, path or title: salience, how often it was retrieved and when last, how often and when last it was used (cited or drawn on),',
    'how often it was shown but ignored or marked misleading, its spaced-repetition recall interval in days (grows with uses spaced that far apart), its per-query-class priors,',
    'and how many typed edges go out of it and come into it (by type).',
    'Use it to judge how far to trust a note that lithos_retrieve returned, or why it ranks as it does. Read-only; use lithos_read for the note itself.',
  ].join(' '),
  input,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof input>, ctx) {
    const { note, stats: s, edges } = ctx.memory.learning.nodeStats(a);
    const id = note.nodeId;
    const m = note.cached.meta;
    // Query classes and edge types are words agents choose: their maps are cut (`truncated`) if they grow huge.
    const priors = boundJson(s.per_queryclass_priors, 8_000);
    const types = boundJson(Object.fromEntries(Object.entries(edges.by_type).sort(([x], [y]) => (x < y ? -1 : 1))), 8_000);
    return {
      id,
      path: note.path,
      title: m.title,
      note_type: m.note_type,
      namespace: m.namespace,
      salience: s.salience,
      retrieval_count: s.retrieval_count,
      last_retrieved_at: isoOrNull(s.last_retrieved_at),
      last_used_at: isoOrNull(s.last_used_at),
      use_count: s.use_count,
      ignored_count: s.ignored_count,
      misleading_count: s.misleading_count,
      spaced_rep_strength: s.spaced_rep_strength,
      per_queryclass_priors: priors.value,
      edges: { out: edges.out, in: edges.in, by_type: types.value },
      ...(priors.truncated || types.truncated ? { truncated: true } : {}),
    };
  },
});
