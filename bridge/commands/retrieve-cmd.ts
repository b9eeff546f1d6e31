import { openVault } from '../open-vault';
import type { Logger } from '../../shared/ports';
import { LithosError } from '../../shared/errors';
import { INTENTS, SCOUT_NAMES, type Intent, type ScoutName } from '../../shared/retrieval/types';
import { printJson, table, type Out } from './output';

export interface RetrieveCmdOptions {
  k: number;
  queryClass?: string;
  intent?: string;
  namespace?: string[];
  agent?: string;
  task?: string;
  without?: string[];
  json: boolean;
  out: Out;
  logger: Logger;
}

/**
 * `lithos retrieve <vault> <query> [--class c] [--intent i] [--namespace ns]… [--agent a] [--k N] [--json]`:
 * the full scan with receipts and retrieval stats (it takes the writer lock, like an agent's call would).
 */
export async function retrieveCommand(vault: string, query: string, o: RetrieveCmdOptions): Promise<number> {
  if (o.intent !== undefined && !INTENTS.includes(o.intent as Intent)) {
    throw new LithosError('invalid_argument', `--intent must be one of ${INTENTS.join(', ')} (got "${o.intent}").`);
  }
  for (const w of o.without ?? []) {
    if (!SCOUT_NAMES.includes(w as ScoutName)) {
      throw new LithosError('invalid_argument', `--without must name a scout: ${SCOUT_NAMES.join(', ')} (got "${w}").`);
    }
  }
  const v = await openVault(vault, { write: true, logger: o.logger });
  try {
    await v.engine.reconcile();
    const agent = o.agent ?? process.env.LITHOS_AGENT_ID;
    const result = await v.engine.retrieve(
      {
        query_text: query,
        query_class: o.queryClass,
        intent: o.intent as Intent | undefined,
        namespace_filter: o.namespace,
        agent_id: agent,
        task_id: o.task,
        max_context_nodes: o.k,
      },
      { without: o.without as ScoutName[] | undefined },
    );
    if (o.json) {
      printJson(o.out, result);
      return 0;
    }
    if (result.nodes.length === 0) o.out('No results.');
    else {
      o.out(table([['#', 'score', 'type', 'scouts', 'path'], ...result.nodes.map((n, i) => [String(i + 1), n.score.toFixed(3), n.note_type, n.scouts.join(','), n.path])]));
      o.out('');
      for (const [i, n] of result.nodes.slice(0, 5).entries()) o.out(`${i + 1}. ${n.title} — ${n.reasons.slice(0, 3).join('; ')}`);
    }
    o.out('');
    o.out(`temperature ${result.temperature.toFixed(2)} · terrace ${result.terrace_reached} · terrace 2: ${result.terrace2.outcome} (${result.terrace2.why})`);
    if (result.conflicts.length) o.out(`conflicts: ${result.conflicts.map((c) => `${c.a} ⟷ ${c.b}${c.state ? ` (${c.state})` : ''}`).join(', ')}`);
    if (result.receipt_id) o.out(`receipt ${result.receipt_id}`);
    return 0;
  } finally {
    await v.close();
  }
}
