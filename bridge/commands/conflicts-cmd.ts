import { openVault } from '../open-vault';
import type { Logger } from '../../shared/ports';
import { LithosError } from '../../shared/errors';
import { CONFLICT_STATES, RESOLUTIONS, type Conflict, type ConflictState, type Resolution } from '../../shared/conflicts/conflict-types';
import type { MemoryEngine } from '../../shared/engine';
import { printJson, table, type Out } from './output';

interface Common {
  json: boolean;
  out: Out;
  logger: Logger;
}

/** A conflict with both ends' paths and titles, for people and for --json. */
function described(engine: MemoryEngine, c: Conflict): Record<string, unknown> {
  const end = (id: string) => {
    const n = engine.note(id);
    return n && n.nodeId === id ? { id, path: n.path, title: n.cached.meta.title } : { id, path: null, title: null };
  };
  return { ...c, a: end(c.a), b: end(c.b), created_at: new Date(c.created_at).toISOString(), updated_at: new Date(c.updated_at).toISOString() };
}

/** `lithos conflicts <vault> [--state s] [--json]`: every conflict (the person sees all), oldest first. Read-only. */
export async function conflictsListCommand(vault: string, o: Common & { state?: string }): Promise<number> {
  if (o.state !== undefined && !(CONFLICT_STATES as readonly string[]).includes(o.state)) {
    throw new LithosError('invalid_argument', `--state must be one of ${CONFLICT_STATES.join(', ')} (got "${o.state}").`);
  }
  const v = await openVault(vault, { write: false, logger: o.logger });
  try {
    await v.engine.reconcile();
    const list = v.engine.conflicts.list({ state: o.state as ConflictState | undefined }).map((c) => described(v.engine, c));
    if (o.json) {
      printJson(o.out, { conflicts: list });
      return 0;
    }
    if (list.length === 0) {
      o.out(o.state ? `No ${o.state} conflicts.` : 'No conflicts.');
      return 0;
    }
    const name = (e: unknown) => {
      const x = e as { path: string | null; id: string };
      return x.path ?? `(gone) ${x.id}`;
    };
    o.out(table([['edge_id', 'state', 'found by', 'a', 'b'], ...list.map((c) => [String(c.edge_id), String(c.state), String(c.provenance_actor), name(c.a), name(c.b)])]));
    o.out('');
    o.out('Resolve: lithos conflicts resolve <vault> <edge_id> superseded|refuted|accepted_dual|merged [--winner <note id or path>]');
    return 0;
  } finally {
    await v.close();
  }
}

/** `lithos conflicts resolve <vault> <edge_id> <resolution> [--winner id|path] [--json]`, as the person. */
export async function conflictsResolveCommand(vault: string, edgeId: string, resolution: string, o: Common & { winner?: string }): Promise<number> {
  if (!(RESOLUTIONS as readonly string[]).includes(resolution)) {
    throw new LithosError('invalid_argument', `The resolution must be one of ${RESOLUTIONS.join(', ')} (got "${resolution}").`);
  }
  const v = await openVault(vault, { write: true, logger: o.logger });
  try {
    await v.engine.reconcile();
    // The conflict first: a wrong edge id is the mistake to report, not the winner that goes with it.
    if (!v.engine.conflicts.get(edgeId)) throw new LithosError('not_found', `No conflict with edge_id "${edgeId}". \`lithos conflicts <vault>\` lists them.`, { edge_id: edgeId });
    let winner: string | null = null;
    if (o.winner !== undefined) {
      const n = v.engine.note(o.winner);
      if (!n) throw new LithosError('not_found', `--winner: no note "${o.winner}" (give its id or vault path).`);
      winner = n.nodeId;
    }
    const r = await v.engine.conflicts.resolve({ edge_id: edgeId, resolution: resolution as Resolution, resolver: { kind: 'human', id: null }, winner_id: winner });
    if (o.json) printJson(o.out, { conflict: described(v.engine, r.conflict), changes: r.changes, unchanged: r.unchanged });
    else {
      o.out(r.unchanged ? `Conflict ${edgeId} was already ${resolution}; nothing changed.` : `Conflict ${edgeId} resolved: ${resolution}.`);
      for (const c of r.changes) o.out(`  ${c.node}: ${c.what}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`);
    }
    return 0;
  } finally {
    await v.close();
  }
}

/** `lithos conflicts scan <vault> [--json]`: rule detection over the whole vault, then every callout synced. */
export async function conflictsScanCommand(vault: string, o: Common): Promise<number> {
  const v = await openVault(vault, { write: true, logger: o.logger });
  try {
    await v.engine.reconcile();
    const r = await v.engine.conflicts.scan();
    const opened = r.opened.map((c) => described(v.engine, c));
    if (o.json) printJson(o.out, { notes: r.notes, opened, callouts_written: r.callouts_written });
    else {
      o.out(`${r.notes} notes compared; ${opened.length} new conflict(s); ${r.callouts_written} note(s) had their callouts updated.`);
      for (const c of opened) {
        const [a, b] = [c.a, c.b] as { path: string }[];
        o.out(`  ${String(c.edge_id)}  ${a.path}  ⟷  ${b.path}  (${String((c.evidence as { rule?: string }).rule ?? '')})`);
      }
    }
    return 0;
  } finally {
    await v.close();
  }
}
