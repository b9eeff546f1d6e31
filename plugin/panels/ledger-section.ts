import type { LedgerMeta } from '../../shared/model/ledger-meta';
import type { NoteProblem } from '../../shared/model/types';
import type { MemorySession } from '../../shared/session/memory-session';
import { field, noteLink } from './format';

/**
 * The ledger section of the note memory panel (docs/ledger.md): the kind, its state in capitals with its
 * modifiers, and the kind's own fields — a decision's target and rationale, a claim's evidence chain, a
 * workflow's context, trigger and method, a construct's code pointers — then the rules it breaks. All text
 * goes in as text (createEl/setText), never as HTML.
 */
export interface LedgerSectionHost {
  /** The note path a ref names (a link, path, title, alias or id) from the note's frontmatter `property`, or null. */
  resolve(ref: string, property: string): string | null;
  open(path: string): void;
}

export function renderLedger(root: HTMLElement, ledger: LedgerMeta, problems: readonly NoteProblem[], host: LedgerSectionHost): void {
  const box = root.createDiv({ cls: `lithos-ledger lithos-ledger-${ledger.kind}` });
  box.createEl('h5', { text: `Ledger: ${ledger.kind}` });
  const facts = box.createDiv({ cls: 'lithos-fields' });
  if (ledger.ledger_id) field(facts, 'ID', ledger.ledger_id, 'lithos-ledger-id');
  const state = field(facts, 'State', ledger.state.toUpperCase(), `lithos-ledger-state is-${ledger.state}`);
  for (const m of ledger.modifiers) state.createSpan({ cls: 'lithos-badge lithos-ledger-modifier', text: m.toUpperCase() });

  if (ledger.kind === 'decision') {
    text(facts, 'Target', ledger.target);
    text(facts, 'Rationale', ledger.rationale);
  } else if (ledger.kind === 'workflow') {
    text(facts, 'Context', ledger.context);
    text(facts, 'Trigger', ledger.trigger);
    text(facts, 'Method', ledger.method);
  }
  if (ledger.superseded_by.length) {
    const v = field(facts, 'Replaced by', '', 'lithos-ledger-successor');
    for (const ref of ledger.superseded_by) refLink(v, ref, 'superseded_by', host);
  }

  if (ledger.kind === 'claim') {
    box.createEl('h6', { text: `Evidence (${ledger.evidence.length})` });
    const list = box.createDiv({ cls: 'lithos-list lithos-ledger-evidence' });
    if (!ledger.evidence.length) list.createDiv({ cls: 'lithos-empty', text: 'No evidence: a claim needs some.' });
    for (const e of ledger.evidence) {
      const row = list.createDiv({ cls: `lithos-row is-${e.stance}` });
      row.createSpan({ cls: 'lithos-badge lithos-ledger-stance', text: e.stance.toUpperCase() });
      refLink(row, e.ref, 'evidence', host);
    }
  }
  if (ledger.kind === 'construct') {
    box.createEl('h6', { text: `Code (${ledger.code.length})` });
    const list = box.createDiv({ cls: 'lithos-list lithos-ledger-code' });
    if (!ledger.code.length) list.createDiv({ cls: 'lithos-empty', text: ledger.state === 'active' ? 'No code pointers: an active construct needs some.' : 'None.' });
    for (const c of ledger.code) {
      const row = list.createDiv({ cls: 'lithos-row' });
      if (/^https?:\/\//i.test(c)) row.createEl('a', { cls: 'lithos-ledger-url', text: c, attr: { href: c, target: '_blank', rel: 'noopener' } });
      else row.createEl('code', { text: c });
    }
  }

  const rules = problems.filter((p) => p.code === 'kind_rule' || p.code === 'kind_advice');
  if (rules.length) {
    const list = box.createDiv({ cls: 'lithos-list lithos-ledger-rules' });
    for (const p of rules) list.createDiv({ cls: `lithos-row is-${p.code === 'kind_rule' ? 'broken' : 'advice'}`, text: p.message });
  }
}

/**
 * Resolves a ref of the note at `path` as the viewer may: a wiki link by the link graph (the frontmatter link
 * Obsidian sees too), anything else (path, title, alias, id) by the notes the viewer sees.
 */
export function ledgerRefs(memory: MemorySession, path: string): LedgerSectionHost['resolve'] {
  const links = memory.notes.links(path);
  return (ref, property) => {
    const raw = ref.trim();
    const hit = links.find((l) => l.link.raw === raw && (l.link.property ?? '').split('.')[0] === property);
    if (hit) return hit.targetPath;
    return raw.includes('[[') ? null : (memory.notes.get(raw)?.path ?? null);
  };
}

function text(facts: HTMLElement, label: string, value: string | null): void {
  field(facts, label, value ?? '—', value === null ? 'lithos-muted' : undefined);
}

/** A ref as a clickable note link when it names a note, else as its text (a receipt id, an event id, a missing note). */
function refLink(parent: HTMLElement, ref: string, property: string, host: LedgerSectionHost): void {
  const path = host.resolve(ref, property);
  if (path) noteLink(parent, linkText(ref), path, (p) => host.open(p));
  else parent.createSpan({ cls: 'lithos-ledger-ref is-unresolved', text: ref });
}

/** `[[Note|shown]]` → "shown", `[[Note#Part]]` → "Note#Part"; anything else as written. */
function linkText(ref: string): string {
  const m = /^\[\[([^\]|]+)(?:\|([^\]]+))?\]\]$/.exec(ref.trim());
  return m ? (m[2] ?? m[1]).trim() : ref;
}
