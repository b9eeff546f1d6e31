import type { MemoryStore } from '../stores/memory-store';
import type { NoteProblem } from '../model/types';
import { newId } from '../model/ids';
import type { Clock, VaultPort } from '../ports';
import { parseNote } from '../model/note';

async function frontmatterIdOf(vault: Pick<VaultPort, 'readBytes'>, path: string): Promise<string | null> {
  try {
    return parseNote(path, await vault.readBytes(path)).meta.id;
  } catch {
    return null; // gone or unreadable: the reconcile deals with the file itself
  }
}

export interface IdentityQuery {
  path: string;
  /** A valid frontmatter UUID, or null. */
  frontmatterId: string | null;
  contentHash: string;
  /** The path this note was renamed from, when the host told us (a rename event). */
  renamedFrom?: string;
  /** Whether a note file currently exists at a path (used to tell a move from a duplicate). */
  fileExists: (path: string) => Promise<boolean>;
}

export interface IdentityResult {
  nodeId: string;
  problems: NoteProblem[];
  /** The node's previous path when this is a key move (rename, possibly while the engine was closed). */
  movedFrom?: string;
  revived: boolean;
}

/**
 * Gives every note a stable node id. A frontmatter `id` wins; otherwise the registry keeps an id per path.
 * Renames move the key (id, edges, stats follow); a deleted note that returns — same id, same path or
 * same content — gets its tombstoned id back.
 */
export class NodeIdentity {
  constructor(
    private readonly memory: MemoryStore,
    private readonly clock: Clock,
  ) {}

  async assign(q: IdentityQuery): Promise<IdentityResult> {
    const problems: NoteProblem[] = [];
    const atPath = this.memory.nodes.byPath(q.path);

    if (q.frontmatterId) {
      const byId = this.memory.nodes.byId(q.frontmatterId);
      if (byId && byId.deleted_at === null && byId.path === q.path) {
        return this.keep(byId.node_id, q, 'frontmatter', problems);
      }
      if (byId && byId.deleted_at === null && byId.path !== null) {
        const other = byId.path;
        if (other === q.renamedFrom || !(await q.fileExists(other))) {
          if (atPath && atPath.node_id !== byId.node_id) await this.memory.nodes.tombstone(atPath.node_id, this.clock.now());
          await this.memory.nodes.move(byId.node_id, q.path);
          return this.keep(byId.node_id, q, 'frontmatter', problems, other);
        }
        // Two files claim one id (a copied note): the first keeps it, this one gets a registry id.
        problems.push({
          path: q.path,
          code: 'duplicate_id',
          field: 'id',
          message: `id ${q.frontmatterId} is already used by "${other}"; this note is tracked under its own id until one of them changes.`,
        });
        return this.registryId(q, problems, atPath && atPath.id_source === 'registry' ? atPath.node_id : null);
      }
      if (byId && byId.deleted_at !== null) {
        if (atPath && atPath.node_id !== byId.node_id) await this.memory.nodes.tombstone(atPath.node_id, this.clock.now());
        await this.memory.nodes.revive(byId.node_id, q.path, q.contentHash);
        return { nodeId: byId.node_id, problems, revived: true };
      }
      // A new frontmatter id. If this path had another id, that node is retired (its learned signals stay
      // as a tombstone); the engine's own writes reuse the registry id, so this only happens on hand edits.
      if (atPath) await this.memory.nodes.tombstone(atPath.node_id, this.clock.now());
      await this.memory.nodes.register({ node_id: q.frontmatterId, path: q.path, id_source: 'frontmatter', content_hash: q.contentHash });
      return { nodeId: q.frontmatterId, problems, revived: false };
    }

    return this.registryId(q, problems, atPath ? atPath.node_id : null);
  }

  /**
   * Registers, under the ids they already have, the notes the index cache knows and the registry does not:
   * memory.sqlite was damaged and reset, or deleted, while the cache survived. Without this, the next edit
   * of a note without a frontmatter id would mint it a new id, cutting it off from its receipts, precedents
   * and the edges the journal replayed. A path or id the registry already holds is left as it is (the
   * normal assignment settles those). The cache does not say whether an id came from the frontmatter, so
   * each adopted note's file is read for that (only on this recovery path). A registry with at least as
   * many live nodes as the cache has notes is taken as complete, so the usual start costs one COUNT.
   * Returns how many notes were registered.
   */
  async adopt(notes: Iterable<{ nodeId: string; path: string; contentHash: string }>, vault: Pick<VaultPort, 'readBytes'>): Promise<number> {
    const all = [...notes];
    if (this.memory.counts().nodes >= all.length) return 0;
    let adopted = 0;
    await this.memory.batch(async () => {
      for (const n of all) {
        if (this.memory.nodes.byPath(n.path) || this.memory.nodes.byId(n.nodeId)) continue;
        const source = (await frontmatterIdOf(vault, n.path)) === n.nodeId ? 'frontmatter' : 'registry';
        await this.memory.nodes.register({ node_id: n.nodeId, path: n.path, id_source: source, content_hash: n.contentHash });
        adopted++;
      }
    });
    return adopted;
  }

  private async registryId(q: IdentityQuery, problems: NoteProblem[], current: string | null): Promise<IdentityResult> {
    if (current) return this.keep(current, q, 'registry', problems);
    if (q.renamedFrom) {
      const prev = this.memory.nodes.byPath(q.renamedFrom);
      if (prev && prev.deleted_at === null) {
        await this.memory.nodes.move(prev.node_id, q.path);
        return this.keep(prev.node_id, q, prev.id_source, problems, q.renamedFrom);
      }
    }
    const tomb = this.memory.nodes.findTombstone({ path: q.path }) ?? this.memory.nodes.findTombstone({ contentHash: q.contentHash });
    if (tomb && tomb.id_source === 'registry') {
      await this.memory.nodes.revive(tomb.node_id, q.path, q.contentHash);
      return { nodeId: tomb.node_id, problems, revived: true };
    }
    // A rename the host reported as a create and a delete (file watchers do), the create seen first: the
    // same content at a path that is gone from disk is that note moved, not a new one.
    for (const moved of this.memory.nodes.liveByContentHash(q.contentHash)) {
      if (moved.id_source !== 'registry' || moved.path === null || moved.path === q.path || (await q.fileExists(moved.path))) continue;
      await this.memory.nodes.move(moved.node_id, q.path);
      return this.keep(moved.node_id, q, 'registry', problems, moved.path);
    }
    const id = newId();
    await this.memory.nodes.register({ node_id: id, path: q.path, id_source: 'registry', content_hash: q.contentHash });
    return { nodeId: id, problems, revived: false };
  }

  private async keep(
    nodeId: string,
    q: IdentityQuery,
    source: 'frontmatter' | 'registry',
    problems: NoteProblem[],
    movedFrom?: string,
  ): Promise<IdentityResult> {
    const row = this.memory.nodes.byId(nodeId);
    if (!row || row.content_hash !== q.contentHash || row.path !== q.path) {
      await this.memory.nodes.register({ node_id: nodeId, path: q.path, id_source: source, content_hash: q.contentHash });
    }
    return movedFrom ? { nodeId, problems, movedFrom, revived: false } : { nodeId, problems, revived: false };
  }
}
