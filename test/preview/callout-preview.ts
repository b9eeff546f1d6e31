/**
 * Renders the managed callout blocks of a note the way Obsidian's reading view lays out a callout
 * (div.callout[data-callout] > .callout-title(.callout-icon, .callout-title-inner) + .callout-content), so
 * styles.css's callout rules can be seen in the preview. Only what managed blocks contain is handled:
 * `> [!type] title` then `> ` lines with [[links]].
 */
import { findBlocks } from '../../shared/conflicts/callout-blocks';

const SVG = 'http://www.w3.org/2000/svg';

/** The two lucide icons the Lithos callouts use (paths from lucide, ISC licence), drawn as Obsidian would. */
const ICONS: Record<string, string[]> = {
  'lucide-git-compare': ['M13 6h3a2 2 0 0 1 2 2v7', 'M11 18H8a2 2 0 0 1-2-2V9', 'M18 15a3 3 0 1 0 0 6 3 3 0 1 0 0-6z', 'M6 3a3 3 0 1 0 0 6 3 3 0 1 0 0-6z'],
  'lucide-archive': ['M3 3h18a1 1 0 0 1 1 1v3a1 1 0 0 1-1 1H3a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1z', 'M4 8v11a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8', 'M10 12h4'],
};

function icon(parent: HTMLElement, name: string): void {
  const svg = document.createElementNS(SVG, 'svg');
  for (const [k, v] of Object.entries({ viewBox: '0 0 24 24', width: '18', height: '18', fill: 'none', stroke: 'currentColor', 'stroke-width': '2', 'stroke-linecap': 'round', 'stroke-linejoin': 'round' })) svg.setAttribute(k, v);
  for (const d of ICONS[name] ?? []) {
    const p = document.createElementNS(SVG, 'path');
    p.setAttribute('d', d);
    svg.appendChild(p);
  }
  parent.appendChild(svg);
}

/** Text with [[link]] / [[link|alias]], [text](url), **bold** and `code`, the inline Markdown managed blocks use. */
function inline(parent: HTMLElement, text: string): void {
  let at = 0;
  for (const m of text.matchAll(/\[\[([^\]|]+)(?:\|([^\]]+))?\]\]|\*\*([^*]+)\*\*|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)/g)) {
    parent.appendText(text.slice(at, m.index));
    if (m[1] !== undefined) parent.createEl('a', { cls: 'internal-link', text: m[2] ?? m[1] });
    else if (m[3] !== undefined) parent.createEl('strong', { text: m[3] });
    else if (m[5] !== undefined) parent.createEl('a', { cls: 'external-link', text: m[5], href: m[6] });
    else parent.createEl('code', { text: m[4] });
    at = m.index + m[0].length;
  }
  parent.appendText(text.slice(at));
}

/** Appends one rendered callout per managed block of `text`; returns how many. */
export function renderManagedCallouts(parent: HTMLElement, text: string): number {
  const blocks = findBlocks(text);
  for (const b of blocks) {
    const lines = text
      .slice(b.start, b.end)
      .split('\n')
      .filter((l) => l.startsWith('>'))
      .map((l) => l.replace(/^> ?/, ''));
    const head = /^\[!([\w-]+)\]\s*(.*)$/.exec(lines[0] ?? '');
    if (!head) continue;
    const callout = parent.createDiv({ cls: 'callout', attr: { 'data-callout': head[1] } });
    const title = callout.createDiv({ cls: 'callout-title' });
    const ic = title.createDiv({ cls: 'callout-icon' });
    icon(ic, getComputedStyle(callout).getPropertyValue('--callout-icon').trim());
    inline(title.createDiv({ cls: 'callout-title-inner' }), head[2]);
    const content = callout.createDiv({ cls: 'callout-content' });
    for (const l of lines.slice(1).filter((x) => x.trim() !== '')) inline(content.createEl('p'), l);
  }
  return blocks.length;
}
