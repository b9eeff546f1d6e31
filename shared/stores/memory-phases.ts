import { LithosError } from '../errors';
import { PHASES, VITALITIES } from '../model/ledger';
import { PHASE_COLS, toPhaseRow } from './memory-rows';
import type { MemoryTables } from './memory-tables';
import type { LedgerPhaseRow } from './memory-types';
import { nonEmpty } from './memory-validate';

/** The knowledge ledger's phase and vitality per entry (table ledger_phases; learning/ledger-phases.ts writes it). */
export class MemoryPhases {
  constructor(private readonly t: MemoryTables) {}

  /** The entry's stored standing; null when none was evaluated yet (a pattern). */
  get(nodeId: string): LedgerPhaseRow | null {
    const r = this.t.db.one(`SELECT ${PHASE_COLS} FROM ledger_phases WHERE node_id = ?`, [nodeId]);
    return r ? toPhaseRow(r) : null;
  }

  /** Every stored standing, by node id. */
  all(): LedgerPhaseRow[] {
    return this.t.db.all(`SELECT ${PHASE_COLS} FROM ledger_phases ORDER BY node_id`).map(toPhaseRow);
  }

  /** Stores the standing (final state); refused before anything is written when a field is wrong. */
  set(row: LedgerPhaseRow): Promise<void> {
    return this.t.mutate(() => {
      checkPhaseRow(row);
      return [{ kind: 'phase', row: { ...row } }];
    });
  }
}

function checkPhaseRow(r: LedgerPhaseRow): void {
  nonEmpty('node_id', r.node_id);
  if (!(PHASES as readonly string[]).includes(r.phase)) throw new LithosError('invalid_argument', `phase must be one of ${PHASES.join(', ')}.`, { value: r.phase });
  if (!(VITALITIES as readonly string[]).includes(r.vitality)) throw new LithosError('invalid_argument', `vitality must be one of ${VITALITIES.join(', ')}.`, { value: r.vitality });
  for (const f of ['phase_since', 'vitality_since', 'evaluated_at'] as const) {
    if (!Number.isFinite(r[f])) throw new LithosError('invalid_argument', `${f} must be a finite number.`, { field: f, value: r[f] });
  }
  if (r.first_used_at !== null && !Number.isFinite(r.first_used_at)) throw new LithosError('invalid_argument', 'first_used_at must be a finite number or null.', { value: r.first_used_at });
}
