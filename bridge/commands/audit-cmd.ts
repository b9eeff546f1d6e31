import { existsSync, statSync } from 'node:fs';
import * as nodePath from 'node:path';
import { verifyAudit } from '../../shared/governance/audit';
import { LithosError } from '../../shared/errors';
import { NodeBlobStore } from '../node-blob-store';
import { printJson, type Out } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';

/**
 * `lithos audit verify <vault> [--json]`: re-reads `.lithos/audit.jsonl` and its sealed segments and checks the
 * hash chain across them and the head. Read-only and lock-free (the log is append-only), so it runs beside a live plugin. Exit 1 when the
 * log was tampered with.
 */
export async function auditVerifyCommand(vault: string, o: { json: boolean; out: Out }): Promise<number> {
  const root = nodePath.resolve(vault);
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    throw new LithosError('vault_unavailable', `No vault folder at ${root}.`, { path: root });
  }
  const report = await verifyAudit(new NodeBlobStore(nodePath.join(root, '.lithos')));
  if (o.json) {
    printJson(o.out, report);
    return report.ok ? 0 : 1;
  }
  o.out(`${report.entries} audit entries${report.head ? `, newest #${report.head.seq}` : ''}.`);
  for (const p of report.problems) o.out(`${p.kind}${p.line ? ` (${p.file ?? '.lithos/audit.jsonl'} line ${p.line})` : ''}: ${p.message}`);
  o.out(report.ok ? 'The audit chain is intact.' : 'The audit chain is BROKEN: entries were edited, removed or reordered.');
  return report.ok ? 0 : 1;
}

export const auditVerifyCmd = defineCommand({
  name: 'audit verify',
  summary: 'check the audit trail\'s hash chain (exit 1 if it was tampered with)',
  positionals: [VAULT],
  options: {},
  examples: ['lithos audit verify ~/vault', 'lithos audit verify ~/vault --json'],
  run: ({ args: [vault], json, out }) => auditVerifyCommand(vault, { json, out }),
});
