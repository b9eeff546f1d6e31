import type { WorkspaceLeaf } from 'obsidian';
import type { MemorySession } from '../../shared/session/memory-session';
import type { Receipt } from '../../shared/retrieval/types';
import type { PanelContext } from './context';
import { PanelView } from './panel-view';
import { PANEL_TYPES } from './panel-types';
import type { HumanTools } from './human-tools';
import { ago, noteLink, num, who } from './format';

const LIMIT = 50;

export interface ReceiptFilter {
  agent?: string;
  task?: string;
  /** A note path or id. */
  node?: string;
}

/** Receipts: recent retrievals by agents and the person, filtered by agent, task or note; one opens to its details. */
export class ReceiptsView extends PanelView {
  private filter: ReceiptFilter = {};
  private openId: string | null = null;

  constructor(leaf: WorkspaceLeaf, ctx: PanelContext) {
    super(leaf, ctx);
  }

  getViewType(): string {
    return PANEL_TYPES.receipts;
  }
  getDisplayText(): string {
    return 'Receipts';
  }
  override getIcon(): string {
    return 'receipt';
  }

  setFilter(filter: ReceiptFilter): Promise<void> {
    this.filter = Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined && v !== ''));
    return this.refresh();
  }

  openReceipt(id: string | null): Promise<void> {
    this.openId = this.openId === id ? null : id;
    return this.refresh();
  }

  protected async draw(root: HTMLElement, _memory: MemorySession, tools: HumanTools): Promise<void> {
    root.addClass('lithos-receipts');
    const [all, receipts] = await Promise.all([tools.receipts({ limit: LIMIT }), tools.receipts({ ...this.filter, limit: LIMIT })]);
    this.drawFilters(root, all);
    root.createDiv({ cls: 'lithos-muted', text: `${receipts.length} receipt${receipts.length === 1 ? '' : 's'}${Object.keys(this.filter).length ? ' (filtered)' : ''}` });
    const list = root.createDiv({ cls: 'lithos-list lithos-receipt-list' });
    const now = this.ctx.now();
    for (const r of receipts) {
      const item = list.createDiv({ cls: `lithos-receipt${r.receipt_id === this.openId ? ' is-open' : ''}`, attr: { 'data-receipt-id': r.receipt_id } });
      const head = item.createDiv({ cls: 'lithos-receipt-head', attr: { role: 'button', tabindex: '0' } });
      head.createSpan({ cls: 'lithos-chip', text: who(r.agent_id) });
      head.createSpan({ cls: 'lithos-query', text: r.query_text });
      head.createSpan({ cls: 'lithos-muted', text: `${ago(r.ts, now)} · ${r.final_nodes.length} notes · t ${num(r.temperature)}` });
      head.addEventListener('click', () => void this.openReceipt(r.receipt_id));
      if (r.receipt_id === this.openId) this.drawDetails(item, r);
    }
    if (!receipts.length) list.createDiv({ cls: 'lithos-empty', text: 'No retrievals match.' });
  }

  /** Pickers over the agents, tasks and notes seen in recent receipts. */
  private drawFilters(root: HTMLElement, recent: Receipt[]): void {
    const bar = root.createDiv({ cls: 'lithos-receipt-filters' });
    const picker = (key: keyof ReceiptFilter, label: string, options: [string, string][]): void => {
      const sel = bar.createEl('select', { cls: 'dropdown', attr: { 'aria-label': label, 'data-filter': key } });
      sel.createEl('option', { text: `any ${label}`, value: '' });
      for (const [value, text] of options) sel.createEl('option', { text, value });
      sel.value = this.filter[key] ?? '';
      sel.addEventListener('change', () => void this.setFilter({ ...this.filter, [key]: sel.value }));
    };
    const uniq = (xs: (string | null)[]): string[] => [...new Set(xs.filter((x): x is string => x !== null))].sort();
    picker('agent', 'agent', uniq(recent.map((r) => r.agent_id)).map((a) => [a, who(a)]));
    picker('task', 'task', uniq(recent.map((r) => r.task_id)).map((t) => [t, t]));
    const notes = new Map<string, string>();
    for (const r of recent) for (const n of r.final_nodes) if (n.path) notes.set(n.path, n.title || n.path);
    picker('node', 'note', [...notes].sort((a, b) => a[1].localeCompare(b[1])));
  }

  private drawDetails(item: HTMLElement, r: Receipt): void {
    const d = item.createDiv({ cls: 'lithos-receipt-details' });
    d.createDiv({ cls: 'lithos-muted', text: `${r.receipt_id} · ${r.ts}` });
    d.createDiv({ text: `Class ${r.query_class}${r.intent ? ` · intent ${r.intent}` : ''}${r.task_id ? ` · task ${r.task_id}` : ''}` });
    d.createDiv({ text: `Temperature ${num(r.temperature)} · coherence ${num(r.coherence)} · terrace ${r.terrace_reached} (${r.terrace2.why})` });
    const ol = d.createEl('ol', { cls: 'lithos-results' });
    for (const n of r.final_nodes) {
      const li = ol.createEl('li');
      if (n.path) noteLink(li, n.title ?? n.path, n.path, (p) => this.openNote(p));
      else li.createSpan({ text: n.id });
      li.createSpan({ cls: 'lithos-score', text: num(n.score, 3) });
      li.createSpan({ cls: 'lithos-muted', text: n.scouts.join(', ') });
    }
    if (r.conflicts.length) d.createDiv({ cls: 'lithos-muted', text: `${r.conflicts.length} ${r.conflicts.length === 1 ? 'conflict' : 'conflicts'} surfaced` });
  }
}
