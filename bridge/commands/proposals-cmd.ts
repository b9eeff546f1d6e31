import { join } from 'node:path';
import { PROPOSAL_STATUSES, readProposals, type ProposalStatus } from '../../shared/governance/proposals';
import { checkVaultFolder } from '../open-vault';
import { NodeBlobStore } from '../node-blob-store';
import { ReadOnlyBlobStore } from '../read-only-blobs';
import { printJson, table, type Out } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';

/**
 * `lithos proposals <vault>`: agent writes waiting for a person (and decided ones).
 * Read-only and lock-free, so it runs beside the plugin.
 */
export async function proposalsListCommand(vault: string, o: { status?: ProposalStatus; json: boolean; out: Out }): Promise<number> {
  const root = await checkVaultFolder(vault);
  const blobs = new ReadOnlyBlobStore(new NodeBlobStore(join(root, '.lithos')));
  const result = await readProposals(blobs, { status: o.status });
  if (o.json) {
    printJson(o.out, result);
    return 0;
  }
  const damaged = result.damaged ? ` (${result.damaged} damaged file${result.damaged === 1 ? '' : 's'} in .lithos/proposals skipped)` : '';
  if (result.proposals.length === 0) {
    o.out(`No proposals.${damaged}`);
    return 0;
  }
  o.out(table([['id', 'status', 'agent', 'created', 'path', 'asks', 'why'], ...result.proposals.map((p) => [p.proposal_id, p.status, p.agent, p.created_at.slice(0, 19).replace('T', ' '), p.path, p.op ?? 'write', p.why === 'person_note' ? 'your note' : 'namespace'])]));
  o.out(`${result.proposals.length} proposal${result.proposals.length === 1 ? '' : 's'}, oldest first${damaged}. Accept or reject one: lithos proposals accept|reject <vault> <id>.`);
  return 0;
}

export const proposalsCmd = defineCommand({
  name: 'proposals',
  summary: 'agent writes waiting for a person, and decided ones (policy propose_namespaces; read-only)',
  positionals: [VAULT],
  options: {
    status: { type: 'string', help: 'only proposals with this status', value: 'status', choices: PROPOSAL_STATUSES },
  },
  examples: ['lithos proposals ~/vault --status pending', 'lithos proposals ~/vault --json'],
  run: ({ args: [vault], values, json, out }) => proposalsListCommand(vault, { ...values, json, out }),
});
