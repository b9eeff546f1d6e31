import { openVault } from '../open-vault';
import { printJson, table } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';
import type { Common } from './conflicts-cmd';

/**
 * `lithos drift <vault>`: the ledger's stale entries past their thresholds, most urgent first (docs/ledger.md,
 * "Drift triage"); the thresholds are learning.json's `drift` group (`lithos learning`).
 */
export async function driftCommand(vault: string, o: Common): Promise<number> {
  const v = await openVault(vault, { write: false, logger: o.logger });
  try {
    await v.reconcile();
    const alerts = await v.memory.drift.alerts();
    if (o.json) printJson(o.out, { alerts });
    else if (alerts.length === 0) o.out('No drift: every ledger entry is within its thresholds.');
    else {
      o.out(table([['kind', 'note', 'age', 'threshold', 'path'], ...alerts.map((a) => [a.kind, a.note.ledger_id ?? a.note.title, `${a.age_days}d`, a.threshold.days > 0 ? `${a.threshold.key} ${a.threshold.days}d` : 'at once', a.note.path])]));
      for (const a of alerts) o.out(`- ${a.todo}`);
    }
    return 0;
  } finally {
    await v.close();
  }
}

export const driftCmd = defineCommand({
  name: 'drift',
  summary: 'stale ledger entries past their thresholds, most urgent first, with what to do',
  positionals: [VAULT],
  options: {},
  examples: ['lithos drift ~/vault', 'lithos drift ~/vault --json'],
  run: ({ args: [vault], json, out, logger }) => driftCommand(vault, { json, out, logger }),
});
