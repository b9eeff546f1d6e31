/**
 * The trust boundary between the person and agents. An agent never changes a note blind: every update or
 * delete of an existing note names the version it read (`expected_version`). And a note the person created
 * or last changed (vault/note-editors.ts decides whose a note is) is theirs: an agent's write or delete of it
 * becomes a proposal the person accepts, unless the vault policy's `person_notes` says `allow` or `refuse`.
 * The person's own writes (Obsidian, the panels, the CLI) pass untouched. Authorship never moves: the writer
 * keeps `author` as it is and adds the agent to `contributors`.
 */
import { LithosError } from '../errors';
import type { Viewer } from './gate';
import type { Policy } from './policy';

export type NoteChange = 'write' | 'delete';

/** Why an agent's change became a proposal: a namespace the person confirms, or a note that is the person's. */
export type ProposalWhy = 'namespace' | 'person_note';

/** Refuses an agent's update or delete of an existing note that does not say which version it read. */
export function requireExpectedVersion(viewer: Viewer, change: NoteChange, path: string, expectedVersion: string | undefined): void {
  if (viewer.kind === 'human' || expectedVersion !== undefined) return;
  const verb = change === 'write' ? 'Updating' : 'Deleting';
  throw new LithosError(
    'invalid_argument',
    `${verb} "${path}" needs expected_version: read the note first (lithos_read returns its \`version\`) and pass that version, so a change made since you read it is never overwritten.`,
    { path, field: 'expected_version' },
  );
}

/**
 * What becomes of an agent's change of an existing note: made (`write`), or kept as a proposal; `forbidden`
 * when the note is the person's and the policy refuses agents there.
 */
export function personNoteDecision(viewer: Viewer, policy: Policy, change: NoteChange, path: string, personsNote: boolean): 'write' | 'propose' {
  if (viewer.kind === 'human' || !personsNote) return 'write';
  if (policy.person_notes === 'allow') return 'write';
  if (policy.person_notes === 'refuse') {
    throw new LithosError(
      'forbidden',
      `Cannot ${change} "${path}": the person created or last edited it, and the vault policy (person_notes: refuse) keeps agents from changing the person's notes. Write a note of your own and link to it instead.`,
      { path, person_note: true },
    );
  }
  return 'propose';
}

/** What an agent is told when its change was kept as a proposal. */
export function proposedMessage(why: ProposalWhy, change: NoteChange, proposalId: string, path: string, namespace: string): string {
  const what = change === 'write' ? 'write' : 'delete';
  const reason = why === 'person_note' ? `"${path}" is the person's note (they created or last edited it)` : `changes in "${namespace}" are confirmed by a person`;
  return `Proposed, not applied: ${reason}, so your ${what} was kept as proposal ${proposalId} and the note is unchanged until the person accepts it (lithos_proposal_list shows its status).`;
}
