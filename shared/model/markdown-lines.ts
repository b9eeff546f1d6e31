/**
 * Line-level Markdown walking shared by the link, heading and tag extractors: skips fenced code
 * blocks and blanks out inline code spans, so nothing inside code is mistaken for a link or tag.
 * Everything here is linear in the input (no nested quantifiers), because notes may be megabytes.
 */

/** Opening/closing fence: ``` or ~~~ (3+), optionally indented or inside `>` quotes (lists indent fences). */
const FENCE_RE = /^(?:[ \t]*>)*[ \t]*(`{3,}|~{3,})(.*)$/;

interface Fence {
  char: string;
  length: number;
}

/**
 * Calls `visit` for every line outside fenced code blocks, with `masked` = the line with inline code
 * spans replaced by spaces (same length, so column positions still match `line`).
 * An unclosed fence runs to the end of the body, as in CommonMark and Obsidian.
 */
export function forEachProseLine(body: string, visit: (line: string, masked: string, index: number) => void): void {
  let fence: Fence | null = null;
  let start = 0;
  let index = 0;
  const n = body.length;
  while (start <= n) {
    let end = body.indexOf('\n', start);
    if (end === -1) end = n;
    let line = body.slice(start, end);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    const marker = line.indexOf('`') !== -1 || line.indexOf('~') !== -1 ? FENCE_RE.exec(line) : null;
    if (fence) {
      // A closing fence uses the same character, at least as long, with nothing after it.
      if (marker && marker[1][0] === fence.char && marker[1].length >= fence.length && marker[2].trim() === '') fence = null;
    } else if (marker && !(marker[1][0] === '`' && marker[2].includes('`'))) {
      fence = { char: marker[1][0], length: marker[1].length };
    } else {
      visit(line, line.indexOf('`') === -1 ? line : maskInlineCode(line), index);
    }
    start = end + 1;
    index++;
  }
}

/**
 * Replaces inline code spans (a run of N backticks up to the next run of exactly N) with spaces.
 * Each run's next same-length run is found in one backward pass, so unmatched runs cost O(1)
 * and a line full of stray backticks stays linear.
 */
export function maskInlineCode(line: string): string {
  const pos: number[] = [];
  const len: number[] = [];
  for (let i = line.indexOf('`'); i !== -1; i = line.indexOf('`', i)) {
    let j = i + 1;
    while (j < line.length && line.charCodeAt(j) === 96) j++;
    pos.push(i);
    len.push(j - i);
    i = j;
  }
  if (pos.length < 2) return line;
  const next = new Array<number>(pos.length);
  const lastOfLength = new Map<number, number>();
  for (let k = pos.length - 1; k >= 0; k--) {
    next[k] = lastOfLength.get(len[k]) ?? -1;
    lastOfLength.set(len[k], k);
  }
  let out = '';
  let last = 0;
  for (let k = 0; k < pos.length; ) {
    const close = next[k];
    if (close === -1) {
      k++;
      continue;
    }
    const end = pos[close] + len[close];
    out += line.slice(last, pos[k]) + ' '.repeat(end - pos[k]);
    last = end;
    k = close + 1;
  }
  return last === 0 ? line : out + line.slice(last);
}
