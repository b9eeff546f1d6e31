import { openVault } from '../open-vault';
import type { Logger } from '../../shared/ports';
import { CONFLICT_STATES, RESOLUTIONS, type Conflict, type ConflictState } from '../../shared/stores/conflict-edges';
import type { MemorySession } from '../../shared/session/memory-session';
import { printJson, table, type Out } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';

export interface Common {
  json: boolean;
  out: Out;
  logger: Logger;
}

/** A conflict with both ends' paths and titles, for people and for --json. */
export function described(memory: MemorySession, c: Conflict): Record<string, unknown> {
  const end = (id: string) => {
    const n = memory.notes.byId(id);
    return n ? { id, path: n.path, title: n.cached.meta.title } : { id, path: null, title: null };
  };
  return { ...c, a: end(c.a), b: end(c.b), created_at: new Date(c.created_at).toISOString(), updated_at: new Date(c.updated_at).toISOString() };
}

/** `lithos conflicts <vault>`: every conflict (the person sees all), oldest first. Read-only. */
export async function conflictsListCommand(vault: string, o: Common & { state?: ConflictState }): Promise<number> {
  const v = await openVault(vault, { write: false, logger: o.logger });
  try {
    await v.reconcile();
    const list = v.memory.conflicts.list({ state: o.state }).map((c) => described(v.memory, c));
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
    o.out(`Resolve one: lithos conflicts resolve <vault> <edge_id> ${RESOLUTIONS.join('|')} [--winner <note id or path>]`);
    return 0;
  } finally {
    await v.close();
  }
}

export const conflictsCmd = defineCommand({
  name: 'conflicts',
  summary: 'contradictions between notes, oldest first (read-only)',
  positionals: [VAULT],
  options: {
    state: { type: 'string', help: 'only conflicts in this state', value: 'state', choices: CONFLICT_STATES },
  },
  examples: ['lithos conflicts ~/vault --state unreviewed', 'lithos conflicts ~/vault --json'],
  run: ({ args: [vault], values, json, out, logger }) => conflictsListCommand(vault, { ...values, json, out, logger }),
});
