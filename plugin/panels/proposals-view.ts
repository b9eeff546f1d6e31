import type { WorkspaceLeaf } from 'obsidian';
import type { MemorySession } from '../../shared/session/memory-session';
import type { PanelContext } from './context';
import { PanelView } from './panel-view';
import { PANEL_TYPES } from './panel-types';
import type { HumanTools, ProposalJson } from './human-tools';
import { actionButton, ago, noteLink } from './format';
import { report } from './actions';

/** How much of a proposed body a card shows; the note itself is one click away. */
const PREVIEW_CHARS = 400;

/**
 * Proposals: agents' changes waiting for the person — writes and deletes of the person's own notes (the
 * trust boundary) and changes in namespaces they confirm — each with what it would do and Accept / Reject.
 */
export class ProposalsView extends PanelView {
  constructor(leaf: WorkspaceLeaf, ctx: PanelContext) {
    super(leaf, ctx);
  }

  getViewType(): string {
    return PANEL_TYPES.proposals;
  }
  getDisplayText(): string {
    return 'Proposals';
  }
  override getIcon(): string {
    return 'git-pull-request';
  }

  protected async draw(root: HTMLElement, memory: MemorySession, tools: HumanTools): Promise<void> {
    root.addClass('lithos-proposals');
    const pending = await tools.proposals('pending');
    const head = root.createDiv({ cls: 'lithos-panel-head' });
    head.createEl('h4', { cls: 'lithos-panel-title', text: `Waiting for you (${pending.length})` });
    // Proposals arrive from agents, not from the index: the person checks for new ones here.
    actionButton(head, 'Refresh', () => this.refresh(), report, 'lithos-refresh');
    if (!pending.length) root.createDiv({ cls: 'lithos-empty', text: 'No agent is waiting for your answer.' });
    const now = this.ctx.now();
    for (const p of pending) this.card(root, p, memory, tools, now);
  }

  private card(root: HTMLElement, p: ProposalJson, memory: MemorySession, tools: HumanTools, now: number): void {
    const card = root.createDiv({ cls: `lithos-proposal is-${p.op}`, attr: { 'data-proposal-id': p.proposal_id } });
    const title = card.createDiv({ cls: 'lithos-proposal-title' });
    title.createSpan({ cls: 'lithos-chip', text: p.op === 'delete' ? 'delete' : p.mode === 'create' ? 'new note' : 'edit' });
    const note = memory.notes.atPath(p.path);
    if (note) noteLink(title, note.cached.meta.title || p.path, note.path, (path) => this.openNote(path));
    else title.createSpan({ text: p.title ?? p.path });
    card.createDiv({ cls: 'lithos-muted lithos-proposal-who', text: `${p.agent} · ${ago(p.created_at, now)} · ${p.path}` });
    card.createDiv({ cls: 'lithos-proposal-why', text: p.why === 'person_note' ? 'Your note: agents change it only with your yes.' : `In "${p.namespace}", where you confirm agents' changes.` });
    const changed = Object.keys(p.fields);
    if (changed.length) card.createDiv({ cls: 'lithos-muted lithos-proposal-fields', text: `Sets ${changed.join(', ')}` });
    if (p.op === 'write' && p.content !== null) {
      const cut = p.content.length > PREVIEW_CHARS;
      card.createEl('pre', { cls: 'lithos-proposal-content', text: cut ? `${p.content.slice(0, PREVIEW_CHARS)}…` : p.content });
    }
    const buttons = card.createDiv({ cls: 'lithos-proposal-actions' });
    const decide = (run: () => Promise<void>) => async () => {
      await run();
      await this.refresh();
    };
    actionButton(buttons, p.op === 'delete' ? 'Accept: delete' : 'Accept', decide(() => tools.acceptProposal(p.proposal_id)), report, 'mod-cta').setAttribute('data-decision', 'accept');
    actionButton(buttons, 'Reject', decide(() => tools.rejectProposal(p.proposal_id)), report).setAttribute('data-decision', 'reject');
  }
}
