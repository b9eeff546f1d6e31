import { openJobVault } from '../open-vault';
import type { Logger } from '../../shared/ports';
import { printJson, progressLine, type Out } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';

/** `lithos index <vault> [--json]`: reconcile the vault into the stores and index. */
export async function indexCommand(vault: string, o: { json: boolean; out: Out; logger: Logger }): Promise<number> {
  const v = await openJobVault(vault, 'index', { write: true, logger: o.logger, onProgress: progressLine(!o.json) });
  try {
    const report = await v.engine.reconcile();
    const result = { ...report, warnings: v.engine.warnings, embedding_spaces: v.engine.services.search.activeSpaces() };
    if (o.json) printJson(o.out, result);
    else {
      o.out(`Indexed ${v.root}: ${report.notes} notes (${report.indexed} indexed, ${report.unchanged} unchanged, ${report.renamed} renamed, ${report.removed} removed) in ${report.duration_ms} ms.`);
      if (report.problems) o.out(`${report.problems} note problem(s) — run \`lithos doctor ${vault}\` to list them.`);
      for (const e of report.errors) o.out(`error: ${e.path}: ${e.message}`);
      for (const w of v.engine.warnings) o.out(`warning: ${w}`);
    }
    return report.errors.length ? 1 : 0;
  } finally {
    await v.close();
  }
}

export const indexCmd = defineCommand({
  name: 'index',
  summary: 'index the vault (incremental: unchanged notes cost nothing)',
  positionals: [VAULT],
  options: {},
  examples: ['lithos index ~/vault', 'lithos index ~/vault --json'],
  run: ({ args: [vault], json, out, logger }) => indexCommand(vault, { json, out, logger }),
});
