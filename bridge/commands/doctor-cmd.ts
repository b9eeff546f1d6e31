import { openJobVault } from '../open-vault';
import type { Logger } from '../../shared/ports';
import { printJson, type Out } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';

/** `lithos doctor <vault> [--json]`: every note problem, store warning and broken link. Never rewrites a file. */
export async function doctorCommand(vault: string, o: { json: boolean; out: Out; logger: Logger }): Promise<number> {
  const v = await openJobVault(vault, 'doctor', { write: false, logger: o.logger });
  try {
    const report = await v.engine.reconcile();
    const d = await v.engine.doctor();
    const result = { notes: report.notes, ...d, errors: [...report.errors, ...d.errors.filter((e) => !report.errors.includes(e))] };
    if (o.json) {
      printJson(o.out, result);
      return 0;
    }
    o.out(`${report.notes} notes checked.`);
    if (!d.problems.length && !d.warnings.length && !result.errors.length && !d.broken_links.length && !d.ledger_ids.length) o.out('No problems found.');
    for (const w of d.warnings) o.out(`store: ${w}`);
    for (const e of result.errors) o.out(`error: ${e.path}: ${e.message}`);
    for (const p of d.problems) o.out(`${p.code}: ${p.path}${p.field ? ` (${p.field})` : ''}: ${p.message}`);
    for (const b of d.broken_links) o.out(`broken link: ${b.from} → ${b.raw}`);
    for (const l of d.ledger_ids) o.out(`${l.code}: ${l.path}${l.line ? `:${l.line}` : ''}${l.field ? ` (${l.field})` : ''}: ${l.message}`);
    return 0;
  } finally {
    await v.close();
  }
}

export const doctorCmd = defineCommand({
  name: 'doctor',
  summary: 'note problems, store warnings and broken links (never rewrites a file)',
  positionals: [VAULT],
  options: {},
  examples: ['lithos doctor ~/vault', 'lithos doctor ~/vault --json'],
  run: ({ args: [vault], json, out, logger }) => doctorCommand(vault, { json, out, logger }),
});
