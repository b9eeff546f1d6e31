import type { LedgerStanding } from '../../learning/ledger-phases';

/** A ledger entry's phase and vitality as tools show them (lithos_read); nothing for other notes. */
export function ledgerStandingJson(s: LedgerStanding | null): Record<string, unknown> {
  if (!s) return {};
  return {
    phase: s.phase,
    phase_since: new Date(s.phase_since).toISOString(),
    vitality: s.vitality,
    vitality_since: new Date(s.vitality_since).toISOString(),
    effective_confidence: s.effective_confidence,
  };
}
