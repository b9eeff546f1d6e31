/** What the status bar item says. Pure, so the wording is tested without a DOM. */
export type LithosStatus =
  | { state: 'starting' }
  | { state: 'waiting'; holder: string }
  | { state: 'progress'; phase: 'load' | 'scan' | 'index'; done: number; total: number }
  | { state: 'ready'; notes: number }
  | { state: 'error'; message: string };

const PHASE_VERB = { load: 'loading', scan: 'scanning', index: 'indexing' } as const;

export function statusText(s: LithosStatus): string {
  switch (s.state) {
    case 'starting':
      return 'Lithos: starting…';
    case 'waiting':
      return `Lithos: waiting for ${s.holder}`;
    case 'progress':
      return `Lithos: ${PHASE_VERB[s.phase]} ${s.done}/${s.total}`;
    case 'ready':
      return `Lithos: ready · ${s.notes} ${s.notes === 1 ? 'note' : 'notes'}`;
    case 'error':
      return 'Lithos: error';
  }
}

/** The DOM this needs: standard properties only, not Obsidian's HTMLElement helpers. */
export type StatusElement = Pick<HTMLElement, 'setAttribute' | 'removeAttribute'> & {
  textContent: string | null;
  classList: Pick<DOMTokenList, 'add' | 'toggle'>;
};

/** Renders a status into the status bar item; the error message goes to the hover tooltip. */
export class StatusBar {
  constructor(private readonly el: StatusElement) {
    el.classList.add('lithos-status');
  }

  show(s: LithosStatus): void {
    this.el.textContent = statusText(s);
    this.el.classList.toggle('is-indexing', s.state === 'progress' || s.state === 'starting');
    this.el.classList.toggle('is-error', s.state === 'error');
    if (s.state === 'error') this.el.setAttribute('aria-label', s.message);
    else if (s.state === 'waiting') this.el.setAttribute('aria-label', `Another Lithos process (${s.holder}) is writing this vault's memory; Lithos starts when it finishes.`);
    else this.el.removeAttribute('aria-label');
  }
}
