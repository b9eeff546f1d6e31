/**
 * The person's actions on memory, shared by the panels' buttons and the commands. Each goes through the
 * lithos_* tool an agent would call (as the person), except the note_type change, which is a frontmatter
 * edit: engine.updateFrontmatter (processFrontMatter semantics) plus its own audit entry.
 */
import { Notice, type App } from 'obsidian';
import type { MemoryEngine } from '../../shared/engine';
import { asLithosError, LithosError } from '../../shared/errors';
import { EDGE_TYPES, NOTE_TYPES, type NoteType } from '../../shared/model/types';
import { feedbackMark } from '../../shared/learning/feedback';
import type { Resolution } from '../../shared/stores/conflict-edges';
import type { PanelContext } from './context';
import { toolsFor, type ConflictJson, type FeedbackJson } from './human-tools';
import { ChoiceModal } from './modals/choice-modal';
import { NoteSuggestModal, type NoteChoice } from './modals/note-suggest-modal';
import { ResolveModal } from './modals/resolve-modal';
import { conflictSnippets, type ConflictCardHandlers } from './conflict-card';
import { NOTE_TYPE_HELP } from './note-type-help';

/** Shows a failed action to the person (a Notice with the tool's message). */
export function report(err: unknown): void {
  new Notice(`Lithos: ${asLithosError(err).message}`);
}

function engineOf(ctx: PanelContext): MemoryEngine | null {
  const e = ctx.engine();
  if (!e) new Notice(ctx.engineError?.() ?? 'Lithos is still opening its memory.');
  return e;
}

// ── note type ───────────────────────────────────────────────────────────

/** Sets a note's note_type in its frontmatter (only that key changes) and audits it as the person. */
export async function setNoteType(engine: MemoryEngine, path: string, type: NoteType): Promise<boolean> {
  const note = engine.note(path);
  if (!note || note.path !== path) throw new LithosError('not_found', `No note at ${path}.`, { path });
  const before = note.cached.meta.note_type;
  if (before === type) return false;
  await engine.updateFrontmatter(path, (fm) => {
    fm.note_type = type;
  });
  await engine.audit.append({ action: 'note.write', actor: { kind: 'human', id: null }, target: note.nodeId, data: { path, field: 'note_type', before, after: type } });
  return true;
}

export function chooseAndSetNoteType(app: App, ctx: PanelContext, path: string, after: () => void = () => undefined): void {
  const engine = engineOf(ctx);
  if (!engine) return;
  const choices = NOTE_TYPES.map((t) => ({ value: t, label: t, detail: NOTE_TYPE_HELP[t] }));
  new ChoiceModal(app, choices, 'Note type…', (type) => {
    setNoteType(engine, path, type)
      .then((changed) => {
        new Notice(changed ? `Lithos: note type set to ${type}.` : `Lithos: the note already is ${type}.`);
        after();
      })
      .catch(report);
  }).open();
}

// ── edges and conflicts ─────────────────────────────────────────────────

/** Resolves with the chosen note, or null when the modal closed without a choice. */
export function pickNote(app: App, engine: MemoryEngine, placeholder: string, exclude: ReadonlySet<string> = new Set()): Promise<NoteChoice | null> {
  return new Promise((resolve) => {
    let chosen = false;
    const modal = new NoteSuggestModal(
      app,
      engine,
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
  const engine = engineOf(ctx);
  if (!engine) return;
  void pickNote(app, engine, 'Link this note to…', new Set([fromPath])).then((target) => {
    if (!target) return;
    const choices = MANUAL_EDGE_TYPES.map((t) => ({ value: t, label: t.replace(/_/g, ' '), detail: `this note ${t.replace(/_/g, ' ')} ${target.title}` }));
    new ChoiceModal(app, choices, 'Edge type…', (type) => {
      toolsFor(engine)
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
  const engine = engineOf(ctx);
  if (!engine) return;
  void pickNote(app, engine, 'This note contradicts…', new Set([path])).then((target) => {
    if (!target) return;
    toolsFor(engine)
      .openConflict(path, target.path, 'Marked as contradicting in Obsidian')
      .then((r) => {
        new Notice(r.created ? `Lithos: conflict with ${target.title} opened.` : `Lithos: these notes already have a conflict (${r.conflict.state}).`);
        after();
      })
      .catch(report);
  });
}

/** Handlers for a conflict card: resolve through lithos_conflict_resolve as the person. */
export function conflictHandlers(app: App, engine: MemoryEngine, c: ConflictJson, after: () => void): ConflictCardHandlers {
  return {
    open: (path) => void app.workspace.openLinkText(path, '', false),
    resolve: async (resolution: Resolution, winner: string | null) => {
      const r = await toolsFor(engine).resolveConflict(c.edge_id, resolution, winner);
      new Notice(`Lithos: conflict ${r.state.replace('_', ' ')}.`);
      after();
    },
    pickMergeNote: async () => (await pickNote(app, engine, 'Both were merged into…', new Set([c.a.path, c.b.path])))?.id ?? null,
    onError: report,
  };
}

export async function openResolveModal(app: App, engine: MemoryEngine, c: ConflictJson, after: () => void = () => undefined): Promise<void> {
  const snippets = await conflictSnippets(engine, c);
  new ResolveModal(app, c, snippets, conflictHandlers(app, engine, c, after)).open();
}

export function chooseAndResolveConflict(app: App, ctx: PanelContext): void {
  const engine = engineOf(ctx);
  if (!engine) return;
  toolsFor(engine)
    .conflicts({ state: 'unreviewed' })
    .then((list) => {
      if (list.length === 0) return void new Notice('Lithos: no unreviewed conflicts.');
      const choices = list.map((c) => ({ value: c, label: `${c.a.title} ⟷ ${c.b.title}`, detail: c.evidence.summary ?? c.evidence.findings?.[0]?.subject ?? c.provenance_actor }));
      new ChoiceModal(app, choices, 'Conflict to resolve…', (c) => void openResolveModal(app, engine, c).catch(report)).open();
    })
    .catch(report);
}

/** The resolve dialog for one conflict (a callout's obsidian://lithos-resolve link); a Notice when it is gone or settled. */
export function resolveConflictById(app: App, ctx: PanelContext, edgeId: string): void {
  const engine = engineOf(ctx);
  if (!engine) return;
  toolsFor(engine)
    .conflicts({ state: 'unreviewed' })
    .then((list) => {
      const c = list.find((x) => x.edge_id === edgeId);
      if (!c) return void new Notice(`Lithos: conflict ${edgeId || '(none given)'} is not open any more (resolved, or its notes are gone).`);
      void openResolveModal(app, engine, c).catch(report);
    })
    .catch(report);
}

// ── feedback ────────────────────────────────────────────────────────────

/**
 * Marks a note misleading through lithos_feedback on the newest receipt that returned it and has had no
 * feedback yet (feedback counts once per receipt). Null when there is no such receipt.
 */
export async function markMisleading(engine: MemoryEngine, nodeId: string): Promise<FeedbackJson | null> {
  const receipt = await openReceiptFor(engine, nodeId);
  if (!receipt) return null;
  return toolsFor(engine).feedback(receipt, [], [nodeId]);
}

/** The newest receipt that returned the note and still takes feedback. */
export async function openReceiptFor(engine: MemoryEngine, nodeId: string): Promise<string | null> {
  const receipts = await toolsFor(engine).receipts({ node: nodeId, limit: 100 });
  return receipts.find((r) => engine.memory.learned.mark(feedbackMark(r.receipt_id)) === null)?.receipt_id ?? null;
}
