/**
 * Relative links in Markdown and the anchors GitHub gives headings, for the docs link check
 * (links.test.ts). Small on purpose: our pages use inline links, images and ATX headings only.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

export interface Link {
  line: number;
  target: string;
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/** Each line of `markdown` with fenced code blocks blanked, so nothing inside them counts. */
function proseLines(markdown: string): string[] {
  let fence: string | null = null;
  return markdown.split('\n').map((line) => {
    const m = FENCE.exec(line);
    if (fence !== null) {
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length) fence = null;
      return '';
    }
    if (m) {
      fence = m[1];
      return '';
    }
    return line;
  });
}

/** Inline code spans removed: `[x](y)` inside backticks is text, not a link. */
function withoutCode(line: string): string {
  return line.replace(/(`+)[^`]*?\1/g, '');
}

/** Every link and image target (`[text](target)`, `![alt](target)`, `[label]: target`) with its line. */
export function linkTargets(markdown: string): Link[] {
  const links: Link[] = [];
  proseLines(markdown).forEach((raw, i) => {
    const line = withoutCode(raw);
    for (const m of line.matchAll(/\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ line: i + 1, target: m[1].replace(/^<|>$/g, '') });
    }
    const def = /^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(line);
    if (def) links.push({ line: i + 1, target: def[1].replace(/^<|>$/g, '') });
  });
  return links;
}

/** A link that leaves the repository's files: a scheme (https:, mailto:, obsidian:) or protocol-relative. */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

/**
 * GitHub's heading anchor: the rendered text lower-cased, everything but letters, marks, digits,
 * connector punctuation, spaces and hyphens dropped, spaces turned into hyphens.
 */
export function githubSlug(heading: string): string {
  // Code spans keep their text (`<vault>` is text there); elsewhere links keep theirs and HTML tags go.
  const text = heading
    .split(/(`+[^`]*?`+)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '')))
    .join('')
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of every ATX heading, repeated ones numbered as GitHub does (`x`, `x-1`, `x-2`). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const m = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (!m) continue;
    const slug = githubSlug(m[1]);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/**
 * Every relative link in `files` (paths under `root`) whose target file does not exist, lies outside
 * `root`, or names a heading its target lacks: one `file:line: target (why)` line each.
 */
export function brokenLinks(root: string, files: readonly string[]): string[] {
  const problems: string[] = [];
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (file: string) => {
    let a = anchorsOf.get(file);
    if (!a) anchorsOf.set(file, (a = headingAnchors(readFileSync(file, 'utf8'))));
    return a;
  };
  for (const file of files) {
    const from = join(root, file);
    for (const { line, target } of linkTargets(readFileSync(from, 'utf8'))) {
      if (isExternal(target)) continue;
      const report = (why: string) => problems.push(`${file}:${line}: ${target} (${why})`);
      const hash = target.indexOf('#');
      const pathPart = decodeURI(hash === -1 ? target : target.slice(0, hash));
      const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
      const dest = pathPart === '' ? from : resolve(dirname(from), pathPart);
      const rel = relative(root, dest);
      if (rel.startsWith(`..${sep}`) || rel === '..') report('outside the repository');
      else if (!existsSync(dest)) report('no such file');
      else if (anchor !== null) {
        if (!dest.endsWith('.md') || statSync(dest).isDirectory()) report('an anchor into a file without headings');
        else if (!anchors(dest).has(anchor)) report(`no heading with anchor #${anchor}`);
      }
    }
  }
  return problems;
}
