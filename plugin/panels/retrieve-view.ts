import type { WorkspaceLeaf } from 'obsidian';
import type { MemorySession } from '../../shared/session/memory-session';
import { INTENTS, QUERY_CLASSES, type RetrievalResult, type RetrievedNode, type ScoreTerms } from '../../shared/retrieval/types';
import { RERANK } from '../../shared/retrieval/constants';
import type { PanelChange, PanelContext } from './context';
import { PanelView } from './panel-view';
import { PANEL_TYPES } from './panel-types';
import type { FeedbackJson } from './human-tools';
import { actionButton, noteLink, num } from './format';
import { report } from './actions';

const REASONS_SHOWN = 3;
/**
 * The re-rank's terms as contributions to the score (docs/retrieval.md: score = relevance after intent
 * + Σ weight × term, penalties subtracted), so the numbers under a result add up to its score.
 */
const CONTRIBUTIONS: [keyof typeof RERANK, string][] = [
  ['type_prior', 'type prior'],
  ['scope_affinity', 'scope'],
  ['graph_affinity', 'graph'],
  ['spaced_repetition', 'spaced rep.'],
  ['tag_affinity', 'tag affinity'],
  ['ignored_penalty', 'ignored'],
  ['misleading_penalty', 'misleading'],
  ['concept_damping', 'damping'],
];
const PENALTIES = new Set<string>(['ignored_penalty', 'misleading_penalty', 'concept_damping']);

/** Each term's signed share of the score, relevance first; zero shares left out. */
export function scoreContributions(terms: ScoreTerms): { label: string; value: number; raw: number }[] {
  const out = [{ label: 'relevance', value: terms.intent, raw: terms.base }];
  for (const [key, label] of CONTRIBUTIONS) {
    const value = (PENALTIES.has(key) ? -1 : 1) * RERANK[key] * terms[key];
    if (value !== 0) out.push({ label, value, raw: terms[key] });
  }
  return out;
}

type Mark = 'cited' | 'misleading';

interface RetrieveState {
  query: string;
  queryClass: string;
  intent: string;
  /** Try mode: retrievals teach nothing (no receipt, so no marks to send). Kept across queries. */
  tryMode: boolean;
  result: RetrievalResult | null;
  marks: Map<string, Mark>;
  feedback: FeedbackJson | null;
}

/** Retrieve: run lithos_retrieve as the person, see why each note came back, and say what helped. */
export class RetrieveView extends PanelView {
  private state: RetrieveState = { query: '', queryClass: '', intent: '', tryMode: false, result: null, marks: new Map(), feedback: null };

  constructor(leaf: WorkspaceLeaf, ctx: PanelContext) {
    super(leaf, ctx);
  }

  getViewType(): string {
    return PANEL_TYPES.retrieve;
  }
  getDisplayText(): string {
    return 'Retrieve';
  }
  override getIcon(): string {
    return 'search';
  }
  /** A result stays on screen while notes change; only the memory and the defaults matter. */
  protected override get followsChanges(): readonly PanelChange[] {
    return ['engine', 'settings'];
  }

  get result(): RetrievalResult | null {
    return this.state.result;
  }

  /** Runs a retrieval for `text` with the pickers' class and intent (and the try toggle), and shows it. */
  async runQuery(text: string, opts: { queryClass?: string; intent?: string; try?: boolean } = {}): Promise<void> {
    const query = text.trim();
    if (!this.ctx.memory() || !query) return;
    const d = this.ctx.settings().retrieval ?? {};
    const queryClass = opts.queryClass ?? (this.state.queryClass || d.default_query_class || '');
    const intent = opts.intent ?? (this.state.intent || d.default_intent || '');
    const tryMode = opts.try ?? this.state.tryMode;
    const result = await this.ctx.tools.retrieve({ query_text: query, query_class: queryClass || undefined, intent: intent || undefined, max_context_nodes: d.max_nodes, try: tryMode });
    this.state = { query, queryClass, intent, tryMode, result, marks: new Map(), feedback: null };
    await this.refresh();
  }

