import type { Clock, Logger, Timers, VaultEvent, VaultFileStat, VaultPort } from '../ports';
import type { MemoryStore } from '../stores/memory-store';
import { parseNote } from '../model/note';
import type { NoteMeta, ParsedNote } from '../model/types';
import { LithosError, asLithosError } from '../errors';
import { isHiddenPath, isMarkdownPath } from '../model/paths';
import type { NodeIdentity } from './identity';
import type { NoteIndexer } from './note-indexer';
import { macrotask } from '../stores/yield-to-host';

export interface IndexReport {
  notes: number;
  indexed: number;
  unchanged: number;
  removed: number;
  renamed: number;
  errors: { path: string; code: string; message: string }[];
  problems: number;
  duration_ms: number;
}

export interface SyncDeps {
  vault: VaultPort;
  memory: MemoryStore;
  indexer: NoteIndexer;
  identity: NodeIdentity;
  clock: Clock;
  timers: Timers;
  logger: Logger;
  debounceMs: number;
  onProgress?: (p: { phase: 'scan' | 'index'; done: number; total: number }) => void;
  /**
   * A note (re)indexed by an event or syncPath (not by reconcile): its content changed. `external`: seen through a
   * vault event, not the engine's own write (which re-syncs its path at once, so its event finds nothing new).
   * `before`: the note's metadata as indexed before this change (null for a new note).
   */
  onChanged?: (path: string, external: boolean, before: NoteMeta | null) => void;
  /** A note (re)indexed with new bytes, by the reconcile, an event or syncPath: whose it is (note-editors.ts). */
  onIndexed?: (nodeId: string, parsed: ParsedNote) => Promise<void>;
  /** Called for a note removed from the vault after the engine opened (its node is tombstoned, its edges kept for a restore). */
  onRemoved?: (nodeId: string) => void;
}

type Outcome = 'indexed' | 'unchanged' | 'removed' | 'renamed' | 'skipped';

const BATCH = 50;
/** Event errors kept for `doctor` between scans (a scan replaces them). */
const MAX_KEPT_ERRORS = 200;
/**
 * Lets the host's event loop breathe (UI stays responsive during a big scan). A macrotask, not
 * setTimeout(0): timers are clamped (≥ 1 ms in Node, 4 ms in browsers), and a warm scan of 10k notes
 * yielded 200 times, idling 200-800 ms in total.
 */
const yieldToHost = macrotask;
/**
 * The longest a scan runs between two turns of the host's event loop. Once a batch's reads have landed,
 * parsing and embedding it runs on microtasks only (200 notes held the loop for several hundred ms), and
 * typing in Obsidian must never wait more than 50 ms: so the scan also yields inside a batch whenever this
 * much time has passed.
 */
const SLICE_MS = 20;
/**
 * A batch's bulk index insert (the flush at the end of indexer.batch) cannot yield and takes 10-45 ms for
 * 50 notes at 10k notes: it starts on a fresh turn unless the current one is this young, or the two added
 * up to 60-110 ms.
 */
const FLUSH_HEADROOM_MS = 3;

/**
 * Keeps the engine in step with the vault: a full reconcile on open (mtime + size, then content hash, so
 * unchanged notes cost nothing) and per-path debounced events afterwards. All work runs on one serial queue,
 * so a scan and an event never interleave on the same note.
 */
export class VaultSync {
  private readonly pending = new Map<string, unknown>();
  /** new path → old path, from rename events not yet processed (a chain A→B→C resolves to A). */
  private readonly renamedFrom = new Map<string, string>();
  private queue: Promise<unknown> = Promise.resolve();
  lastErrors: IndexReport['errors'] = [];

  constructor(private readonly d: SyncDeps) {}

  reconcile(): Promise<IndexReport> {
    return this.enqueue(() => this.runReconcile());
  }

  handleEvent(e: VaultEvent): void {
    if (e.kind === 'rename') {
      if (this.relevant(e.oldPath)) this.schedule(e.oldPath);
      if (this.relevant(e.path)) {
        if (this.relevant(e.oldPath)) this.renamedFrom.set(e.path, e.oldPath);
        this.schedule(e.path);
      }
      return;
    }
    if (this.relevant(e.path)) this.schedule(e.path);
  }

