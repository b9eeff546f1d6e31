import type { MemoryStore } from '../stores/memory-store';
import { NodeKeys } from './codec';
import { CODECS } from './codecs';
import { stableJson } from './fields';

/**
 * A store's learned rows in portable form (`<table>|<portable key>` → the row's values as stable JSON): what
 * must be equal on every device once all files have travelled. The convergence specs and the bench compare it.
 */
export function learnedState(memory: MemoryStore): Record<string, string> {
  const nodes = new NodeKeys(memory.nodes);
  const db = memory.replica.db;
  const out: Record<string, string> = {};
  for (const c of CODECS) {
    for (const key of c.all(db)) {
      const pk = c.toPortable(key, nodes);
      if (pk !== null) out[`${c.t}|${pk}`] = stableJson(c.read(db, key, nodes));
    }
  }
  return out;
}
