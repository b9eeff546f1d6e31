/**
 * The person's actions on memory, shared by the panels' buttons and the commands. Each goes through the
 * lithos_* tool an agent would call (as the person), except the note_type change, which is a frontmatter
 * edit the person's memory session makes and audits (notes.setNoteType).
 */
import { Notice, type App } from 'obsidian';
import { asLithosError } from '../../shared/errors';
import { EDGE_TYPES, NOTE_TYPES } from '../../shared/model/types';
import { openToReview, type Resolution } from '../../shared/stores/conflict-edges';
import type { MemorySession } from '../../shared/session/memory-session';
import type { PanelContext } from './context';
import type { ConflictJson, FeedbackJson, HumanTools } from './human-tools';
import { ChoiceModal } from './modals/choice-modal';
import { NoteSuggestModal, type NoteChoice } from './modals/note-suggest-modal';
import { ResolveModal } from './modals/resolve-modal';
import { conflictSnippets, type ConflictCardHandlers } from './conflict-card';
import { NOTE_TYPE_HELP } from './note-type-help';

/** Shows a failed action to the person (a Notice with the tool's message). */
export function report(err: unknown): void {
  new Notice(`Lithos: ${asLithosError(err).message}`);
}

/** The person's memory, or null after telling the person why there is none yet. */
function memoryOf(ctx: PanelContext): MemorySession | null {
  const m = ctx.memory();
  if (!m) new Notice(ctx.engineError?.() ?? 'Lithos is still opening its memory.');
  return m;
}

// ── note type ───────────────────────────────────────────────────────────

export function chooseAndSetNoteType(app: App, ctx: PanelContext, path: string, after: () => void = () => undefined): void {
  const memory = memoryOf(ctx);
  if (!memory) return;
  const choices = NOTE_TYPES.map((t) => ({ value: t, label: t, detail: NOTE_TYPE_HELP[t] }));
  new ChoiceModal(app, choices, 'Note type…', (type) => {
    memory.notes
      .setNoteType(path, type)
      .then((changed) => {
        new Notice(changed ? `Lithos: note type set to ${type}.` : `Lithos: the note already is ${type}.`);
        after();
      })
      .catch(report);
  }).open();
}

// ── edges and conflicts ─────────────────────────────────────────────────

/** Resolves with the chosen note, or null when the modal closed without a choice. */
export function pickNote(app: App, memory: MemorySession, placeholder: string, exclude: ReadonlySet<string> = new Set()): Promise<NoteChoice | null> {
  return new Promise((resolve) => {
    let chosen = false;
    const modal = new NoteSuggestModal(
      app,
      memory.notes,
      placeholder,
      (n) => {
        chosen = true;
        resolve(n);
      },
      exclude,
    );
    // Obsidian closes a suggest modal before it calls onChooseSuggestion: decide after that has had its turn.
    const close = modal.onClose.bind(modal);
    modal.onClose = () => {
      close();
      void Promise.resolve().then(() => {
        if (!chosen) resolve(null);
      });
    };
    modal.open();
  });
}

/** Edge types a person adds by hand (contradicts opens a conflict: "mark as contradicting"). */
export const MANUAL_EDGE_TYPES = EDGE_TYPES.filter((t) => t !== 'contradicts');

export function chooseAndAddEdge(app: App, ctx: PanelContext, fromPath: string, after: () => void = () => undefined): void {
  const memory = memoryOf(ctx);
  if (!memory) return;
  void pickNote(app, memory, 'Link this note to…', new Set([fromPath])).then((target) => {
    if (!target) return;
    const choices = MANUAL_EDGE_TYPES.map((t) => ({ value: t, label: t.replace(/_/g, ' '), detail: `this note ${t.replace(/_/g, ' ')} ${target.title}` }));
    new ChoiceModal(app, choices, 'Edge type…', (type) => {
      ctx.tools
        .createEdge(fromPath, target.path, type)
        .then(() => {
          new Notice(`Lithos: edge ${type} → ${target.title} added.`);
          after();
        })
        .catch(report);
    }).open();
  });
}

