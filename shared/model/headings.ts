import type { NoteHeading } from './types';
import { forEachProseLine } from './markdown-lines';

/** ATX heading: up to 3 spaces, 1–6 '#', then a space/tab (or end of line). `#tag` is not a heading. */
const ATX_RE = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;
/** Optional closing sequence: whitespace then '#'s at the end. */
const CLOSING_RE = /[ \t]+#+[ \t]*$/;

/** The heading on this line, or null. Empty headings (`#` alone) are skipped: nothing to index or link to. */
export function headingInLine(line: string, index: number): NoteHeading | null {
  if (line.indexOf('#') === -1) return null;
  const m = ATX_RE.exec(line);
  if (!m) return null;
  let text = m[2] ?? '';
  text = /^#+[ \t]*$/.test(text) ? '' : text.replace(CLOSING_RE, '').trim();
  return text === '' ? null : { level: m[1].length, text, line: index };
}

/** ATX headings outside fenced code blocks, in document order; `line` is 0-based in the body. */
export function extractHeadings(body: string): NoteHeading[] {
  const out: NoteHeading[] = [];
  forEachProseLine(body, (line, _masked, index) => {
    const h = headingInLine(line, index);
    if (h) out.push(h);
  });
  return out;
}
