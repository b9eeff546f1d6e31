import type { BridgeState } from './bridge-control';

/** What the status bar item says. Pure, so the wording is tested without a DOM. */
export type LithosStatus =
  | { state: 'starting' }
  | { state: 'waiting'; holder: string }
  /** `embed`: notes embedded into all-MiniLM-L6-v2 in the background. */
  | { state: 'progress'; phase: 'load' | 'scan' | 'index' | 'embed'; done: number; total: number }
  | { state: 'ready'; notes: number }
  /** Vault changes are waiting to be indexed. */
  | { state: 'stale'; notes: number }
  /** The previous start died while indexing: nothing is opened or indexed until the person says so. */
  | { state: 'safe' }
  | { state: 'error'; message: string };

const PHASE_VERB = { load: 'loading', scan: 'scanning', index: 'indexing', embed: 'embedding (MiniLM)' } as const;

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
    case 'stale':
      return `Lithos: updating · ${s.notes} ${s.notes === 1 ? 'note' : 'notes'}`;
    case 'safe':
      return 'Lithos: safe mode';
    case 'error':
      return 'Lithos: error';
  }
}

/** The bridge's status bar item. */
export function bridgeStatusText(s: BridgeState): string {
  switch (s.kind) {
    case 'off':
      return 'Bridge: off';
    case 'unsupported':
      return 'Bridge: desktop only';
    case 'starting':
      return 'Bridge: starting…';
    case 'listening':
      return `Bridge: :${s.port} · ${s.agents.length} ${s.agents.length === 1 ? 'agent' : 'agents'}`;
    case 'error':
      return 'Bridge: error';
  }
}

/** The bridge item's tooltip: the agents connected, or what went wrong. */
export function bridgeStatusTooltip(s: BridgeState): string {
  switch (s.kind) {
    case 'off':
      return 'The agents bridge is off. Turn it on in Settings → Lithos Memory, or run "Start the agents bridge".';
    case 'unsupported':
      return s.reason;
    case 'starting':
      return 'The agents bridge is starting.';
    case 'listening':
      return s.agents.length ? `Listening on 127.0.0.1:${s.port}; connected: ${s.agents.join(', ')}` : `Listening on 127.0.0.1:${s.port}; no agent connected.`;
    case 'error':
      return s.message;
  }
}

/** The DOM this needs: standard properties only, not Obsidian's HTMLElement helpers. */
export type StatusElement = Pick<HTMLElement, 'setAttribute' | 'removeAttribute'> & {
  textContent: string | null;
  classList: Pick<DOMTokenList, 'add' | 'toggle'>;
};

/**
 * Renders a status into the status bar item; the error message goes to the hover tooltip, and while the memory
 * is ready the tooltip says when another device's learning was last merged (devices-status.ts).
 */
export class StatusBar {
  private last: LithosStatus | null = null;
  private devices: string | null = null;

  constructor(private readonly el: StatusElement) {
    el.classList.add('lithos-status');
  }

  /** The line about other devices ("Learning from … merged 2 min ago"), or null for none. */
  showDevices(line: string | null): void {
    this.devices = line;
    if (this.last) this.show(this.last);
  }

  show(s: LithosStatus): void {
    this.last = s;
    this.el.textContent = statusText(s);
    this.el.classList.toggle('is-indexing', s.state === 'progress' || s.state === 'starting');
    this.el.classList.toggle('is-error', s.state === 'error');
    this.el.classList.toggle('is-safe-mode', s.state === 'safe');
    if (s.state === 'error') this.el.setAttribute('aria-label', s.message);
    else if (s.state === 'safe')
      this.el.setAttribute('aria-label', 'The last start stopped while indexing, so Lithos has not opened its memory. Click for what to do, or run "Leave safe mode".');
    else if (s.state === 'waiting') this.el.setAttribute('aria-label', `Another Lithos process (${s.holder}) is writing this vault's memory; Lithos starts when it finishes.`);
    else if (this.devices !== null && (s.state === 'ready' || s.state === 'stale')) this.el.setAttribute('aria-label', this.devices);
    else this.el.removeAttribute('aria-label');
  }
}

/** Renders the bridge state into its own status bar item. */
export class BridgeStatusBar {
  constructor(private readonly el: StatusElement) {
    el.classList.add('lithos-status', 'lithos-bridge-status');
  }

  show(s: BridgeState): void {
    this.el.textContent = bridgeStatusText(s);
    this.el.classList.toggle('is-error', s.kind === 'error');
    this.el.setAttribute('aria-label', bridgeStatusTooltip(s));
  }
}
