import { openVault } from '../open-vault';
import { AGENT_KEY_ENV } from '../../shared/governance/agent-keys';
import type { Logger } from '../../shared/ports';
import { LithosError, asLithosError } from '../../shared/errors';
import { resolve } from 'node:path';
import { RelayClient } from '../relay/relay-client';
import { discoverHost } from '../relay/host-discovery';
import { BRIDGE_VERSION } from '../version';
import type { RetrievalResult } from '../../shared/retrieval/types';
import { DEFAULT_QUERY_CLASS, INTENTS, QUERY_CLASSES, type Intent, type KnownQueryClass } from '../../shared/retrieval/types';
import { SCOUT_NAMES, type ScoutName } from '../../shared/retrieval/scouts';
import { DEFAULT_K, MAX_K } from '../../shared/retrieval/constants';
import { printJson, table, type Out } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';

export interface RetrieveCmdOptions {
  k: number;
  queryClass?: KnownQueryClass;
  intent?: Intent;
  namespace?: string[];
  agent?: string;
  task?: string;
  without?: ScoutName[];
  /** Teach nothing: no receipt, no stats (docs/learning.md, "Implicit signals"). */
  try?: boolean;
  json: boolean;
  out: Out;
  logger: Logger;
}

/**
 * `lithos retrieve <vault> <query…>`: the full scan with receipts and retrieval stats (it takes the writer lock, like an agent's call would).
 * `--try` writes nothing, so it also runs read-only beside Obsidian.
 */
export async function retrieveCommand(vault: string, query: string, o: RetrieveCmdOptions): Promise<number> {
  let v: Awaited<ReturnType<typeof openVault>>;
  try {
    v = await openVault(vault, { write: !o.try, logger: o.logger });
  } catch (err) {
    const e = asLithosError(err);
    if (e.code !== 'vault_locked' || e.data.owner !== 'plugin') throw err;
    // Obsidian has the vault: ask it, as an agent's call would go, instead of refusing.
    return print(await retrieveThroughObsidian(resolve(vault), query, o, e), o);
  }
  try {
    await v.reconcile();
    const agent = o.agent ?? process.env.LITHOS_AGENT_ID;
    // What an agent would get: judged as that agent (its key from LITHOS_AGENT_KEY where keys are issued).
    const memory = await v.as({ kind: 'agent', agent_id: agent ?? null, key: process.env[AGENT_KEY_ENV] });
    const result = await memory.retrieve(
      {
        query_text: query,
        query_class: o.queryClass,
        intent: o.intent,
        namespace_filter: o.namespace,
        agent_id: agent,
        task_id: o.task,
        max_context_nodes: o.k,
      },
      { without: o.without, try: o.try },
    );
    return print(result, o);
  } finally {
    await v.close();
  }
}

/** How long to wait for the plugin's bridge host before giving up (it answers at once when it runs). */
const CONNECT_WAIT_MS = 5_000;

/**
 * The same retrieval through the plugin's bridge host (`lithos mcp`'s relay): the plugin's engine runs it,
 * writes its receipt and learns from it. The caller is an agent (`--agent`, LITHOS_AGENT_ID, else
 * `lithos-cli`): the bridge serves agents only. `--without` (an evaluation switch) is not a tool argument.
 */
async function retrieveThroughObsidian(root: string, query: string, o: RetrieveCmdOptions, locked: LithosError): Promise<RetrievalResult> {
  if (o.without?.length) throw new LithosError('invalid_argument', `${locked.message} (--without runs only with the vault to itself: close Obsidian for it.)`, locked.data);
  try {
    await discoverHost(root, BRIDGE_VERSION);
  } catch {
    throw locked; // Obsidian holds the vault but its bridge is off: the lock message says what to do
  }
  const agent = o.agent ?? process.env.LITHOS_AGENT_ID ?? 'lithos-cli';
  const client = new RelayClient({ vaultRoot: root, agentId: agent, bridgeVersion: BRIDGE_VERSION, logger: o.logger });
  client.start();
  try {
    await client.waitConnected(CONNECT_WAIT_MS);
    o.logger.info('the vault is open in Obsidian: retrieving through its bridge');
    const args = { query_text: query, query_class: o.queryClass, intent: o.intent, namespace_filter: o.namespace, task_id: o.task, max_context_nodes: o.k };
    return (await client.call('lithos_retrieve', args)) as RetrievalResult; // undefined fields are dropped on the wire
  } finally {
    await client.close();
  }
}

function print(result: RetrievalResult, o: RetrieveCmdOptions): number {
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
  // The conflicts are among the returned notes: named by path, like the table.
  const path = (id: string): string => result.nodes.find((n) => n.id === id)?.path ?? id;
  if (result.conflicts.length) o.out(`conflicts: ${result.conflicts.map((c) => `${path(c.a)} ⟷ ${path(c.b)}${c.state ? ` (${c.state})` : ''}`).join(', ')}`);
  if (result.receipt_id) o.out(`receipt ${result.receipt_id}`);
  if (result.try) o.out('try: no receipt written, nothing learned');
  return 0;
}

export const retrieveCmd = defineCommand({
  name: 'retrieve',
  summary: 'Parallel Terraced Scan: ranked memory with reasons, temperature and a receipt',
  positionals: [VAULT, { name: 'query', help: 'the task or question, in plain words: the rest of the line', rest: true }],
  options: {
    class: { type: 'string', help: 'kind of work, which tunes the ranking', value: 'class', choices: QUERY_CLASSES, default: DEFAULT_QUERY_CLASS },
    intent: { type: 'string', help: 'what to favour', value: 'intent', choices: INTENTS },
    namespace: { type: 'string', help: 'only notes under this namespace prefix', value: 'NS', multiple: true },
    agent: { type: 'string', help: 'retrieve as this agent sees the vault, for its receipt (default LITHOS_AGENT_ID; its key from LITHOS_AGENT_KEY where keys are issued)', value: 'id' },
    task: { type: 'string', help: 'the task the receipt and working memory belong to', value: 'id' },
    k: { type: 'int', help: 'how many notes', min: 1, max: MAX_K, default: DEFAULT_K },
    without: { type: 'string', help: 'switch a scout off: an evaluation switch that needs the vault to itself (Obsidian closed)', value: 'scout', choices: SCOUT_NAMES, multiple: true },
    try: { type: 'boolean', help: 'try the query without teaching memory: no receipt, no stats, nothing feedback could attach to' },
  },
  examples: ['lithos retrieve ~/vault why did ingestion latency regress --class debug', 'lithos retrieve ~/vault "pool sizing" --intent fact_check --k 5 --json'],
  run: ({ args: [vault, ...query], values, json, out, logger }) =>
    retrieveCommand(vault, query.join(' '), { ...values, queryClass: values.class, without: values.without.length ? values.without : undefined, json, out, logger }),
});