  /** Toggles a mark on a result; marks are sent together by "Send feedback" (feedback counts once per receipt; a try has none). */
  toggleMark(id: string, mark: Mark): void {
    if (this.state.feedback || !this.state.result?.receipt_id) return;
    if (this.state.marks.get(id) === mark) this.state.marks.delete(id);
    else this.state.marks.set(id, mark);
    void this.refresh();
  }

  async sendFeedback(): Promise<FeedbackJson | null> {
    const r = this.state.result;
    if (!this.ctx.memory() || !r?.receipt_id || this.state.feedback) return null;
    const pick = (m: Mark): string[] => [...this.state.marks].filter(([, v]) => v === m).map(([id]) => id);
    this.state.feedback = await this.ctx.tools.feedback(r.receipt_id, pick('cited'), pick('misleading'));
    await this.refresh();
    return this.state.feedback;
  }

  protected async draw(root: HTMLElement, memory: MemorySession): Promise<void> {
    root.addClass('lithos-retrieve');
    this.drawForm(root);
    const r = this.state.result;
    if (!r) {
      root.createDiv({ cls: 'lithos-empty', text: 'Ask memory a question: the ranked notes and why each came back appear here.' });
      return;
    }
    const meta = root.createDiv({ cls: 'lithos-retrieve-meta' });
    meta.createSpan({ cls: 'lithos-chip', text: `temperature ${num(r.temperature)}` });
    meta.createSpan({ cls: 'lithos-chip', text: `coherence ${num(r.coherence)}` });
    meta.createSpan({ cls: 'lithos-chip', text: `terrace ${r.terrace_reached}` });
    meta.createSpan({ cls: 'lithos-chip', text: `class ${r.query_class}${r.intent ? ` · ${r.intent}` : ''}` });
    root.createDiv({ cls: 'lithos-muted lithos-terrace2', text: terrace2Line(r.terrace2) });

    const list = root.createEl('ol', { cls: 'lithos-results' });
    for (const n of r.nodes) this.drawNode(list, n);
    if (!r.nodes.length) root.createDiv({ cls: 'lithos-empty', text: 'Nothing in memory matches.' });

    if (r.conflicts.length) {
      root.createEl('h5', { text: `Conflicts among these (${r.conflicts.length})` });
      const cl = root.createDiv({ cls: 'lithos-list' });
      for (const c of r.conflicts) {
        const a = memory.notes.get(c.a)?.cached.meta.title ?? c.a;
        const b = memory.notes.get(c.b)?.cached.meta.title ?? c.b;
        cl.createDiv({ cls: 'lithos-row is-contradicts', text: `${a} ⟷ ${b} (${c.state ?? 'unreviewed'})` });
      }
    }
    this.drawFeedback(root, r);
  }

