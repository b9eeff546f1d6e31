import { z } from 'zod';
import { READ_ONLY, defineTool, noteRefShape, noteSummary, oneRef, ONE_REF_MESSAGE } from './common';

const input = z
  .strictObject({
    ...noteRefShape,
    k: z.number().int().min(1).max(50).default(10).describe('How many.'),
  })
  .refine(oneRef, ONE_REF_MESSAGE);

type Reason =
  | { kind: 'links_to' }
  | { kind: 'linked_from' }
  | { kind: 'edge'; edge_id: string; type: string; weight: number; direction: 'out' | 'in' }
  | { kind: 'similar'; score: number };

/**
 * How much each kind of evidence counts when ranking. Explicit structure (links, typed edges) outranks
 * vector similarity; a typed edge counts by its weight.
 */
function strength(r: Reason): number {
  switch (r.kind) {
    case 'links_to':
      return 0.6;
    case 'linked_from':
      return 0.5;
    case 'edge':
      return 0.4 + 0.6 * Math.max(0, Math.min(1, r.weight));
    case 'similar':
      return 0.8 * r.score;
  }
}

export const lithosRelated = defineTool({
  name: 'lithos_related',
  title: 'Related notes',
  description: [
    'Notes related to one note, each with why: wiki-links (links_to, linked_from), typed edges (supports, …) or vector similarity.',
  ].join(' '),
  input,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof input>, ctx) {
    const notes = ctx.memory.notes;
    const note = notes.find(a);
    const reasons = new Map<string, Reason[]>();
    const add = (nodeId: string, r: Reason) => {
      if (nodeId === note.nodeId) return;
      if (!notes.seesId(nodeId)) return;
      reasons.set(nodeId, [...(reasons.get(nodeId) ?? []), r]);
    };
    // Links into notes the viewer may not see read as unresolved here, and they are left out.
    for (const l of notes.links(note.path)) {
      const t = l.targetPath ? notes.get(l.targetPath) : null;
      if (t && t.path === l.targetPath && !(reasons.get(t.nodeId) ?? []).some((r) => r.kind === 'links_to')) add(t.nodeId, { kind: 'links_to' });
    }
    for (const p of notes.backlinks(note.path)) {
      const s = notes.get(p);
      if (s && s.path === p) add(s.nodeId, { kind: 'linked_from' });
    }
    for (const e of ctx.memory.edges.find({ from: note.nodeId })) add(e.to_id, { kind: 'edge', edge_id: e.edge_id, type: e.type, weight: e.weight, direction: 'out' });
    for (const e of ctx.memory.edges.find({ to: note.nodeId })) add(e.from_id, { kind: 'edge', edge_id: e.edge_id, type: e.type, weight: e.weight, direction: 'in' });
    for (const h of await notes.similar(note.nodeId, { k: a.k })) add(h.id, { kind: 'similar', score: Math.round(h.score * 10000) / 10000 });

    const ranked = [...reasons.entries()]
      .map(([id, why]) => ({ note: notes.byId(id)!, why, score: why.reduce((s, r) => s + strength(r), 0) }))
      .sort((x, y) => y.score - x.score || (x.note.path < y.note.path ? -1 : 1))
      .slice(0, a.k);
    return {
      note: { id: note.nodeId, path: note.path, title: note.cached.meta.title },
      related: ranked.map((r) => ({ ...noteSummary(r.note), score: Math.round(r.score * 10000) / 10000, why: r.why })),
    };
  },
});
