import { openVault } from '../open-vault';
import { printJson, table } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';
import type { Common } from './conflicts-cmd';

/**
 * `lithos devices <vault>`: the devices that write learned state to this vault (docs/devices.md) — what each
 * has contributed and when it was last seen — after one round of exchange (this device's learning out, the
 * others' in), or, when another process holds the vault, as last recorded.
 */
export async function devicesCommand(vault: string, o: Common): Promise<number> {
  const v = await openVault(vault, { write: false, logger: o.logger });
  try {
    const round = v.readOnly ? null : await v.memory.devices.sync();
    const report = v.memory.devices.report();
    if (o.json) {
      printJson(o.out, { ...report, round });
      return 0;
    }
    if (report.folder === null) {
      o.out(v.readOnly ? 'Another process holds this vault: run `lithos devices` when it is closed, or look at its status.' : 'The exchange with other devices is off (learning.json `devices.folder` is null).');
    } else {
      o.out(`Devices folder: ${report.folder}`);
      o.out(table([['device', 'name', 'rows', 'last change', 'merged here'], ...report.devices.map((d) => [`${d.device.slice(0, 8)}${d.this_device ? ' (this)' : ''}`, d.name ?? '?', String(d.rows), d.last_change ?? '-', d.this_device ? '-' : (d.merged_at ?? 'not yet')])]));
      if (round) o.out(`This round: ${round.published} row(s) published, ${round.merged} merged from ${round.from.length} device(s), ${round.pending} waiting for their notes${round.bad > 0 ? `, ${round.bad} damaged line(s) skipped` : ''}.`);
    }
    return 0;
  } finally {
    await v.close();
  }
}

export const devicesCmd = defineCommand({
  name: 'devices',
  summary: 'the devices sharing this vault\'s learning: what each contributed and when it was last seen',
  positionals: [VAULT],
  options: {},
  examples: ['lithos devices ~/vault', 'lithos devices ~/vault --json'],
  run: ({ args: [vault], json, out, logger }) => devicesCommand(vault, { json, out, logger }),
});