  private drawForm(root: HTMLElement): void {
    const form = root.createEl('form', { cls: 'lithos-retrieve-form' });
    const input = form.createEl('input', { cls: 'lithos-query-input', attr: { type: 'search', placeholder: 'What do you need memory for?', 'aria-label': 'Query' } });
    input.value = this.state.query;
    const row = form.createDiv({ cls: 'lithos-retrieve-pickers' });
    const d = this.ctx.settings().retrieval ?? {};
    const cls = row.createEl('select', { cls: 'dropdown lithos-class-picker', attr: { 'aria-label': 'Query class' } });
    for (const c of QUERY_CLASSES) cls.createEl('option', { text: c, value: c });
    cls.value = this.state.queryClass || d.default_query_class || 'lookup';
    const intent = row.createEl('select', { cls: 'dropdown lithos-intent-picker', attr: { 'aria-label': 'Intent' } });
    intent.createEl('option', { text: 'any intent', value: '' });
    for (const i of INTENTS) intent.createEl('option', { text: i.replace('_', ' '), value: i });
    intent.value = this.state.intent || d.default_intent || '';
    const tryLabel = row.createEl('label', { cls: 'lithos-try-toggle', attr: { title: 'Try queries without teaching memory: no receipt, nothing learned' } });
    const tryBox = tryLabel.createEl('input', { cls: 'lithos-try-input', attr: { type: 'checkbox', 'aria-label': 'Try (teach nothing)' } });
    tryBox.checked = this.state.tryMode;
    tryLabel.appendText(' Try (teach nothing)');
    row.createEl('button', { cls: 'mod-cta lithos-button', text: 'Retrieve', attr: { type: 'submit' } });
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.runQuery(input.value, { queryClass: cls.value, intent: intent.value, try: tryBox.checked }).catch(report);
    });
  }

  private drawNode(list: HTMLElement, n: RetrievedNode): void {
    const mark = this.state.marks.get(n.id);
    const item = list.createEl('li', { cls: `lithos-result${mark ? ` is-${mark}` : ''}`, attr: { 'data-id': n.id } });
    const head = item.createDiv({ cls: 'lithos-result-head' });
    noteLink(head, n.title, n.path, (p) => this.openNote(p));
    head.createSpan({ cls: 'lithos-score', text: num(n.score, 3) });
    const sub = item.createDiv({ cls: 'lithos-muted' });
    sub.setText(`${n.note_type} · ${n.namespace}`);
    const scouts = item.createDiv({ cls: 'lithos-scouts' });
    for (const s of n.scouts) scouts.createSpan({ cls: 'lithos-chip lithos-scout', text: s });
    const why = item.createEl('ul', { cls: 'lithos-reasons' });
    for (const reason of n.reasons.slice(0, REASONS_SHOWN)) why.createEl('li', { text: reason });
    const terms = item.createDiv({ cls: 'lithos-terms' });
    scoreContributions(n.terms).forEach((t, i) => {
      const sign = i === 0 ? '' : t.value < 0 ? '−' : '+';
      terms.createSpan({ cls: `lithos-term${t.value < 0 ? ' is-negative' : ''}`, text: `${t.label} ${sign}${Math.abs(t.value).toFixed(3)}`, attr: { title: `term ${num(t.raw, 3)}` } });
    });
    if (this.state.result?.receipt_id && !this.state.feedback) {
      const acts = item.createDiv({ cls: 'lithos-result-actions' });
      const b1 = acts.createEl('button', { cls: `lithos-button${mark === 'cited' ? ' is-active' : ''}`, text: mark === 'cited' ? 'Cited ✓' : 'Cite', attr: { 'data-mark': 'cited' } });
      b1.addEventListener('click', () => this.toggleMark(n.id, 'cited'));
      const b2 = acts.createEl('button', { cls: `lithos-button mod-warning${mark === 'misleading' ? ' is-active' : ''}`, text: mark === 'misleading' ? 'Misleading ✓' : 'Misleading', attr: { 'data-mark': 'misleading' } });
      b2.addEventListener('click', () => this.toggleMark(n.id, 'misleading'));
    }
  }

  private drawFeedback(root: HTMLElement, r: RetrievalResult): void {
    const box = root.createDiv({ cls: 'lithos-feedback' });
    if (r.try) box.createSpan({ cls: 'lithos-muted lithos-try-note', text: 'A try: no receipt was written and memory learned nothing from it.' });
    if (!r.receipt_id) return;
    box.createSpan({ cls: 'lithos-muted', text: `Receipt ${r.receipt_id}` });
    const f = this.state.feedback;
    if (f) {
      box.createDiv({
        cls: 'lithos-feedback-result',
        text: f.applied ? `Feedback sent: ${f.used.length} used, ${f.ignored.length} ignored, ${f.misleading.length} misleading${f.exploration_passed_over.length ? `, ${f.exploration_passed_over.length} exploration pick(s) passed over at no cost` : ''}${f.quarantined.length ? `, ${f.quarantined.length} quarantined` : ''}.` : 'Feedback for this retrieval had already been given.',
      });
      return;
    }
    const b = actionButton(box, `Send feedback (${this.state.marks.size} marked)`, () => this.sendFeedback(), report, 'mod-cta');
    b.setAttribute('data-action', 'send-feedback');
  }
}

/** The interpretive pass in words for the person: in Obsidian there is no LLM to run it, so say so plainly. */
export function terrace2Line(t: { wanted: boolean; why: string; outcome: string }): string {
  if (!t.wanted) return `Interpretive pass not needed: ${t.why}.`;
  if (t.outcome.startsWith('skipped: no interpreter')) {
    return `Interpretive pass wanted (${t.why}); it needs an LLM, which an agent's MCP client lends through sampling, so here the fast re-rank stands.`;
  }
  return `Interpretive pass (${t.why}): ${t.outcome}.`;
}
