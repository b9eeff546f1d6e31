import { openJobVault } from '../open-vault';
import type { Logger } from '../../shared/ports';
import { printJson, type Out } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';

export interface ConsolidateCmdOptions {
  task?: string;
  agent?: string;
  json: boolean;
  out: Out;
  logger: Logger;
}

/**
 * `lithos consolidate <vault> [--task t] [--agent a] [--json]`: one consolidation run as the person
 * (shared/learning/consolidate.ts). It writes (edges, concept notes, summaries), so it takes the writer lock.
 */
export async function consolidateCommand(vault: string, o: ConsolidateCmdOptions): Promise<number> {
  const v = await openJobVault(vault, 'consolidate', { write: true, logger: o.logger });
  try {
    await v.engine.reconcile();
    const r = await v.engine.services.learning.consolidator.run({ task: o.task, agent: o.agent, actor: { kind: 'human', id: null } });
    if (o.json) {
      printJson(o.out, r);
      return 0;
    }
    o.out(`${r.units.length} working-memory unit(s) consolidated.`);
    o.out(`edges: ${r.edges_created} created, ${r.edges_reinforced} reinforced`);
    o.out(`hypotheses promoted: ${r.hypotheses_promoted.length}`);
    o.out(`concepts: ${r.concepts_created.length} created, ${r.concepts_updated.length} updated, ${r.concept_members_linked} member link(s)`);
    o.out(`summaries refreshed: ${r.summaries_refreshed.length}`);
    return 0;
  } finally {
    await v.close();
  }
}

export const consolidateCmd = defineCommand({
  name: 'consolidate',
  summary: 'reinforce edges, promote hypotheses, maintain concepts, refresh summaries (as the person)',
  positionals: [VAULT],
  options: {
    task: { type: 'string', help: 'consolidate this task only', value: 'id' },
    agent: { type: 'string', help: 'consolidate this agent\'s tasks and task-less retrievals only', value: 'id' },
  },
  examples: ['lithos consolidate ~/vault', 'lithos consolidate ~/vault --task T-42 --json'],
  run: ({ args: [vault], values, json, out, logger }) => consolidateCommand(vault, { ...values, json, out, logger }),
});
