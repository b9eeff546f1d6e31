import type { LedgerStanding } from '../../shared/learning/ledger-phases';
import { ago, field, num } from './format';

/** A ledger entry's phase and vitality in the note memory panel's fields (nothing for other notes). */
export function ledgerStandingFields(facts: HTMLElement, s: LedgerStanding | null, now: number): void {
  if (!s) return;
  field(facts, 'Phase', `${s.phase} · since ${ago(new Date(s.phase_since).toISOString(), now)}`, `lithos-phase lithos-phase-${s.phase}`);
  field(facts, 'Vitality', `${s.vitality} · since ${ago(new Date(s.vitality_since).toISOString(), now)} · confidence ${num(s.effective_confidence)}`, `lithos-vitality lithos-vitality-${s.vitality}`);
}
