import { z } from 'zod';
import { LithosError } from '../../errors';
import type { NoteHeading, ParsedNote } from '../../model/types';
import { boundJson, clipText, pageInfo, pageOf, pageShape } from '../text-budget';
import { READ_ONLY, defineTool, noteRefShape, oneRef, ONE_REF_MESSAGE } from './common';
import { ledgerStandingJson } from './ledger-standing';
import { ledgerIdOf } from '../../model/ledger-id';

const input = z
  .strictObject({
    ...noteRefShape,
    section: z.string().trim().min(1).optional().describe('A heading: only its section.'),
    ...pageShape,
  })
  .refine(oneRef, ONE_REF_MESSAGE);

/** A result lists at most this many headings and links: a huge note must not fill the context with its outline. */
export const MAX_HEADINGS = 50;
export const MAX_LINKS = 50;
/** Frontmatter and meta come a bounded size each (a value can be huge); a heading or link text is cut at this. */
const META_MAX_CHARS = 4_000;
const NAME_MAX_CHARS = 200;

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

/**
 * The outline shown: every heading when there are at most MAX_HEADINGS, else the highest levels that fit
 * (the `#` of a long note rather than its first fifty `####`), in document order. Each carries the
 * character offset where it starts in the body, so an agent can page straight to it.
 */
export function outlineOf(body: string, headings: readonly NoteHeading[]): { level: number; text: string; offset: number }[] {
  let shown = headings;
  if (shown.length > MAX_HEADINGS) {
    const levels = [...new Set(headings.map((h) => h.level))].sort((a, b) => a - b);
    const top = levels.filter((l) => headings.filter((h) => h.level <= l).length <= MAX_HEADINGS).pop() ?? levels[0];
    shown = headings.filter((h) => h.level <= top).slice(0, MAX_HEADINGS);
  }
  const starts = [0];
  for (let i = 0; i < body.length; i++) if (body.charCodeAt(i) === 10) starts.push(i + 1);
  return shown.map((h) => ({ level: h.level, text: clipText(h.text, NAME_MAX_CHARS), offset: starts[Math.min(h.line, starts.length - 1)] }));
}

/**
 * A link's anchor names the section: `Lithos/Graveyard/Decisions#D001-abcd` (a graveyard stub's pointer, `[[ ]]`
 * optional) reads that section, so the pointer can be passed as it is written. An explicit `section` wins.
 */
export function withAnchor<T extends { id?: string; path?: string; title?: string; section?: string }>(a: T): T {
  const key = a.title !== undefined ? 'title' : a.path !== undefined ? 'path' : null;
  const ref = key === null ? undefined : a[key];
  if (key === null || ref === undefined || a.section !== undefined) return a;
  const m = /^(?:\[\[)?([^#\]|]+)#([^\]|]+)(?:\|[^\]]*)?(?:\]\])?$/.exec(ref.trim());
  if (!m) return a;
  const note = key === 'path' && !/\.md$/i.test(m[1]) ? `${m[1]}.md` : m[1];
  return { ...a, [key]: note, section: m[2] };
}

export const lithosRead = defineTool({
  name: 'lithos_read',
  title: 'Read a note',
  description: [
    'Open a note: its Markdown content (paged), metadata, headings with their offsets, links and version (for expected_version; a ledger entry adds its phase and vitality). For a long note read a section by heading or page with offset.',
  ].join(' '),
  input,
  annotations: READ_ONLY,
  async handler(given: z.infer<typeof input>, ctx) {
    const a = withAnchor(given);
    const live = ctx.memory.notes.find(a);
    // Read the bytes now, not the index: the version must be what is on disk.
    const note = await ctx.memory.notes.read(live);
    // A note over MAX_NOTE_BYTES is indexed only in part, but read whole, a page at a time.
    let content = note.fullBody ?? note.body;
    if (a.section !== undefined) {
      const s = sectionOf(note, a.section);
      if (s === null) {
        throw new LithosError('not_found', `"${note.path}" has no heading "${a.section}".`, { path: note.path, section: a.section, headings: outlineOf(note.body, note.headings).map((h) => h.text) });
      }
      content = s;
    }
    const page = pageOf(content, a);
    const links = ctx.memory.notes.links(live.path);
    // A huge frontmatter value (or thousands of tags) is cut, not repeated in full in frontmatter and meta.
    const frontmatter = boundJson(note.frontmatter, META_MAX_CHARS);
    const meta = boundJson({ ...note.meta, id: live.nodeId }, META_MAX_CHARS);
    const ledgerId = ledgerIdOf(note.frontmatter);
    return {
      id: live.nodeId,
      ...(ledgerId === null ? {} : { ledger_id: ledgerId }),
      path: note.path,
      title: note.meta.title,
      version: note.contentHash,
      content: page.text,
      section: a.section ?? null,
      ...pageInfo(page, `Call lithos_read again with offset ${page.next_offset ?? 0}${a.section === undefined ? ', or read one section by heading (headings)' : ''}.`),
      frontmatter: frontmatter.value,
      meta: meta.value,
      ...(frontmatter.truncated || meta.truncated ? { metadata_truncated: true } : {}),
      headings: outlineOf(note.body, note.headings),
      headings_total: note.headings.length,
      links: links.slice(0, MAX_LINKS).map((l) => ({ raw: clipText(l.link.raw, NAME_MAX_CHARS), target: clipText(l.link.target, NAME_MAX_CHARS), resolved: l.targetPath !== null })),
      links_total: links.length,
      problems: note.problems.map((p) => ({ code: p.code, field: p.field ?? null, message: p.message })),
      ...ledgerStandingJson(ctx.memory.learning.ledgerStanding({ id: live.nodeId })),
    };
  },
});
