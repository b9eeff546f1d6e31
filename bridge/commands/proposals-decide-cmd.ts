import type { Logger } from '../../shared/ports';
import type { Proposal } from '../../shared/governance/proposals';
import { openVault } from '../open-vault';
import { printJson, type Out } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';

/**
 * `lithos proposals accept|reject <vault> <id>`: the person's decision. Needs the
 * writer lock (accept writes the note); audited as the person.
 */
export async function proposalDecideCommand(
  decision: 'accept' | 'reject',
  vault: string,
  id: string,
  o: { reason?: string; json: boolean; out: Out; logger: Logger },
): Promise<number> {
  const v = await openVault(vault, { write: true, logger: o.logger });
  try {
    await v.reconcile();
    const tool = `lithos proposals ${decision}`;
    const p: Proposal = decision === 'accept' ? await v.memory.proposals.accept(id, tool) : await v.memory.proposals.reject(id, o.reason ?? null, tool);
    if (o.json) printJson(o.out, p);
    else if (p.status === 'accepted') o.out(`Accepted ${p.proposal_id}: ${p.op === 'delete' ? 'deleted' : p.result && 'created' in p.result && p.result.created ? 'created' : 'updated'} "${p.path}" as ${p.agent}.`);
    else o.out(`Rejected ${p.proposal_id} ("${p.path}" by ${p.agent})${p.reason ? `: ${p.reason}` : ''}.`);
    return 0;
  } finally {
    await v.close();
  }
}

const ID = { name: 'id', help: 'the proposal, as lithos proposals lists it' };

export const proposalsAcceptCmd = defineCommand({
  name: 'proposals accept',
  summary: 'accept an agent\'s proposed write: the note is written as that agent proposed it',
  positionals: [VAULT, ID],
  options: {},
  examples: ['lithos proposals accept ~/vault <id>'],
  run: ({ args: [vault, id], json, out, logger }) => proposalDecideCommand('accept', vault, id, { json, out, logger }),
});

export const proposalsRejectCmd = defineCommand({
  name: 'proposals reject',
  summary: 'reject an agent\'s proposed write, with a reason the agent can read',
  positionals: [VAULT, ID],
  options: {
    reason: { type: 'string', help: 'why, for the agent', value: 'text' },
  },
  examples: ['lithos proposals reject ~/vault <id> --reason "duplicate of Pool sizing"'],
  run: ({ args: [vault, id], values, json, out, logger }) => proposalDecideCommand('reject', vault, id, { ...values, json, out, logger }),
});
