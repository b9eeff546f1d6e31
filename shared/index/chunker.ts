/**
 * Splits a note body into chunks for vectors and snippets. Chunks end on paragraph or heading boundaries
 * and aim at `min`–`max` characters: small sections are merged forward (a heading only starts a new chunk
 * once the current one has reached `min`), and a single paragraph longer than `max` is cut at sentence,
 * then word, then character boundaries. Heading lines stay in the chunk text (they carry meaning for
 * embeddings and read naturally in snippets); chunk texts joined hold every word of the body.
 */

export interface Chunk {
  index: number;
  text: string;
  /** The heading the chunk starts under (its own first line when it starts with one), null before any. */
  heading: string | null;
}

export const CHUNK_MIN = 500;
export const CHUNK_MAX = 1000;

const HEADING_RE = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE_RE = /^ {0,3}(`{3,}|~{3,})/;
// No lookbehind: older iOS webviews (Obsidian mobile) reject it at parse time.
const SENTENCE_END_RE = /([.!?。！？])\s+/gu;

interface Block {
  text: string;
  heading: string | null; // set for heading lines
  code: boolean;
}

export function chunkBody(body: string, opts: { min?: number; max?: number } = {}): Chunk[] {
  const max = Math.max(1, opts.max ?? CHUNK_MAX);
  const min = Math.min(opts.min ?? CHUNK_MIN, max);
  const chunks: Chunk[] = [];
  let parts: string[] = [];
  let length = 0;
  let chunkHeading: string | null = null;
  let current: string | null = null; // heading in effect

  const flush = (): void => {
    if (parts.length > 0) chunks.push({ index: chunks.length, text: parts.join('\n\n'), heading: chunkHeading });
    parts = [];
    length = 0;
    chunkHeading = current;
  };
  const append = (text: string): void => {
    length += (parts.length > 0 ? 2 : 0) + text.length;
    parts.push(text);
  };

  for (const block of splitBlocks(body)) {
    if (block.heading !== null) {
      if (length >= min) flush();
      current = block.heading;
      if (parts.length === 0) chunkHeading = current;
    }
    if (block.text.length > max) {
      flush();
      for (const piece of splitLong(block.text, max, block.code)) {
        append(piece);
        if (length >= min) flush();
      }
      continue;
    }
    if (parts.length > 0 && length + 2 + block.text.length > max) flush();
    append(block.text);
  }
  flush();
  return chunks;
}

/** Paragraphs (runs of non-blank lines), heading lines, and fenced code blocks kept whole. */
function splitBlocks(body: string): Block[] {
  const blocks: Block[] = [];
  let para: string[] = [];
  const endPara = (): void => {
    const text = para.join('\n').trim();
    if (text) blocks.push({ text, heading: null, code: false });
    para = [];
  };
  const lines = body.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = FENCE_RE.exec(line);
    if (fence) {
      endPara();
      const marker = fence[1];
      const code = [line];
      while (++i < lines.length) {
        code.push(lines[i]);
        if (lines[i].trim().startsWith(marker)) break;
      }
      blocks.push({ text: code.join('\n').trimEnd(), heading: null, code: true });
      continue;
    }
    const heading = HEADING_RE.exec(line);
    if (heading) {
      endPara();
      blocks.push({ text: line.trim(), heading: heading[2].trim(), code: false });
      continue;
    }
    if (line.trim() === '') endPara();
    else para.push(line);
  }
  endPara();
  return blocks;
}

/** Pieces of at most `max` characters: whole sentences (lines for code) where possible, then words, then characters. */
function splitLong(text: string, max: number, code: boolean): string[] {
  const sep = code ? '\n' : ' ';
  const units = code ? text.split('\n') : text.replace(SENTENCE_END_RE, '$1\u0000').split('\u0000');
  const pieces: string[] = [];
  let cur = '';
  for (const unit of units.flatMap((u) => (u.length > max ? splitWords(u, max) : [u]))) {
    if (cur && cur.length + 1 + unit.length > max) {
      pieces.push(cur);
      cur = '';
    }
    cur = cur ? `${cur}${sep}${unit}` : unit;
  }
  if (cur) pieces.push(cur);
  return pieces.map((p) => (code ? p.trimEnd() : p.trim())).filter((p) => p.trim().length > 0);
}

function splitWords(text: string, max: number): string[] {
  const out: string[] = [];
  let rest = text.trim();
  while (rest.length > max) {
    let cut = rest.lastIndexOf(' ', max);
    if (cut <= 0) cut = safeCut(rest, max);
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) out.push(rest);
  return out;
}

/** A cut position that never separates a UTF-16 surrogate pair (an emoji or a rare Han character). */
function safeCut(text: string, at: number): number {
  const c = text.charCodeAt(at - 1);
  return c >= 0xd800 && c <= 0xdbff ? at - 1 : at;
}

/**
 * The text to embed for a chunk: note title and the chunk's heading give the vector its context.
 * Search quality figures were measured with exactly this, so the engine should embed this string.
 */
export function embeddingText(title: string, chunk: Chunk): string {
  const lines: string[] = [];
  if (title) lines.push(title);
  if (chunk.heading && !chunk.text.startsWith('#')) lines.push(chunk.heading);
  lines.push(chunk.text);
  return lines.join('\n');
}
