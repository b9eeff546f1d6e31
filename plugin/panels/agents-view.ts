import type { WorkspaceLeaf } from 'obsidian';
import type { MemorySession } from '../../shared/session/memory-session';
import type { PanelContext } from './context';
import { PanelView } from './panel-view';
import { PANEL_TYPES } from './panel-types';
import type { HumanTools } from './human-tools';
import { ago, countdown, noteLink } from './format';

const TICK_MS = 1000;

/** Agents & tasks: who is registered, what tasks exist, the live claims counting down, and the findings. */
export class AgentsView extends PanelView {
  private timer: number | null = null;

  constructor(leaf: WorkspaceLeaf, ctx: PanelContext) {
    super(leaf, ctx);
  }

  getViewType(): string {
    return PANEL_TYPES.agents;
  }
  getDisplayText(): string {
    return 'Agents & tasks';
  }
  override getIcon(): string {
    return 'bot';
  }

  override async onOpen(): Promise<void> {
    await super.onOpen();
    this.timer = window.setInterval(() => this.tick(), TICK_MS);
    this.registerInterval(this.timer);
  }

  override async onClose(): Promise<void> {
    if (this.timer !== null) window.clearInterval(this.timer);
    this.timer = null;
    await super.onClose();
  }

  /** Whether the countdown interval is running (it stops when the panel closes). */
  get ticking(): boolean {
    return this.timer !== null;
  }

  /** Updates every countdown from its expiry; a claim that lapses says so (the next refresh drops it). */
  tick(): void {
    const now = this.ctx.now();
    this.contentEl.querySelectorAll<HTMLElement>('[data-expires-at]').forEach((el) => {
      const left = Math.max(0, Math.ceil((Number(el.dataset.expiresAt) - now) / 1000));
      el.setText(countdown(left));
      el.toggleClass('is-expired', left === 0);
    });
  }

  protected async draw(root: HTMLElement, memory: MemorySession, tools: HumanTools): Promise<void> {
    root.addClass('lithos-agents');
    const [agents, tasks] = await Promise.all([tools.agents(), tools.tasks()]);
    const now = this.ctx.now();

    root.createEl('h4', { cls: 'lithos-panel-title', text: `Agents (${agents.length})` });
    const al = root.createDiv({ cls: 'lithos-list lithos-agent-list' });
    if (!agents.length) al.createDiv({ cls: 'lithos-empty', text: 'No agent has connected yet.' });
    for (const a of agents) {
      const row = al.createDiv({ cls: 'lithos-row', attr: { 'data-agent': a.id } });
      row.createSpan({ cls: 'lithos-agent-name', text: a.name ? `${a.name} (${a.id})` : a.id });
      if (a.type) row.createSpan({ cls: 'lithos-chip', text: a.type });
      row.createSpan({ cls: 'lithos-muted', text: `seen ${ago(a.last_seen_at, now)}` });
    }

    const open = tasks.filter((t) => t.status === 'open');
    root.createEl('h4', { cls: 'lithos-panel-title', text: `Tasks (${open.length} open of ${tasks.length})` });
    if (!tasks.length) root.createDiv({ cls: 'lithos-empty', text: 'No tasks.' });
    // Open tasks first, then the newest: the list order of lithos_task_list within each group.
    const ordered = [...open, ...tasks.filter((t) => t.status !== 'open')];
    for (const t of ordered) {
      const card = root.createDiv({ cls: `lithos-task is-${t.status}`, attr: { 'data-task-id': t.id } });
      const head = card.createDiv({ cls: 'lithos-task-head' });
      head.createSpan({ cls: 'lithos-task-title', text: t.title });
      head.createSpan({ cls: 'lithos-chip', text: t.status });
      card.createDiv({ cls: 'lithos-muted', text: `${t.id} · by ${t.created_by} · ${ago(t.created_at, now)}${t.tags.length ? ` · #${t.tags.join(' #')}` : ''}` });
      if (t.claims.length) {
        const cl = card.createDiv({ cls: 'lithos-claims' });
        for (const c of t.claims) {
          const row = cl.createDiv({ cls: 'lithos-row lithos-claim' });
          row.createSpan({ cls: 'lithos-claim-aspect', text: c.aspect });
          row.createSpan({ cls: 'lithos-muted', text: c.agent });
          row.createSpan({ cls: 'lithos-ttl', text: countdown(c.remaining_seconds), attr: { 'data-expires-at': String(Date.parse(c.expires_at)) } });
        }
      }
      const findings = await tools.findings(t.id);
      if (findings.length) {
        const fl = card.createEl('ul', { cls: 'lithos-findings' });
        for (const f of findings) {
          const li = fl.createEl('li');
          li.createSpan({ cls: 'lithos-muted', text: `${f.agent}: ` });
          li.createSpan({ text: f.summary });
          const linked = f.knowledge_id ? memory.notes.get(f.knowledge_id) : null;
          if (linked) {
            li.createSpan({ text: ' → ' });
            noteLink(li, linked.cached.meta.title || linked.path, linked.path, (p) => this.openNote(p));
          }
        }
      }
    }
  }
}
