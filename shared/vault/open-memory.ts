/**
 * What opening a vault's memory involves before the engine wires it up: the three stores (each recovers
 * from damage on its own and logs its warnings), the search index loaded from the cache (a warm start),
 * the node registry checked against that cache, and old tombstones purged.
 */
import type { SqlJsStatic } from 'sql.js';
import type { BlobStore, Clock, Logger, Timers, VaultPort } from '../ports';
import { MemoryStore } from '../stores/memory-store';
import { MEMORY_SCHEMA } from '../stores/schema';
import { CacheStore } from '../stores/cache-store';
import { CoordinationStore } from '../coordination/coordination-store';
import type { StoreLoss } from '../stores/store-loss';
import { SearchIndex } from '../index/search-index';
import type { EmbeddingSpaces } from '../index/embedding-spaces';
import { LinkResolver } from '../model/resolve';
import { NodeIdentity } from './identity';
import { NoteIndexer } from './note-indexer';
import { LinkGraph } from './link-graph';
import { macrotask } from '../stores/yield-to-host';

/** Tombstoned nodes (deleted notes' ids, edges and stats) are kept this long for a note that comes back. */
export const TOMBSTONE_TTL_MS = 30 * 24 * 3600 * 1000;

export interface OpenMemoryDeps {
  vault: VaultPort;
  blobs: BlobStore;
  sql: SqlJsStatic;
  clock: Clock;
  timers: Timers;
  logger: Logger;
  persistDebounceMs: number;
  onProgress?: (p: { phase: 'load'; done: number; total: number }) => void;
}

export interface OpenedMemory {
  memory: MemoryStore;
  cache: CacheStore;
  coordination: CoordinationStore;
  index: SearchIndex;
  resolver: LinkResolver;
  /** Backlinks being resolved from here on, so the first retrieval finds them ready (kept per changed note from then on). */
  graph: LinkGraph;
  indexer: NoteIndexer;
  identity: NodeIdentity;
  /** Notes whose cached vectors lack the primary space: embedded at the first reconcile. */
  missingPrimary: string[];
  /** For the CLI, doctor and the plugin's notice (already logged). */
  warnings: string[];
  /** Learned data the stores could not bring back (their messages are in `warnings` too). */
  losses: StoreLoss[];
}

export async function openMemory(d: OpenMemoryDeps, spaces: EmbeddingSpaces): Promise<OpenedMemory> {
  const storeDeps = { sql: d.sql, blobs: d.blobs, clock: d.clock, timers: d.timers, logger: d.logger, debounceMs: d.persistDebounceMs };
  const mem = await MemoryStore.open(storeDeps);
  const cache = await CacheStore.open(storeDeps);
  const coordination = await CoordinationStore.open(storeDeps);
  const warnings = [...mem.warnings, ...cache.warnings, ...coordination.warnings];
  const losses = [...mem.losses, ...coordination.losses];
  for (const e of spaces.list()) cache.store.registerSpace(e.spaceId, e.dimensions);

  const index = await SearchIndex.create();
  const resolver = new LinkResolver();
  const indexer = new NoteIndexer(cache.store, index, resolver, () => spaces.list(), d.clock);
  const { stale, missingPrimary } = await indexer.loadFromCache((done, total) => d.onProgress?.({ phase: 'load', done, total }));
  for (const p of stale) cache.store.removeNote(p); // re-read on the next reconcile
  const identity = new NodeIdentity(mem.store, d.clock);
  const adopted = await identity.adopt(indexer.byPath.values(), d.vault);
  if (adopted > 0) {
    const w = `${adopted} note id(s) missing from ${MEMORY_SCHEMA.file} were registered again from the index cache, so the notes keep their ids.`;
    d.logger.warn(w);
    warnings.push(w);
  }
  await mem.store.nodes.purgeTombstones(d.clock.now() - TOMBSTONE_TTL_MS);
  const graph = new LinkGraph(indexer.byPath, resolver);
  // Not awaited: the rest of the open and the first scan wait on files, and the build's slices fill those
  // waits; a read of backlinks before it is done finishes it there and then.
  graph.build(macrotask).catch((err: unknown) => d.logger.warn('building backlinks failed', { error: String(err) }));
  return { memory: mem.store, cache: cache.store, coordination: coordination.store, index, resolver, graph, indexer, identity, missingPrimary, warnings, losses };
}
