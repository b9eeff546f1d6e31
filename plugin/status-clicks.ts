import type { BridgeState } from './bridge-control';
import { PANEL_TYPES, type PanelType } from './panels/panel-types';
import type { LithosStatus } from './status-bar';

/** What a click on a status bar item does: explain what is wrong, or open the panel that shows more. */
export type ClickOutcome = { notify: string } | { reveal: PanelType };

/** The index item: a problem is explained (its tooltip is easy to miss); otherwise the Retrieve panel opens. */
export function indexStatusClick(s: LithosStatus): ClickOutcome {
  if (s.state === 'safe') return { notify: 'Lithos is in safe mode because its last start stopped while indexing. Run "Leave safe mode" from the command palette to try again.' };
  if (s.state === 'error') return { notify: s.message };
  if (s.state === 'waiting') return { notify: `Lithos waits for ${s.holder} to finish with this vault.` };
  return { reveal: PANEL_TYPES.retrieve };
}

/** The bridge item: the Agents panel while it listens; otherwise why it does not, and how to start it. */
export function bridgeStatusClick(s: BridgeState | undefined): ClickOutcome {
  if (s?.kind === 'listening') return { reveal: PANEL_TYPES.agents };
  if (s?.kind === 'error') return { notify: s.message };
  if (s?.kind === 'unsupported') return { notify: s.reason };
  return { notify: 'The agents bridge is off: run "Start the agents bridge", or turn it on in Settings → Lithos Memory.' };
}

/** Carries out a click's outcome. */
export function followClick(outcome: ClickOutcome, to: { notify(message: string): void; reveal(type: PanelType): void }): void {
  if ('notify' in outcome) to.notify(outcome.notify);
  else to.reveal(outcome.reveal);
}
