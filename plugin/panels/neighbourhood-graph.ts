/**
 * A small SVG picture of a note's typed-edge neighbourhood: the note in the middle, its neighbours on a
 * circle, one line per edge with its thickness following the weight; contradicts edges get their own class
 * (red through the theme's --color-red in styles.css). Clicking a neighbour opens it.
 */
import type { EdgeJson } from './human-tools';

const SVG = 'http://www.w3.org/2000/svg';
export const GRAPH_MAX_NEIGHBOURS = 12;
const SIZE = 260;
const RADIUS = 95;
const LABEL_CHARS = 20;
/** Average width of a label character at the graph's 10px font, in viewBox units (for keeping labels inside). */
const CHAR_WIDTH = 5.3;
/** Room kept above and below the outermost nodes for their labels. */
const LABEL_ROOM = 22;

export interface GraphNeighbour {
  id: string;
  path: string;
  title: string;
  /** Strongest edge to/from it decides the line. */
  weight: number;
  type: string;
  direction: 'out' | 'in';
}

/** Neighbours of `centre` from its edges, strongest first, one per note. */
export function neighbours(centre: string, edges: EdgeJson[]): GraphNeighbour[] {
  const best = new Map<string, GraphNeighbour>();
  for (const e of edges) {
    const out = e.from_id === centre;
    const n: GraphNeighbour = out
      ? { id: e.to_id, path: e.to_path, title: e.to_title, weight: e.weight, type: e.type, direction: 'out' }
      : { id: e.from_id, path: e.from_path, title: e.from_title, weight: e.weight, type: e.type, direction: 'in' };
    const prev = best.get(n.id);
    // A contradiction is what the person most needs to see between two notes: it wins over other edges.
    if (!prev || (n.type === 'contradicts' && prev.type !== 'contradicts') || (prev.type !== 'contradicts' && n.weight > prev.weight)) best.set(n.id, n);
  }
  return [...best.values()].sort((a, b) => b.weight - a.weight || a.title.localeCompare(b.title)).slice(0, GRAPH_MAX_NEIGHBOURS);
}

/** Stroke width for an edge weight in [0,1]. */
export function strokeFor(weight: number): number {
  return Math.round((1 + 5 * Math.max(0, Math.min(1, weight))) * 10) / 10;
}

function el<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, parent: Element): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  parent.appendChild(node);
  return node;
}

function label(title: string): string {
  return title.length <= LABEL_CHARS ? title : `${title.slice(0, LABEL_CHARS - 1)}…`;
}

export function renderGraph(parent: HTMLElement, centreTitle: string, list: GraphNeighbour[], open: (path: string) => void): SVGSVGElement {
  const c = SIZE / 2;
  const pos = list.map((_, i) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / Math.max(1, list.length);
    return { x: c + RADIUS * Math.cos(angle), y: c + RADIUS * Math.sin(angle) };
  });
  // Cropped to the nodes actually drawn: three neighbours leave the bottom of the circle empty.
  const ys = [c, ...pos.map((p) => p.y)];
  const top = Math.floor(Math.min(...ys) - LABEL_ROOM);
  const height = Math.ceil(Math.max(...ys) + LABEL_ROOM) - top;
  const svg = el('svg', { class: 'lithos-graph', viewBox: `0 ${top} ${SIZE} ${height}`, role: 'img', 'aria-label': `Typed edges of ${centreTitle}` }, parent);
  list.forEach((n, i) => {
    const line = el('line', { x1: c, y1: c, x2: pos[i].x, y2: pos[i].y, 'stroke-width': strokeFor(n.weight), class: `lithos-graph-edge${n.type === 'contradicts' ? ' is-contradicts' : ''}`, 'data-type': n.type }, svg);
    el('title', {}, line).textContent = `${n.direction === 'out' ? '→' : '←'} ${n.type} (${n.weight.toFixed(2)})`;
  });
  const centre = el('g', { class: 'lithos-graph-node is-centre' }, svg);
  el('circle', { cx: c, cy: c, r: 9 }, centre);
  // The panel's heading names the centre; a label here would sit on the edges.
  el('title', {}, centre).textContent = centreTitle;
  list.forEach((n, i) => {
    const g = el('g', { class: `lithos-graph-node${n.type === 'contradicts' ? ' is-contradicts' : ''}`, 'data-path': n.path, tabindex: 0 }, svg);
    el('circle', { cx: pos[i].x, cy: pos[i].y, r: 6 }, g);
    const below = pos[i].y >= c;
    // Centred under the node but kept inside the picture, so a long title on the side is not cut off.
    const text = label(n.title);
    const half = (text.length * CHAR_WIDTH) / 2;
    const x = Math.min(Math.max(pos[i].x, half + 2), SIZE - half - 2);
    el('text', { x, y: pos[i].y + (below ? 17 : -10), 'text-anchor': 'middle' }, g).textContent = text;
    el('title', {}, g).textContent = n.title;
    g.addEventListener('click', () => open(n.path));
    g.addEventListener('keydown', (ev) => {
      if ((ev).key === 'Enter') open(n.path);
    });
  });
  return svg;
}
