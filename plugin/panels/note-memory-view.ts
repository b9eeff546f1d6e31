import type { TFile, WorkspaceLeaf } from 'obsidian';
import type { MemorySession } from '../../shared/session/memory-session';
import type { PanelContext } from './context';
import { PanelView } from './panel-view';
import { PANEL_TYPES } from './panel-types';
import type { EdgeJson, HumanTools } from './human-tools';
import { actionButton, ago, field, noteLink, num, who } from './format';
import { neighbours, renderGraph } from './neighbourhood-graph';
import { Notice } from 'obsidian';
import { chooseAndAddEdge, chooseAndMarkContradicting, chooseAndSetNoteType, markMisleading, openReceiptFor, openResolveModal, report } from './actions';
import { openToReview } from '../../shared/stores/conflict-edges';
import { ledgerStandingFields } from './ledger-standing';
import { ledgerRefs, renderLedger } from './ledger-section';

const RECEIPTS_SHOWN = 8;

/** Note memory: what Lithos knows and learned about the note in the active editor. */
export class NoteMemoryView extends PanelView {
  /** The note shown: the last Markdown file opened in the main area. */
  private path: string | null = null;

  constructor(leaf: WorkspaceLeaf, ctx: PanelContext) {
    super(leaf, ctx);
  }

  getViewType(): string {
    return PANEL_TYPES.noteMemory;
  }
  getDisplayText(): string {
    return 'Note memory';
  }
  override getIcon(): string {
    return 'brain-circuit';
  }

  override async onOpen(): Promise<void> {
    this.follow(this.app.workspace.getActiveFile());
    // Clicking into this panel makes it the active leaf; the note shown stays the last one opened.
    this.registerEvent(this.app.workspace.on('file-open', (file) => this.follow(file, true)));
    this.registerEvent(this.app.workspace.on('active-leaf-change', () => this.follow(this.app.workspace.getActiveFile(), true)));
    await super.onOpen();
  }

  /** Shows `file` when it is a note other than the one shown. */
  follow(file: TFile | null, rerender = false): void {
    if (!file || file.extension !== 'md' || file.path === this.path) return;
    this.path = file.path;
    if (rerender) void this.refresh();
  }

  get shownPath(): string | null {
    return this.path;
  }

