import type { DriftAlert } from '../../shared/learning/drift';
import { noteLink } from './format';

/** The drift section shows the most urgent first, this many at most: the rest is one `lithos drift` away. */
export const DRIFT_SHOWN = 20;

/**
 * Drift triage at the foot of the conflicts panel (docs/ledger.md, "Drift triage"): each alert's note (a link
 * that opens it), its kind, age and threshold, and what to do. Text only: note titles never become markup.
 */
export function renderDrift(root: HTMLElement, alerts: readonly DriftAlert[], open: (path: string) => void): void {
  const box = root.createDiv({ cls: 'lithos-drift' });
  box.createEl('h5', { cls: 'lithos-drift-title', text: `Drift (${alerts.length})` });
  if (!alerts.length) {
    box.createDiv({ cls: 'lithos-empty', text: 'Every ledger entry is within its thresholds.' });
    return;
  }
  const list = box.createEl('ul', { cls: 'lithos-drift-list' });
  for (const a of alerts.slice(0, DRIFT_SHOWN)) {
    const li = list.createEl('li', { cls: 'lithos-drift-alert', attr: { 'data-kind': a.kind } });
    noteLink(li, a.note.ledger_id ? `${a.note.ledger_id} ${a.note.title}` : a.note.title, a.note.path, open);
    const past = a.threshold.days > 0 ? ` (over ${a.threshold.days})` : '';
    li.createSpan({ cls: 'lithos-drift-what', text: ` · ${a.kind.replace(/_/g, ' ')} · ${a.age_days} d${past}` });
    li.createDiv({ cls: 'lithos-drift-todo', text: a.todo });
  }
  if (alerts.length > DRIFT_SHOWN) box.createDiv({ cls: 'lithos-drift-more', text: `… and ${alerts.length - DRIFT_SHOWN} more: lithos drift <vault> lists them all.` });
}