  /** Runs every debounced path now and waits until the queue is idle. */
  async settle(): Promise<void> {
    for (;;) {
      // Events that arrive while waiting (the echo of the engine's own writes) are run too: waiting for
      // their debounce would spin forever on a clock that does not move (and on microtasks alone).
      for (const [path, handle] of [...this.pending]) {
        this.d.timers.clearTimeout(handle);
        this.fire(path);
      }
      const q = this.queue;
      await q.catch(() => undefined);
      if (q === this.queue && this.pending.size === 0) return;
    }
  }

  /**
   * Waits, without cutting any debounce short, until every pending event has been handled. For hosts that
   * only want to know when the index has caught up (a status bar).
   */
  async idle(): Promise<void> {
    for (;;) {
      await this.queue.catch(() => undefined);
      if (this.pending.size === 0) return;
      await new Promise<void>((r) => this.d.timers.setTimeout(r, Math.max(this.d.debounceMs, 10)));
    }
  }

  /** Re-reads one path now (after the engine's own write), on the same queue as everything else. */
  syncPath(path: string): Promise<unknown> {
    return this.enqueue(() => this.syncEventPath(path, false));
  }

  pendingCount(): number {
    return this.pending.size;
  }

  private relevant(path: string): boolean {
    return isMarkdownPath(path) && !isHiddenPath(path);
  }

  private schedule(path: string): void {
    const prev = this.pending.get(path);
    if (prev !== undefined) this.d.timers.clearTimeout(prev);
    this.pending.set(path, this.d.timers.setTimeout(() => this.fire(path), this.d.debounceMs));
  }

