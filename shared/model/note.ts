import { parseFrontmatterYaml, splitFrontmatter } from './frontmatter';
import { contentHash } from './hash';
import { headingInLine } from './headings';
import { frontmatterLinks, linksInLine } from './links';
import { ledgerRefsInFrontmatter, ledgerRefsInLine } from './ledger-id';
import { forEachProseLine } from './markdown-lines';
import { tagsInLine } from './tags';
import { MAX_NOTE_BYTES, type NoteHeading, type NoteLink, type NoteProblem, type ParsedNote } from './types';
import { buildMeta } from './validate';
import { kindProblems } from './ledger-rules';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads one note. Never throws: binary content, bad YAML, wrong field types and over-large notes are
 * recorded in `problems` and the note is still indexed with whatever could be read.
 */
export function parseNote(path: string, input: Uint8Array | string): ParsedNote {
  const problems: NoteProblem[] = [];
  const decoded = decode(path, input, problems);
  if (decoded.text === null) return binaryNote(path, decoded, problems);

  // Hash the text as decoded (BOM removed, line endings untouched) so any real edit changes it.
  const hash = contentHash(decoded.text);
  const text = decoded.text.indexOf('\r') === -1 ? decoded.text : decoded.text.replace(/\r\n?/g, '\n');
  const split = splitFrontmatter(text);

  let frontmatter: Record<string, unknown> = {};
  let body = split.body;
  if (split.yaml !== null) {
    const fm = parseFrontmatterYaml(split.yaml);
    if (fm.kind === 'mapping') frontmatter = fm.data;
    else {
      // Unusable frontmatter: index the whole file as plain text rather than lose it.
      body = text;
      problems.push(
        fm.kind === 'malformed'
          ? { path, code: 'yaml_malformed', message: `Frontmatter is not valid YAML: ${fm.message}` }
          : { path, code: 'frontmatter_not_mapping', message: `Frontmatter must be a mapping of fields; found ${fm.found}.` },
      );
    }
  }

  let fullBody: string | undefined;
  if (decoded.size > MAX_NOTE_BYTES) {
    const whole = body;
    body = truncateUtf8(body, MAX_NOTE_BYTES);
    if (body.length < whole.length) fullBody = whole;
    problems.push({
      path,
      code: 'note_too_large',
      message: `Note is ${decoded.size} bytes, over the ${MAX_NOTE_BYTES}-byte limit; only the first ${utf8Length(body)} bytes of its body are indexed.`,
    });
  }

  const headings: NoteHeading[] = [];
  const links: NoteLink[] = [];
  const inlineTags: string[] = [];
  // One pass over the body for all three extractors (see links.ts / headings.ts / tags.ts).
  forEachProseLine(body, (line, masked, index) => {
    const h = headingInLine(line, index);
    if (h) headings.push(h);
    linksInLine(masked, index, links);
    ledgerRefsInLine(masked, index, links);
    tagsInLine(masked, inlineTags);
  });

  // Property links first, as Obsidian lists them apart from the body's (frontmatterLinks).
  if (split.yaml !== null) links.unshift(...frontmatterLinks(frontmatter), ...ledgerRefsInFrontmatter(frontmatter));

  const meta = buildMeta(frontmatter, path, inlineTags, problems);
  // A ledger entry's kind rules need its body too (a dead construct is a stub): judged here, listed by doctor.
  if (meta.ledger) problems.push(...kindProblems({ path, ledger: meta.ledger, frontmatter, body, headings, links }));
  return {
    path,
    meta,
    frontmatter,
    hasFrontmatter: split.yaml !== null,
    body,
    ...(fullBody === undefined ? {} : { fullBody }),
    headings,
    links,
    problems,
    contentHash: hash,
    size: decoded.size,
  };
}

interface Decoded {
  /** null for binary content. */
  text: string | null;
  size: number;
  bytes?: Uint8Array;
}

function decode(path: string, input: Uint8Array | string, problems: NoteProblem[]): Decoded {
  if (typeof input === 'string') {
    const size = utf8Length(input);
    if (input.indexOf('\0') !== -1) return { text: null, size };
    return { text: input.charCodeAt(0) === 0xfeff ? input.slice(1) : input, size };
  }
  const size = input.byteLength;
  // UTF-16 with a BOM (Windows Notepad) is readable text, though Obsidian expects UTF-8.
  const utf16 = input[0] === 0xff && input[1] === 0xfe ? 'utf-16le' : input[0] === 0xfe && input[1] === 0xff ? 'utf-16be' : null;
  if (utf16) {
    try {
      const text = new TextDecoder(utf16, { fatal: true }).decode(input);
      if (text.indexOf('\0') === -1) {
        problems.push({ path, code: 'encoding', message: `Note is ${utf16.toUpperCase()} encoded; Obsidian expects UTF-8.` });
        return { text, size };
      }
    } catch {
      // fall through: not valid UTF-16 either
    }
    return { text: null, size, bytes: input };
  }
  if (input.indexOf(0) !== -1) return { text: null, size, bytes: input };
  try {
    return { text: utf8.decode(input), size }; // the decoder drops a UTF-8 BOM
  } catch {
    return { text: null, size, bytes: input };
  }
}

function binaryNote(path: string, decoded: Decoded, problems: NoteProblem[]): ParsedNote {
  problems.push({
    path,
    code: 'binary_file',
    message: `File is named .md but holds binary data (NUL bytes or invalid UTF-8, ${decoded.size} bytes); indexed by name only.`,
  });
  return {
    path,
    meta: buildMeta({}, path, [], problems),
    frontmatter: {},
    hasFrontmatter: false,
    body: '',
    headings: [],
    links: [],
    problems,
    contentHash: contentHash(decoded.bytes ? bytesAsLatin1(decoded.bytes) : ''),
    size: decoded.size,
  };
}

/** Bytes as a string of U+0000–U+00FF, one char per byte, so contentHash covers the exact bytes. */
function bytesAsLatin1(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    out += String.fromCharCode.apply(null, Array.from(bytes.subarray(i, i + 8192)));
  }
  return out;
}

/** UTF-8 byte length of a JS string without allocating the encoding. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** The longest prefix of `s` whose UTF-8 encoding fits in `maxBytes`, never splitting a surrogate pair. */
function truncateUtf8(s: string, maxBytes: number): string {
  if (s.length * 3 <= maxBytes) return s;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
    const pair = c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
    const size = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    if (n + size > maxBytes) return s.slice(0, i);
    n += size;
    if (size === 4) i++;
  }
  return s;
}
