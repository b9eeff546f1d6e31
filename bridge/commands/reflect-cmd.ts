import { openJobVault } from '../open-vault';
import type { Logger } from '../../shared/ports';
import { printJson, table, type Out } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';

export interface ReflectCmdOptions {
  json: boolean;
  out: Out;
  logger: Logger;
}

/**
 * `lithos reflect <vault> [--json]`: one reflection pass as the person (shared/learning/reflection.ts):
 * procedures repeated in completed tasks become workflow proposals. It writes proposals, so it takes the
 * writer lock, as consolidation (which also runs it) does.
 */
export async function reflectCommand(vault: string, o: ReflectCmdOptions): Promise<number> {
  const v = await openJobVault(vault, 'consolidate', { write: true, logger: o.logger });
  try {
    await v.engine.reconcile();
    const r = await v.engine.services.learning.reflect({ kind: 'human', id: null });
    if (o.json) {
      printJson(o.out, r);
      return 0;
    }
    o.out(`${r.tasks_read} completed task(s) read, ${r.tasks_withheld} left out (they name a note not every agent may see).`);
    if (r.procedures.length === 0) o.out('No procedure repeated in enough completed tasks.');
    else {
      o.out(table([['status', 'group', 'tasks', 'steps', 'proposal'], ...r.procedures.map((p) => [p.status, p.group, String(p.tasks.length), p.steps.join(' → '), p.proposal_id ?? ''])]));
      if (r.procedures.some((p) => p.status === 'proposed')) o.out('Accept or reject them in the Proposals panel or with `lithos proposals accept <vault> <id>`.');
    }
    return 0;
  } finally {
    await v.close();
  }
}

export const reflectCmd = defineCommand({
  name: 'reflect',
  summary: 'propose workflow notes for procedures repeated in completed tasks (rule-based)',
  positionals: [VAULT],
  options: {},
  examples: ['lithos reflect ~/vault', 'lithos reflect ~/vault --json'],
  run: ({ args: [vault], json, out, logger }) => reflectCommand(vault, { json, out, logger }),
});
