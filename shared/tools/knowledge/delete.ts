import { z } from 'zod';
import { proposedMessage } from '../../governance/trust-boundary';
import { defineTool } from './common';

const input = z
  .strictObject({
    id: z.string().min(1).optional().describe('The note id.'),
    path: z.string().min(1).optional().describe('Vault-relative .md path.'),
    expected_version: z.string().min(1).optional().describe('The `version` from lithos_read: refuse the delete if the note changed since.'),
  })
  .refine((a) => (a.id === undefined) !== (a.path === undefined), 'Give exactly one of id or path.');

export const lithosDelete = defineTool({
  name: 'lithos_delete',
  title: 'Delete a note',
  description: [
    'Delete one note by id or path. It goes to the trash (Obsidian\'s trash setting when Obsidian runs, the vault\'s .trash/ folder headless), so a person can restore it;',
    'its learned edges and stats are kept 30 days in case it comes back. Needs expected_version; a note the person wrote gives {proposal_id, status: "pending"}.',
    'Prefer lithos_write with status "archived" for knowledge that is outdated but still worth keeping.',
  ].join(' '),
  input,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(a: z.infer<typeof input>, ctx) {
    ctx.memory.scope.actor('lithos_delete'); // who deletes is asked first, before anything about the note
    const note = ctx.memory.notes.find(a.id !== undefined ? { id: a.id } : { path: a.path });
    const o = await ctx.memory.notes.delete(note, { expectedVersion: a.expected_version, trash: ctx.deleteTo === 'trash_folder' }, 'lithos_delete');
    if (o.kind === 'proposed') {
      const message = proposedMessage(o.why, 'delete', o.proposal.proposal_id, o.path, o.namespace);
      return { proposal_id: o.proposal.proposal_id, status: o.proposal.status, path: o.path, why: o.why, message };
    }
    const r = o.result;
    return { deleted: { id: note.nodeId, path: r.path, title: r.title, version: r.version }, trashed_to: r.trashed_to };
  },
});
