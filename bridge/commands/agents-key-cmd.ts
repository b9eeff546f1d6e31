import { join } from 'node:path';
import { AuditLog } from '../../shared/governance/audit';
import { AGENT_KEY_ENV, AGENT_KEYS_FILE, AgentKeys } from '../../shared/governance/agent-keys';
import { systemClock, type Logger } from '../../shared/ports';
import { acquireLock } from '../lock';
import { checkVaultFolder } from '../open-vault';
import { NodeBlobStore } from '../node-blob-store';
import { ReadOnlyBlobStore } from '../read-only-blobs';
import { printJson, table, type Out } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';

/**
 * `lithos agents key <vault> [<agent>] [--revoke]`: the person issues (or revokes) the key an agent's bridge
 * must present (governance/agent-keys.ts). Without an agent it lists who has a key. The key is printed once;
 * only its hash is kept. A change takes the writer lock (the audit log has one writer).
 */
async function agentsKeyCommand(vault: string, agent: string | undefined, o: { revoke: boolean; json: boolean; out: Out; logger: Logger }): Promise<number> {
  const root = await checkVaultFolder(vault);
  const disk = new NodeBlobStore(join(root, '.lithos'));
  if (agent === undefined) {
    const keys = await AgentKeys.open({ blobs: new ReadOnlyBlobStore(disk), clock: systemClock });
    const list = keys.list();
    if (o.json) printJson(o.out, { file: `.lithos/${AGENT_KEYS_FILE}`, problem: keys.problem, in_use: keys.inUse(), agents: list });
    else {
      if (keys.problem) o.out(`Warning: ${keys.problem}`);
      if (list.length === 0) o.out('No agent keys issued: every bridge acts for the agent it names.');
      else o.out(table([['agent', 'key starts', 'issued'], ...list.map((k) => [k.agent_id, `${k.hint}…`, k.issued_at])]));
    }
    return 0;
  }
  const lock = await acquireLock(join(root, '.lithos'), { owner: 'cli' });
  try {
    const audit = await AuditLog.open({ blobs: disk, clock: systemClock, logger: o.logger });
    const keys = await AgentKeys.open({ blobs: disk, clock: systemClock, logger: o.logger, audit });
    if (o.revoke) {
      const revoked = await keys.revoke(agent);
      if (o.json) printJson(o.out, { agent_id: agent, revoked, keys_in_use: keys.inUse() });
      else o.out(revoked ? `Revoked the key of "${agent}": its bridges are unverified from their next call.` : `"${agent}" had no key.`);
      return 0;
    }
    const first = !keys.inUse();
    const key = await keys.issue(agent);
    if (o.json) {
      printJson(o.out, { agent_id: agent, key, env: AGENT_KEY_ENV });
      return 0;
    }
    o.out(`Key for "${agent}" (shown once; only its hash is kept):\n\n  ${key}\n`);
    o.out(`Give it to that agent's bridge as ${AGENT_KEY_ENV} (in the MCP config's "env").`);
    if (first) o.out('This is the first key in this vault: from now on a bridge without its agent\'s key sees only shared notes and may only read.');
    return 0;
  } finally {
    await lock.release();
  }
}

export const agentsKeyCmd = defineCommand({
  name: 'agents key',
  summary: "issue, revoke or list the keys agents' bridges present (.lithos/agent-keys.json)",
  positionals: [VAULT, { name: 'agent', help: 'the agent id to issue a key to (none: list the agents with a key)', optional: true }],
  options: {
    revoke: { type: 'boolean', help: "revoke the agent's key instead" },
  },
  notes: [`Once any key is issued, a bridge must give its agent's key in ${AGENT_KEY_ENV}; without it, it sees only shared notes and may only read.`],
  examples: ['lithos agents key ~/vault claude-code', 'lithos agents key ~/vault claude-code --revoke'],
  run: ({ args: [vault, agent], values, json, out, logger, usage }) => {
    if (values.revoke && agent === undefined) throw usage('--revoke needs the <agent> whose key to revoke.');
    return agentsKeyCommand(vault, agent, { revoke: values.revoke, json, out, logger });
  },
});
