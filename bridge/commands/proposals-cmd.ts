import { join } from 'node:path';
import type { Logger } from '../../shared/ports';
import { LithosError } from '../../shared/errors';
import { PROPOSAL_STATUSES, readProposals, type Proposal, type ProposalStatus } from '../../shared/governance/proposals';
import { checkVaultFolder, openVault } from '../open-vault';
import { NodeBlobStore } from '../node-blob-store';
import { ReadOnlyBlobStore } from '../read-only-blobs';
import { printJson, table, type Out } from './output';

/**
 * `lithos proposals <vault> [--status s] [--json]`: agent writes waiting for a person (and decided ones).
 * Read-only and lock-free, so it runs beside the plugin.
 */
export async function proposalsListCommand(vault: string, o: { status?: string; json: boolean; out: Out }): Promise<number> {
  const root = await checkVaultFolder(vault);
  if (o.status !== undefined && !(PROPOSAL_STATUSES as readonly string[]).includes(o.status)) {
    throw new LithosError('invalid_argument', `--status must be one of ${PROPOSAL_STATUSES.join(', ')} (got "${o.status}").`, { field: 'status' });
  }
  const blobs = new ReadOnlyBlobStore(new NodeBlobStore(join(root, '.lithos')));
  const result = await readProposals(blobs, { status: o.status as ProposalStatus | undefined });
  if (o.json) {
    printJson(o.out, result);
    return 0;
  }
  const damaged = result.damaged ? ` (${result.damaged} damaged file${result.damaged === 1 ? '' : 's'} in .lithos/proposals skipped)` : '';
  if (result.proposals.length === 0) {
    o.out(`No proposals.${damaged}`);
    return 0;
  }
  o.out(table([['id', 'status', 'agent', 'created', 'path'], ...result.proposals.map((p) => [p.proposal_id, p.status, p.agent, p.created_at.slice(0, 19).replace('T', ' '), p.path])]));
  o.out(`${result.proposals.length} proposal${result.proposals.length === 1 ? '' : 's'}, oldest first${damaged}. Accept or reject one: lithos proposals accept|reject <vault> <id>.`);
  return 0;
}

/**
 * `lithos proposals accept|reject <vault> <id> [--reason text] [--json]`: the person's decision. Needs the
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
    await v.engine.reconcile();
    const by = { kind: 'human' as const, id: null };
    const p: Proposal = decision === 'accept' ? await v.engine.proposals.accept(id, by) : await v.engine.proposals.reject(id, by, o.reason ?? null);
    if (o.json) printJson(o.out, p);
    else if (p.status === 'accepted') o.out(`Accepted ${p.proposal_id}: ${p.result?.created ? 'created' : 'updated'} "${p.path}" as ${p.agent}.`);
    else o.out(`Rejected ${p.proposal_id} ("${p.path}" by ${p.agent})${p.reason ? `: ${p.reason}` : ''}.`);
    return 0;
  } finally {
    await v.close();
  }
}