  private fire(path: string): void {
    this.pending.delete(path);
    void this.enqueue(async () => {
      try {
        await this.syncEventPath(path, true);
      } catch (err) {
        const e = asLithosError(err);
        this.lastErrors.push({ path, code: e.code, message: e.message });
        if (this.lastErrors.length > MAX_KEPT_ERRORS) this.lastErrors.shift();
        this.d.logger.warn(`Could not update "${path}": ${e.message}`, { code: e.code });
      }
    });
  }

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job, job);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Follows rename hints back to the oldest path still known to the engine. */
  private origin(path: string): string | undefined {
    let cur = this.renamedFrom.get(path);
    let found: string | undefined;
    const seen = new Set([path]);
    while (cur !== undefined && !seen.has(cur)) {
      seen.add(cur);
      if (this.d.indexer.byPath.has(cur)) found = cur;
      cur = this.renamedFrom.get(cur);
    }
    return found;
  }

  private async syncEventPath(path: string, external: boolean): Promise<Outcome> {
    const stat = await this.d.vault.stat(path);
    const from = this.origin(path);
    this.renamedFrom.delete(path);
    if (!stat) {
      // The old side of a rename whose new side is still waiting: that side moves the key.
      for (const [to, old] of this.renamedFrom) if (old === path && this.pending.has(to)) return 'skipped';
      const outcome = await this.removeIfGone(path);
      if (from && (await this.removeIfGone(from)) === 'removed') return 'removed';
      return outcome;
    }
    const before = (this.d.indexer.byPath.get(path) ?? (from === undefined ? undefined : this.d.indexer.byPath.get(from)))?.cached.meta ?? null;
    const outcome = await this.syncFile(stat, from);
    if (outcome === 'indexed' || outcome === 'renamed') this.d.onChanged?.(stat.path, external, before);
    return outcome;
  }

  private async removeIfGone(path: string): Promise<Outcome> {
    const live = this.d.indexer.byPath.get(path);
    if (!live) return 'skipped';
    if (await this.d.vault.stat(path)) return 'skipped';
    await this.d.memory.nodes.tombstone(live.nodeId, this.d.clock.now());
    await this.d.indexer.remove(path);
    this.d.onRemoved?.(live.nodeId);
    return 'removed';
  }

  /** Indexes one existing file if its bytes changed; `renamedFrom` moves the key from an older path. */
  private async syncFile(stat: VaultFileStat, renamedFrom?: string, bytes?: Uint8Array, alreadyParsed?: ParsedNote): Promise<Outcome> {
    const live = this.d.indexer.byPath.get(stat.path);
    if (live && !renamedFrom && live.mtime === stat.mtime && live.size === stat.size) return 'unchanged';
    let data = bytes;
    try {
      data ??= await this.d.vault.readBytes(stat.path);
    } catch (err) {
      const e = asLithosError(err);
      if (e.code === 'not_found') return this.removeIfGone(stat.path);
      throw e;
    }
    const parsed = alreadyParsed ?? parseNote(stat.path, data);
    if (live && !renamedFrom && live.contentHash === parsed.contentHash) {
      this.d.indexer.touch(live, stat);
      return 'unchanged';
    }
    const id = await this.d.identity.assign({
      path: stat.path,
      frontmatterId: parsed.meta.id,
      contentHash: parsed.contentHash,
      renamedFrom,
      fileExists: async (p) => (await this.d.vault.stat(p)) !== null,
    });
    await this.d.indexer.indexNote(parsed, id.nodeId, stat, id.problems);
    await this.d.onIndexed?.(id.nodeId, parsed);
    return id.movedFrom && id.movedFrom !== stat.path ? 'renamed' : 'indexed';
  }

  private async runReconcile(): Promise<IndexReport> {
    const started = this.d.clock.now();
    const errors: IndexReport['errors'] = [];
    if (!(await this.d.vault.isAvailable())) {
      throw new LithosError('vault_unavailable', 'The vault folder is not available; nothing was changed.');
    }
    const files = await this.d.vault.listMarkdown();
    const seen = new Set(files.map((f) => f.path));
    const vanished = new Map<string, string>(); // content hash → path, for pairing offline renames
    for (const [p, n] of this.d.indexer.byPath) if (!seen.has(p)) vanished.set(n.contentHash, p);

    const counts = { indexed: 0, unchanged: 0, removed: 0, renamed: 0, skipped: 0 };
    const total = files.length;
    let done = 0;
    let sliceStart = this.d.clock.now();
    const breathe = async (): Promise<void> => {
      if (this.d.clock.now() - sliceStart < SLICE_MS) return;
      await yieldToHost();
      sliceStart = this.d.clock.now();
    };
    for (let i = 0; i < files.length; i += BATCH) {
      // One durable journal append per batch instead of one per note (a first index touches every node).
      const slice = files.slice(i, i + BATCH);
      // Start reading every changed file of the batch at once, so disk latency overlaps parsing and embedding.
      const reads = new Map<string, Promise<Uint8Array | undefined>>();
      for (const stat of slice) {
        const live = this.d.indexer.byPath.get(stat.path);
        if (live && live.mtime === stat.mtime && live.size === stat.size) continue;
        // Never rejects (an unhandled rejection would end a Node process); a failed read is retried by
        // syncFile, which tells a vanished file from a real error.
        reads.set(stat.path, this.d.vault.readBytes(stat.path).then((b) => b, () => undefined));
      }
      await this.d.memory.batch(() => this.d.indexer.batch(async () => {
        for (const stat of slice) {
          try {
            const live = this.d.indexer.byPath.get(stat.path);
            const bytes = await reads.get(stat.path);
            let outcome: Outcome;
            if (!live && vanished.size > 0 && bytes) {
              const parsed = parseNote(stat.path, bytes);
              const from = vanished.get(parsed.contentHash);
              if (from) vanished.delete(from);
              outcome = await this.syncFile(stat, from, bytes, parsed);
            } else {
              outcome = await this.syncFile(stat, undefined, bytes);
            }
            counts[outcome]++;
          } catch (err) {
            const e = asLithosError(err);
            errors.push({ path: stat.path, code: e.code, message: e.message });
          }
          done++;
          this.d.onProgress?.({ phase: 'index', done, total });
          await breathe();
        }
        if (this.d.clock.now() - sliceStart >= FLUSH_HEADROOM_MS) {
          await macrotask();
          sliceStart = this.d.clock.now();
        }
      }));
      // A batch of unchanged notes costs next to nothing: yield only once this turn has run a while (the
      // flush above included), so a warm scan is not a long string of empty yields.
      if (this.d.clock.now() - sliceStart >= FLUSH_HEADROOM_MS) {
        await yieldToHost();
        sliceStart = this.d.clock.now();
      }
    }
    await this.d.memory.batch(async () => {
      for (const path of [...this.d.indexer.byPath.keys()]) {
        if (seen.has(path)) continue;
        try {
          if ((await this.removeIfGone(path)) === 'removed') counts.removed++;
        } catch (err) {
          const e = asLithosError(err);
          errors.push({ path, code: e.code, message: e.message });
        }
      }
    });
    let problems = 0;
    for (const n of this.d.indexer.byPath.values()) problems += n.cached.problems.length;
    this.lastErrors = errors;
    return {
      notes: this.d.indexer.byPath.size,
      indexed: counts.indexed,
      unchanged: counts.unchanged,
      removed: counts.removed,
      renamed: counts.renamed,
      errors,
      problems,
      duration_ms: this.d.clock.now() - started,
    };
  }
}
