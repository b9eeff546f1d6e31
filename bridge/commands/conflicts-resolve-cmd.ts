import { openVault } from '../open-vault';
import { LithosError } from '../../shared/errors';
import { RESOLUTIONS, type Resolution } from '../../shared/stores/conflict-edges';
import { plain, printJson } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';
import { described, type Common } from './conflicts-cmd';

/** `lithos conflicts resolve <vault> <edge_id> <resolution>`, as the person. */
export async function conflictsResolveCommand(vault: string, edgeId: string, resolution: Resolution, o: Common & { winner?: string }): Promise<number> {
  const v = await openVault(vault, { write: true, logger: o.logger });
  try {
    await v.reconcile();
    // The conflict first: a wrong edge id is the mistake to report, not the winner that goes with it.
    const conflict = v.memory.conflicts.list().find((c) => c.edge_id === edgeId);
    if (!conflict) throw new LithosError('not_found', `No conflict with edge_id "${edgeId}". \`lithos conflicts <vault>\` lists them.`, { edge_id: edgeId });
    let winner: string | undefined;
    if (o.winner !== undefined) {
      const n = v.memory.notes.get(o.winner);
      if (!n) throw new LithosError('not_found', `--winner: no note "${o.winner}" (give its id or vault path).`);
      winner = n.nodeId;
    }
    const r = await v.memory.conflicts.resolve({ edge_id: edgeId, resolution, winner_id: winner }, 'lithos conflicts resolve');
    if (o.json) printJson(o.out, { conflict: described(v.memory, r.conflict), changes: r.changes, unchanged: r.unchanged });
    else {
      o.out(r.unchanged ? `Conflict ${edgeId} was already ${resolution}; nothing changed.` : `Conflict ${edgeId} resolved: ${resolution}.`);
      for (const c of r.changes) o.out(`  ${v.memory.notes.byId(c.node)?.path ?? c.node}: ${c.what}: ${plain(c.before)} → ${plain(c.after)}`);
    }
    return 0;
  } finally {
    await v.close();
  }
}


export const conflictsResolveCmd = defineCommand({
  name: 'conflicts resolve',
  summary: 'resolve one conflict as the person (the notes\' frontmatter and callouts follow)',
  positionals: [VAULT, { name: 'edge_id', help: 'the conflict, as lithos conflicts lists it' }, { name: 'resolution', help: 'what the person decided', choices: RESOLUTIONS }],
  options: {
    winner: { type: 'string', help: 'superseded, refuted: the note that stands; merged: the note both were merged into (id or vault path)', value: 'id|path' },
  },
  examples: ['lithos conflicts resolve ~/vault <edge_id> superseded --winner "project/atlas/Tuning.md"', 'lithos conflicts resolve ~/vault <edge_id> accepted_dual --json'],
  run: ({ args: [vault, edgeId, resolution], values, json, out, logger }) => conflictsResolveCommand(vault, edgeId, resolution as Resolution, { ...values, json, out, logger }),
});
