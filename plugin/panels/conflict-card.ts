import type { MemorySession } from '../../shared/session/memory-session';
import { openToReview, type Resolution } from '../../shared/stores/conflict-edges';
import type { ConflictJson } from './human-tools';
import { actionButton, noteLink } from './format';

const SNIPPET_CHARS = 240;

/** What each side says: the disagreeing sentences a rule found, else the note's short summary or opening text. */
export async function conflictSnippets(memory: MemorySession, c: ConflictJson): Promise<{ a: string; b: string }> {
  const f = c.evidence.findings?.[0];
  if (f) return { a: f.a_sentence, b: f.b_sentence };
  return { a: await opening(memory, c.a.path), b: await opening(memory, c.b.path) };
}

async function opening(memory: MemorySession, path: string): Promise<string> {
  const parsed = await memory.notes.read(memory.notes.find({ path }));
  const short = parsed.meta.summaries.short?.trim();
  if (short) return clip(short);
  // Skip headings, callouts (our own managed ones among them) and blank lines: the first prose is what the note claims.
  const prose = parsed.body
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#') && !l.startsWith('>') && !l.startsWith('---'));
  return clip(prose.join(' '));
}

function clip(s: string): string {
  return s.length <= SNIPPET_CHARS ? s : `${s.slice(0, SNIPPET_CHARS - 1).trimEnd()}…`;
}

/** Why the conflict was opened, in one line. */
export function conflictReason(c: ConflictJson): string {
  const ev = c.evidence;
  const by = c.provenance_type === 'rule' ? `rule (${ev.rule ?? 'detector'})` : c.provenance_actor === 'human' ? 'you' : c.provenance_actor;
  const what = ev.findings?.[0] ? `disagree on "${ev.findings[0].subject}"` : (ev.summary ?? 'marked as contradicting');
  return `${what} · opened by ${by}`;
}

export interface ConflictCardHandlers {
  open: (path: string) => void;
  resolve: (resolution: Resolution, winnerId: string | null) => Promise<unknown>;
  /** Asks for the note both were merged into; null when the person cancels. */
  pickMergeNote: () => Promise<string | null>;
  onError: (err: unknown) => void;
}

/** One conflict: both sides side by side, and a button per resolution. */
export function renderConflictCard(parent: HTMLElement, c: ConflictJson, snippets: { a: string; b: string }, h: ConflictCardHandlers): HTMLElement {
  const card = parent.createDiv({ cls: `lithos-conflict-card is-${c.state}`, attr: { 'data-edge-id': c.edge_id } });
  card.createDiv({ cls: 'lithos-conflict-reason', text: conflictReason(c) });
  const sides = card.createDiv({ cls: 'lithos-conflict-sides' });
  for (const [label, end, text] of [['A', c.a, snippets.a], ['B', c.b, snippets.b]] as const) {
    const side = sides.createDiv({ cls: 'lithos-conflict-side' });
    const head = side.createDiv({ cls: 'lithos-conflict-side-title' });
    head.createSpan({ cls: 'lithos-badge', text: label });
    noteLink(head, end.title, end.path, h.open);
    side.createDiv({ cls: 'lithos-conflict-snippet', text: text || '(no text)' });
  }
  if (!openToReview(c)) {
    card.createDiv({ cls: 'lithos-conflict-state', text: `Resolved: ${c.state.replace('_', ' ')}` });
    return card;
  }
  const auto = c.evidence.resolution?.automatic ? c.evidence.resolution : null;
  if (auto) {
    const stands = auto.winner_id === c.a.id ? 'A' : 'B';
    card.createDiv({ cls: 'lithos-conflict-state is-automatic', text: `Settled automatically (newest wins): superseded by ${stands}, the newer. Confirm with "Superseded by ${stands}" (archives the other), or change it:` });
  }
  const buttons = card.createDiv({ cls: 'lithos-conflict-actions' });
  /** `key` names the button for tests and styling: resolution, and which side is meant. */
  const btn = (key: string, text: string, resolution: Resolution, winner: () => Promise<string | null> | string | null, cls?: string): void => {
    const b = actionButton(
      buttons,
      text,
      async () => {
        const w = await winner();
        if (resolution !== 'accepted_dual' && w === null) return; // the person cancelled the merge-note pick
        await h.resolve(resolution, w);
      },
      h.onError,
      cls,
    );
    b.setAttribute('data-resolution', key);
  };
  btn('accepted_dual', 'Both stand', 'accepted_dual', () => null);
  btn('superseded:a', 'Superseded by A', 'superseded', () => c.a.id);
  btn('superseded:b', 'Superseded by B', 'superseded', () => c.b.id);
  btn('refuted:a', 'Refuted: A is wrong', 'refuted', () => c.b.id, 'mod-warning');
  btn('refuted:b', 'Refuted: B is wrong', 'refuted', () => c.a.id, 'mod-warning');
  btn('merged', 'Merged into…', 'merged', () => h.pickMergeNote());
  return card;
}
