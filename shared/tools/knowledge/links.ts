import { z } from 'zod';
import type { LiveNote } from '../../vault/note-indexer';
import type { ResolvedLink } from '../../vault/link-graph';
import type { ToolContext } from '../types';
import { cursorOf, cursorStarts, LIST_MAX_CHARS, takePage, cursorArg } from '../text-budget';
import { READ_ONLY, defineTool, noteRefShape, oneRef, ONE_REF_MESSAGE } from './common';

const input = z
  .strictObject({
    ...noteRefShape,
    direction: z.enum(['outgoing', 'incoming', 'both']).default('both').describe('incoming: backlinks.'),
    depth: z.number().int().min(1).max(3).default(1).describe('Hops to follow.'),
    include_broken: z.boolean().default(true).describe('List links to no note.'),
    limit: z.number().int().min(1).max(1000).default(100).describe('Page size of each list.'),
    cursor: cursorArg,
  })
  .refine(oneRef, ONE_REF_MESSAGE);

interface Reached {
  id: string;
  path: string;
  title: string;
  depth: number;
  /** The note it was reached from. */
  via: string;
}

/** Obsidian keeps links to attachments (images, PDFs); only note targets count as broken. */
function isBrokenNoteLink(r: ResolvedLink): boolean {
  return r.targetPath === null && (!r.link.embed || !/\.[a-z0-9]+$/i.test(r.link.target) || /\.md$/i.test(r.link.target));
}

function walk(ctx: ToolContext, start: LiveNote, depth: number, next: (path: string) => string[]): Reached[] {
  const seen = new Set([start.path]);
  const out: Reached[] = [];
  let frontier = [start.path];
  for (let d = 1; d <= depth && frontier.length > 0; d++) {
    const nextFrontier: string[] = [];
    for (const from of frontier) {
      for (const to of next(from)) {
        if (seen.has(to)) continue;
        const n = ctx.memory.notes.get(to);
        // Links into notes the caller may not see are left out, as if absent.
        if (!n || n.path !== to) continue;
        seen.add(to);
        out.push({ id: n.nodeId, path: n.path, title: n.cached.meta.title, depth: d, via: from });
        nextFrontier.push(to);
      }
    }
    frontier = nextFrontier;
  }
  return out;
}

export const lithosLinks = defineTool({
  name: 'lithos_links',
  title: 'Links of a note',
  description: [
    'The [[wiki-link]] graph around a note: what it links to, its backlinks (up to 3 hops) and its broken links (edges and similar notes too: lithos_related).',
  ].join(' '),
  input,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof input>, ctx) {
    const note = ctx.memory.notes.find(a);
    const outgoing = a.direction === 'incoming' ? [] : walk(ctx, note, a.depth, (p) => ctx.memory.notes.links(p).flatMap((r) => (r.targetPath && r.targetPath !== p ? [r.targetPath] : [])));
    const incoming = a.direction === 'outgoing' ? [] : walk(ctx, note, a.depth, (p) => ctx.memory.notes.backlinks(p));
    const broken = a.include_broken
      ? [note.path, ...outgoing.map((r) => r.path)].flatMap((from) =>
          ctx.memory.notes.links(from).filter(isBrokenNoteLink).map((r) => ({ from, target: r.link.target, raw: r.link.raw })),
        )
      : [];
    // The three lists page together (a hub's backlinks run to thousands), sharing the character budget.
    const starts = cursorStarts(a.cursor, 3, 'lithos_links');
    const pages = [outgoing, incoming, broken].map((list, i) => takePage<unknown>(list, starts[i], a.limit, LIST_MAX_CHARS / 3));
    return {
      note: { id: note.nodeId, path: note.path, title: note.cached.meta.title },
      outgoing: pages[0].page,
      incoming: pages[1].page,
      broken: pages[2].page,
      outgoing_total: outgoing.length,
      incoming_total: incoming.length,
      broken_total: broken.length,
      next_cursor: cursorOf(pages.map((p) => p.next)),
    };
  },
});
