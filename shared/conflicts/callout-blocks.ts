/**
 * Managed callout blocks in a note's text, as pure string functions. A block is
 *
 *     %% lithos:begin <key> %%
 *     > [!lithos-conflict] …
 *     > …
 *
 *     %% lithos:end %%
 *
 * followed by one blank line separating it from the user's text. `%%…%%` is an Obsidian comment, so the
 * markers are invisible in reading view; the blank line before the end marker keeps the marker from being
 * read as a lazy continuation of the callout. Everything outside the blocks is kept byte for byte: a block
 * is replaced where it stands, a new block goes right after the frontmatter, a removed block takes with it
 * exactly the one blank line that was added with it.
 */

const BLOCK_RE = /%% lithos:begin ([^%\r\n]+?) %%\r?\n[\s\S]*?%% lithos:end %%(?:\r?\n(\r?\n)?|$)/g;

export interface ManagedBlock {
  key: string;
  start: number;
  end: number;
  /** Whether the separating blank line after the end marker is part of the block's span. */
  separated: boolean;
}

export function findBlocks(text: string): ManagedBlock[] {
  const out: ManagedBlock[] = [];
  for (const m of text.matchAll(BLOCK_RE)) out.push({ key: m[1], start: m.index, end: m.index + m[0].length, separated: m[2] !== undefined });
  return out;
}

/** The text with every managed block removed (what rule detection reads). */
export function stripManagedBlocks(text: string): string {
  return text.indexOf('%% lithos:begin ') === -1 ? text : text.replace(BLOCK_RE, '');
}

/** A block's text, without the trailing blank line. `lines` are the callout's lines without the `> `. */
export function renderBlock(key: string, lines: readonly string[], eol = '\n'): string {
  return [`%% lithos:begin ${key} %%`, ...lines.map((l) => (l === '' ? '>' : `> ${l}`)), '', '%% lithos:end %%'].join(eol) + eol;
}

/** Offset where the body starts: after the frontmatter block when there is one (Obsidian's rule), else 0. */
export function bodyStart(text: string): number {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const firstEnd = text.indexOf('\n', bom);
  if (firstEnd === -1 || text.slice(bom, firstEnd).replace(/\r$/, '').trimEnd() !== '---') return bom;
  let start = firstEnd + 1;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end).replace(/\r$/, '').trimEnd();
    if (line === '---' || line === '...') return Math.min(end + 1, text.length);
    start = end + 1;
  }
  return bom; // never closed: no frontmatter
}

/**
 * Makes the text's managed blocks exactly `desired` (key → callout lines, in order). Blocks whose key is
 * not desired are removed, the others rewritten in place, new ones inserted after the frontmatter.
 * Returns the text unchanged (same string) when nothing differs.
 */
export function applyBlocks(text: string, desired: ReadonlyMap<string, readonly string[]>): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const found = findBlocks(text);
  const present = new Set(found.map((b) => b.key));
  let out = '';
  let pos = 0;
  const seen = new Set<string>();
  for (const b of found) {
    out += text.slice(pos, b.start);
    pos = b.end;
    const lines = desired.get(b.key);
    if (!lines || seen.has(b.key)) continue; // removed (or a duplicate of a block already kept)
    seen.add(b.key);
    out += renderBlock(b.key, lines, eol) + (b.separated ? eol : '');
  }
  out += text.slice(pos);
  const fresh = [...desired.entries()].filter(([k]) => !present.has(k));
  if (fresh.length > 0) {
    const at = bodyStart(out);
    const insert = fresh.map(([k, lines]) => renderBlock(k, lines, eol) + eol).join('');
    // A note whose frontmatter ends without a newline needs one before the block.
    const lead = at > 0 && out[at - 1] !== '\n' ? eol : '';
    out = out.slice(0, at) + lead + insert + out.slice(at);
  }
  return out === text ? text : out;
}
