import { z } from 'zod';
import { LithosError } from '../../errors';
import type { ParsedNote } from '../../model/types';
import { READ_ONLY, defineTool, findNote, linkAsSeenBy, noteRefShape, oneRef, ONE_REF_MESSAGE, visibleTo } from './common';

const input = z
  .strictObject({
    ...noteRefShape,
    section: z.string().trim().min(1).optional().describe('A heading of the note (text without "#"): return only that section, down to the next heading of the same or higher level.'),
  })
  .refine(oneRef, ONE_REF_MESSAGE);

/** The lines under a heading, the heading included; null when the note has no such heading. */
export function sectionOf(note: ParsedNote, heading: string): string | null {
  const want = heading.replace(/^#+\s*/, '').trim().toLowerCase();
  const i = note.headings.findIndex((h) => h.text.trim().toLowerCase() === want);
  if (i === -1) return null;
  const h = note.headings[i];
  const next = note.headings.slice(i + 1).find((o) => o.level <= h.level);
  const lines = note.body.split('\n');
  return lines.slice(h.line, next ? next.line : lines.length).join('\n').replace(/\n+$/, '\n');
}

export const lithosRead = defineTool({
  name: 'lithos_read',
  title: 'Read a note',
  description: [
    'Read one note by id, path, or title/alias (resolved like an Obsidian [[link]]). Optionally only one section, by heading.',
    'Returns content (the Markdown body), frontmatter, normalised metadata, headings, links and `version`:',
    'pass that version as expected_version to lithos_write or lithos_delete so you never overwrite an edit made since you read.',
  ].join(' '),
  input,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof input>, ctx) {
    const live = findNote(ctx, a);
    // Read the bytes now, not the index: the version must be what is on disk.
    const note = await ctx.engine.parse(live.path);
    if (!visibleTo(ctx)({ ...note.meta, path: note.path })) throw new LithosError('not_found', `No note at "${live.path}".`, { path: live.path });
    let content = note.body;
    if (a.section !== undefined) {
      const s = sectionOf(note, a.section);
      if (s === null) {
        throw new LithosError('not_found', `"${note.path}" has no heading "${a.section}".`, { path: note.path, section: a.section, headings: note.headings.map((h) => h.text) });
      }
      content = s;
    }
    return {
      id: live.nodeId,
      path: note.path,
      title: note.meta.title,
      version: note.contentHash,
      content,
      section: a.section ?? null,
      frontmatter: note.frontmatter,
      meta: { ...note.meta, id: live.nodeId },
      headings: note.headings.map((h) => ({ level: h.level, text: h.text })),
      links: ctx.engine.links(live.path).map(linkAsSeenBy(ctx)).map((l) => ({ raw: l.link.raw, target: l.link.target, resolved: l.targetPath !== null })),
      problems: note.problems.map((p) => ({ code: p.code, field: p.field ?? null, message: p.message })),
    };
  },
});
