import { LithosError } from '../errors';
import { NODE_COLS, toNode } from './memory-rows';
import type { MemoryTables } from './memory-tables';
import type { NodeRow } from './memory-types';
import { nonEmpty } from './memory-validate';

/** The node registry of memory.sqlite: which stable id lives at which path, and the tombstones of deleted notes. */
export class MemoryNodes {
  constructor(private readonly t: MemoryTables) {}

  byId(id: string): NodeRow | null {
    const r = this.t.db.one(`SELECT ${NODE_COLS} FROM nodes WHERE node_id = ?`, [id]);
    return r ? toNode(r) : null;
  }

  byPath(path: string): NodeRow | null {
    const r = this.t.db.one(`SELECT ${NODE_COLS} FROM nodes WHERE path = ?`, [path]);
    return r ? toNode(r) : null;
  }

  live(): NodeRow[] {
    return this.t.db.all(`SELECT ${NODE_COLS} FROM nodes WHERE deleted_at IS NULL ORDER BY path`).map(toNode);
  }

  tombstones(): NodeRow[] {
    return this.t.db.all(`SELECT ${NODE_COLS} FROM nodes WHERE deleted_at IS NOT NULL ORDER BY deleted_at, node_id`).map(toNode);
  }

  /** Creates or updates a node and makes it live at `path` (clearing any tombstone). */
  register(row: { node_id: string; path: string; id_source: 'frontmatter' | 'registry'; content_hash: string | null }): Promise<void> {
    return this.t.mutate(() => {
      nonEmpty('node_id', row.node_id);
      nonEmpty('path', row.path);
      if (row.id_source !== 'frontmatter' && row.id_source !== 'registry') {
        throw new LithosError('invalid_argument', `id_source must be 'frontmatter' or 'registry'.`, { id_source: row.id_source });
      }
      this.assertPathFree(row.path, row.node_id);
      const { node_id, path, id_source } = row;
      return [{ kind: 'node', row: { node_id, path, id_source, content_hash: row.content_hash ?? null, deleted_at: null, last_path: null } }];
    });
  }

  /** Rename: the id — and with it edges and stats — follows the note to its new path. */
  move(nodeId: string, newPath: string): Promise<void> {
    return this.t.mutate(() => {
      nonEmpty('path', newPath);
      const n = this.liveNode(nodeId);
      if (n.path === newPath) return [];
      this.assertPathFree(newPath, nodeId);
      return [{ kind: 'node', row: { ...n, path: newPath } }];
    });
  }

  /** Marks a node deleted; its edges and stats stay until purgeTombstones. Already tombstoned: no-op. */
  tombstone(nodeId: string, at: number): Promise<void> {
    return this.t.mutate(() => {
      const n = this.byId(nodeId);
      if (!n) throw new LithosError('not_found', `No node ${nodeId}.`, { node_id: nodeId });
      if (n.deleted_at !== null) return [];
      return [{ kind: 'node', row: { ...n, path: null, deleted_at: at, last_path: n.path } }];
    });
  }

  revive(nodeId: string, path: string, contentHash: string | null): Promise<void> {
    return this.t.mutate(() => {
      nonEmpty('path', path);
      const n = this.byId(nodeId);
      if (!n) throw new LithosError('not_found', `No node ${nodeId}.`, { node_id: nodeId });
      this.assertPathFree(path, nodeId);
      return [{ kind: 'node', row: { ...n, path, content_hash: contentHash, deleted_at: null, last_path: null } }];
    });
  }

  /** A tombstone matching the id, else the path it was deleted from, else its content (most recent first). */
  findTombstone(q: { nodeId?: string; path?: string; contentHash?: string }): NodeRow | null {
    const where = 'deleted_at IS NOT NULL AND';
    const order = 'ORDER BY deleted_at DESC, node_id LIMIT 1';
    const tries: [string, string | undefined][] = [
      [`SELECT ${NODE_COLS} FROM nodes WHERE ${where} node_id = ? ${order}`, q.nodeId],
      [`SELECT ${NODE_COLS} FROM nodes WHERE ${where} last_path = ? ${order}`, q.path],
      [`SELECT ${NODE_COLS} FROM nodes WHERE ${where} content_hash = ? ${order}`, q.contentHash],
    ];
    for (const [sql, value] of tries) {
      if (value === undefined || value === null) continue;
      const r = this.t.db.one(sql, [value]);
      if (r) return toNode(r);
    }
    return null;
  }

  /** Live nodes whose last indexed content has this hash, by path; at most `limit` (many empty notes share one hash). */
  liveByContentHash(contentHash: string, limit = 20): NodeRow[] {
    return this.t.db.all(`SELECT ${NODE_COLS} FROM nodes WHERE deleted_at IS NULL AND content_hash = ? ORDER BY path LIMIT ?`, [contentHash, limit]).map(toNode);
  }

  /** Deletes tombstones older than `olderThan` (ms) with their edges, stats and co-activation. */
  async purgeTombstones(olderThan: number): Promise<number> {
    let count = 0;
    await this.t.mutate(() => {
      const ids = this.t.db.all('SELECT node_id FROM nodes WHERE deleted_at IS NOT NULL AND deleted_at < ?', [olderThan]).map((r) => String(r[0]));
      count = ids.length;
      return ids.length ? [{ kind: 'purge', node_ids: ids }] : [];
    });
    return count;
  }

  private liveNode(nodeId: string): NodeRow {
    const n = this.byId(nodeId);
    if (!n || n.deleted_at !== null) throw new LithosError('not_found', `No live node ${nodeId}.`, { node_id: nodeId });
    return n;
  }

  private assertPathFree(path: string, nodeId: string): void {
    const holder = this.byPath(path);
    if (holder && holder.node_id !== nodeId) {
      throw new LithosError('conflict', `"${path}" is already registered to node ${holder.node_id}.`, { path, node_id: holder.node_id });
    }
  }
}
