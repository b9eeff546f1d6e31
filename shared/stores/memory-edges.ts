import { newId } from '../model/ids';
import { PROVENANCE_TYPES } from '../model/types';
import { EDGE_COLS, planEdge, toEdge } from './memory-rows';
import type { MemoryTables } from './memory-tables';
import type { EdgeRow } from './memory-types';
import { checkEdge } from './memory-validate';

export type EdgeInput = Omit<EdgeRow, 'edge_id' | 'created_at' | 'updated_at'> & { edge_id?: string };

/** The typed edges of memory.sqlite: links the engine learned or was told, between node ids. */
export class MemoryEdges {
  constructor(private readonly t: MemoryTables) {}

  /** Creates an edge, or updates the one with the same edge_id or the same (from, to, type). */
  async upsert(e: EdgeInput): Promise<EdgeRow> {
    let row: EdgeRow | null = null;
    await this.t.mutate(() => {
      checkEdge(e, PROVENANCE_TYPES);
      row = planEdge(this.t.db, e, this.t.clock.now(), newId);
      return [{ kind: 'edge', row }];
    });
    return row as unknown as EdgeRow;
  }

  /** Edges matching every given field, oldest first. */
  find(q: { from?: string; to?: string; type?: string; namespace?: string }): EdgeRow[] {
    const conds: string[] = [];
    const params: string[] = [];
    for (const [col, v] of [['from_id', q.from], ['to_id', q.to], ['type', q.type], ['namespace', q.namespace]] as const) {
      if (v !== undefined) {
        conds.push(`${col} = ?`);
        params.push(v);
      }
    }
    const where = conds.length ? `WHERE ${conds.join(' AND ')}` : '';
    return this.t.db.all(`SELECT ${EDGE_COLS} FROM edges ${where} ORDER BY created_at, edge_id`, params).map(toEdge);
  }

  delete(edgeId: string): Promise<void> {
    return this.t.mutate(() => (this.t.db.one('SELECT 1 FROM edges WHERE edge_id = ?', [edgeId]) ? [{ kind: 'edge_del', edge_id: edgeId }] : []));
  }
}