  protected async draw(root: HTMLElement, memory: MemorySession, tools: HumanTools): Promise<void> {
    root.addClass('lithos-note-memory');
    const path = this.path;
    const note = path ? memory.notes.get(path) : null;
    if (!path || !note || note.path !== path) {
      root.createDiv({ cls: 'lithos-empty', text: path ? `${path} is not in Lithos memory (yet).` : 'Open a note to see what Lithos knows about it.' });
      return;
    }
    const [stats, edges, conflicts, receipts, misleadable] = await Promise.all([
      tools.nodeStats(path),
      tools.edges(path),
      tools.conflicts({ node: path }),
      tools.receipts({ node: note.nodeId, limit: RECEIPTS_SHOWN }),
      openReceiptFor(memory, tools, note.nodeId),
    ]);
    const meta = note.cached.meta;
    const now = this.ctx.now();

    const title = root.createEl('h4', { cls: 'lithos-panel-title', text: meta.title || path });
    // The ledger ID first, as people and agents cite it (docs/ledger.md#stable-ids).
    if (note.cached.ledgerId) title.createSpan({ cls: 'lithos-ledger-id', text: `${note.cached.ledgerId} `, prepend: true });
    root.createDiv({ cls: 'lithos-muted', text: path });

    const facts = root.createDiv({ cls: 'lithos-fields' });
    field(facts, 'Type', stats.note_type, 'lithos-note-type');
    field(facts, 'Namespace', stats.namespace);
    field(facts, 'Access', meta.access_scope);
    field(facts, 'Status', meta.status, `lithos-status-${meta.status}`);
    field(facts, 'Salience', num(stats.salience), 'lithos-salience');
    field(facts, 'Retrieved', `${stats.retrieval_count}× · last ${ago(stats.last_retrieved_at, now)}`, 'lithos-retrieved');
    field(facts, 'Used', `${stats.use_count}× · last ${ago(stats.last_used_at, now)}`, 'lithos-used');
    field(facts, 'Ignored / misleading', `${stats.ignored_count} / ${stats.misleading_count}`, 'lithos-ignored-misleading');
    field(facts, 'Recall interval', `${num(stats.spaced_rep_strength)} d`);
    ledgerStandingFields(facts, memory.learning.ledgerStanding({ path }), now);
    if (meta.ledger) renderLedger(root, meta.ledger, note.cached.problems, { resolve: ledgerRefs(memory, path), open: (p) => this.openNote(p) });

    const actions = root.createDiv({ cls: 'lithos-actions' });
    actionButton(actions, 'Set type…', () => chooseAndSetNoteType(this.app, this.ctx, path, () => void this.refresh()), report);
    actionButton(actions, 'Add edge…', () => chooseAndAddEdge(this.app, this.ctx, path, () => void this.refresh()), report);
    actionButton(actions, 'Open conflict…', () => chooseAndMarkContradicting(this.app, this.ctx, path, () => void this.refresh()), report);
    const mis = actionButton(
      actions,
      'Mark misleading',
      async () => {
        const r = await markMisleading(memory, tools, note.nodeId);
        new Notice(r ? `Lithos: marked misleading (receipt ${r.receipt_id}).` : 'Lithos: no retrieval without feedback returned this note.');
        await this.refresh();
      },
      report,
      'mod-warning',
    );
    mis.setAttribute('data-action', 'mark-misleading');
    if (!misleadable) {
      // Feedback belongs to a retrieval: without one that still takes feedback there is nothing to mark.
      mis.disabled = true;
      mis.setAttribute('title', 'No retrieval that returned this note is waiting for feedback.');
    }

    root.createEl('h5', { text: 'Neighbourhood' });
    const near = neighbours(note.nodeId, edges);
    if (near.length) renderGraph(root.createDiv({ cls: 'lithos-graph-box' }), meta.title || path, near, (p) => this.openNote(p));
    else root.createDiv({ cls: 'lithos-empty', text: 'No typed edges yet.' });

    this.edgeList(root, 'Edges out', edges.filter((e) => e.from_id === note.nodeId), 'out');
    this.edgeList(root, 'Edges in', edges.filter((e) => e.to_id === note.nodeId), 'in');

    root.createEl('h5', { text: `Conflicts (${conflicts.length})` });
    const cl = root.createDiv({ cls: 'lithos-list lithos-note-conflicts' });
    if (!conflicts.length) cl.createDiv({ cls: 'lithos-empty', text: 'None.' });
    for (const c of conflicts) {
      const other = c.a.id === note.nodeId ? c.b : c.a;
      const row = cl.createDiv({ cls: `lithos-row is-${c.state}` });
      row.createSpan({ cls: 'lithos-badge', text: `${c.state.replace('_', ' ')}${c.evidence.resolution?.automatic ? ' (automatic)' : ''}` });
      noteLink(row, other.title, other.path, (p) => this.openNote(p));
      if (openToReview(c)) actionButton(row, 'Resolve…', () => openResolveModal(this.app, memory, tools, c, () => void this.refresh()), report);
    }

    root.createEl('h5', { text: 'Surfaced by' });
    const rl = root.createDiv({ cls: 'lithos-list lithos-note-receipts' });
    if (!receipts.length) rl.createDiv({ cls: 'lithos-empty', text: 'No retrieval has returned this note yet.' });
    for (const r of receipts) {
      const rank = r.final_nodes.findIndex((n) => n.id === note.nodeId) + 1;
      const row = rl.createDiv({ cls: 'lithos-row' });
      row.createSpan({ cls: 'lithos-query', text: `“${r.query_text}”` });
      row.createSpan({ cls: 'lithos-muted', text: `${ago(r.ts, now)} · ${who(r.agent_id)}${rank > 0 ? ` · ranked #${rank}` : ''}` });
    }
  }

  private edgeList(root: HTMLElement, heading: string, edges: EdgeJson[], dir: 'out' | 'in'): void {
    root.createEl('h5', { text: `${heading} (${edges.length})` });
    const list = root.createDiv({ cls: `lithos-list lithos-edges-${dir}` });
    if (!edges.length) list.createDiv({ cls: 'lithos-empty', text: 'None.' });
    for (const e of [...edges].sort((a, b) => b.weight - a.weight)) {
      const row = list.createDiv({ cls: `lithos-row lithos-edge${e.type === 'contradicts' ? ' is-contradicts' : ''}` });
      row.createSpan({ cls: 'lithos-edge-type', text: e.type });
      if (dir === 'out') noteLink(row, e.to_title, e.to_path, (p) => this.openNote(p));
      else noteLink(row, e.from_title, e.from_path, (p) => this.openNote(p));
      row.createSpan({ cls: 'lithos-edge-weight', text: e.weight.toFixed(2) });
      row.createSpan({ cls: 'lithos-muted', text: e.provenance_type === 'human' ? 'you' : `${e.provenance_type}: ${e.provenance_actor}` });
    }
  }
}