export function chooseAndMarkContradicting(app: App, ctx: PanelContext, path: string, after: () => void = () => undefined): void {
  const memory = memoryOf(ctx);
  if (!memory) return;
  void pickNote(app, memory, 'This note contradicts…', new Set([path])).then((target) => {
    if (!target) return;
    ctx.tools
      .openConflict(path, target.path, 'Marked as contradicting in Obsidian')
      .then((r) => {
        new Notice(r.created ? `Lithos: conflict with ${target.title} opened.` : `Lithos: these notes already have a conflict (${r.conflict.state}).`);
        after();
      })
      .catch(report);
  });
}

/** Handlers for a conflict card: resolve through lithos_conflict_resolve as the person. */
export function conflictHandlers(app: App, memory: MemorySession, tools: HumanTools, c: ConflictJson, after: () => void): ConflictCardHandlers {
  return {
    open: (path) => void app.workspace.openLinkText(path, '', false),
    resolve: async (resolution: Resolution, winner: string | null) => {
      const r = await tools.resolveConflict(c.edge_id, resolution, winner);
      new Notice(`Lithos: conflict ${r.state.replace('_', ' ')}.`);
      after();
    },
    pickMergeNote: async () => (await pickNote(app, memory, 'Both were merged into…', new Set([c.a.path, c.b.path])))?.id ?? null,
    onError: report,
  };
}

export async function openResolveModal(app: App, memory: MemorySession, tools: HumanTools, c: ConflictJson, after: () => void = () => undefined): Promise<void> {
  const snippets = await conflictSnippets(memory, c);
  new ResolveModal(app, c, snippets, conflictHandlers(app, memory, tools, c, after)).open();
}

export function chooseAndResolveConflict(app: App, ctx: PanelContext): void {
  const memory = memoryOf(ctx);
  if (!memory) return;
  ctx.tools
    .conflicts({ state: 'unreviewed' })
    .then((list) => {
      if (list.length === 0) return void new Notice('Lithos: no unreviewed conflicts.');
      const choices = list.map((c) => ({ value: c, label: `${c.a.title} ⟷ ${c.b.title}`, detail: c.evidence.summary ?? c.evidence.findings?.[0]?.subject ?? c.provenance_actor }));
      new ChoiceModal(app, choices, 'Conflict to resolve…', (c) => void openResolveModal(app, memory, ctx.tools, c).catch(report)).open();
    })
    .catch(report);
}

/** The resolve dialog for one conflict (a callout's obsidian://lithos-resolve link); a Notice when it is gone or settled. */
export function resolveConflictById(app: App, ctx: PanelContext, edgeId: string): void {
  const memory = memoryOf(ctx);
  if (!memory) return;
  ctx.tools
    .conflicts()
    .then((list) => {
      const c = list.find((x) => x.edge_id === edgeId && openToReview(x));
      if (!c) return void new Notice(`Lithos: conflict ${edgeId || '(none given)'} is not open any more (resolved, or its notes are gone).`);
      void openResolveModal(app, memory, ctx.tools, c).catch(report);
    })
    .catch(report);
}

// ── feedback ────────────────────────────────────────────────────────────

/**
 * Marks a note misleading through lithos_feedback on the newest receipt that returned it and has had no
 * feedback yet (feedback counts once per receipt). Null when there is no such receipt.
 */
export async function markMisleading(memory: MemorySession, tools: HumanTools, nodeId: string): Promise<FeedbackJson | null> {
  const receipt = await openReceiptFor(memory, tools, nodeId);
  if (!receipt) return null;
  return tools.feedback(receipt, [], [nodeId]);
}

/** The newest receipt that returned the note and still takes feedback. */
export async function openReceiptFor(memory: MemorySession, tools: HumanTools, nodeId: string): Promise<string | null> {
  const receipts = await tools.receipts({ node: nodeId, limit: 100 });
  return receipts.find((r) => memory.learning.awaitsFeedback(r))?.receipt_id ?? null;
}
