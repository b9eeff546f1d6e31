/** Small display helpers shared by the panels (plain text only: callers put it in with setText/createEl). */

/** 0.4567 → "0.46"; integers stay integers. */
export function num(x: number, digits = 2): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(digits);
}

/** An ISO time as "3 min ago" / "in 5 min" relative to `now`, or "never". */
export function ago(iso: string | null, now: number): string {
  if (iso === null) return 'never';
  const ms = now - Date.parse(iso);
  const future = ms < 0;
  const s = Math.round(Math.abs(ms) / 1000);
  const text = s < 60 ? `${s} s` : s < 3600 ? `${Math.round(s / 60)} min` : s < 86_400 ? `${Math.round(s / 3600)} h` : `${Math.round(s / 86_400)} d`;
  return future ? `in ${text}` : `${text} ago`;
}

/** Seconds left as "m:ss" (or "h:mm:ss"), "expired" at 0. */
export function countdown(seconds: number): string {
  if (seconds <= 0) return 'expired';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const pad = (n: number): string => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** An agent id as shown: the person's retrievals carry "human" or nothing. */
export function who(agent: string | null): string {
  return agent === null || agent === 'human' ? 'you' : agent;
}

/** Adds a clickable note title that opens the note. */
export function noteLink(parent: HTMLElement, title: string, path: string, open: (path: string) => void): HTMLElement {
  const a = parent.createEl('a', { cls: 'lithos-note-link', text: title || path, attr: { href: '#', 'data-path': path, title: path } });
  a.addEventListener('click', (ev) => {
    ev.preventDefault();
    open(path);
  });
  return a;
}

/** A label: value row in a definition-like grid. */
export function field(parent: HTMLElement, label: string, value: string, cls?: string): HTMLElement {
  const row = parent.createDiv({ cls: 'lithos-field' });
  row.createSpan({ cls: 'lithos-field-label', text: label });
  const v = row.createSpan({ cls: `lithos-field-value${cls ? ` ${cls}` : ''}`, text: value });
  return v;
}

/** A button that runs an async action, disabled while it runs; failures go to `onError`. */
export function actionButton(parent: HTMLElement, text: string, run: () => Promise<unknown> | void, onError: (err: unknown) => void, cls?: string): HTMLButtonElement {
  const b = parent.createEl('button', { cls: `lithos-button${cls ? ` ${cls}` : ''}`, text });
  b.addEventListener('click', () => {
    b.disabled = true;
    Promise.resolve()
      .then(run)
      .catch(onError)
      .finally(() => {
        b.disabled = false;
      });
  });
  return b;
}
