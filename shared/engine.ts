import { openConfigStores, reportLosses } from './engine-config';
import { withDefaults, type EngineDeps, type ResolvedDeps } from './engine-deps';
import { buildServices } from './engine-services';
import type { Services } from './session/services';
import { openSession, type MemorySession } from './session/memory-session';
import type { SessionCaller } from './session/caller';
import type { BlobStore, Embedder, Logger, VaultEvent } from './ports';
import { LithosError } from './errors';
import type { ParsedNote } from './model/types';
import type { MemoryStore } from './stores/memory-store';
import type { CacheStore } from './stores/cache-store';
import type { StoreLoss } from './stores/store-loss';
import type { EngineSearchHit, SearchOptions } from './index/note-queries';
import { HashingEmbedder } from './index/embedders/hashing-embedder';
import { EmbeddingSpaces } from './index/embedding-spaces';
import type { CoordinationStore } from './coordination/coordination-store';
import type { AgentKeys } from './governance/agent-keys';
import type { AuditLog, AuditActor } from './governance/audit';
import type { Viewer } from './governance/gate';
import type { PolicyStore } from './governance/policy';
import type { ProposalStore } from './governance/proposals';
import { doctorReport, engineStats, pastLossWarnings, setAsideWarnings, type DoctorReport } from './vault/engine-report';
import { openMemory } from './vault/open-memory';
import type { NoteIndexer, LiveNote } from './vault/note-indexer';
import type { VaultSync, IndexReport } from './vault/sync';
import type { LinkGraph, ResolvedLink } from './vault/link-graph';
import type { DeleteNoteResult, WriteNoteRequest, WriteNoteResult } from './model/note-write';
import type { Interpreter } from './retrieval/terrace2';
import type { ReceiptLog } from './retrieval/receipts';
import type { QueryContext, RetrievalResult, RetrieveOptions } from './retrieval/types';
import type { LearningStore } from './learning/learning-store';
import type { Consolidator } from './learning/consolidator';
import type { ConflictService } from './conflicts/conflicts';

export type { IndexReport } from './vault/sync';
export type { EngineDeps } from './engine-deps';
export type { EngineSearchHit } from './index/note-queries';
export type { DoctorReport } from './vault/engine-report';
export { TOMBSTONE_TTL_MS } from './vault/open-memory';

/** Whether the engine was closed; its services refuse work from then on. */
class OpenState {
  closed = false;
  readonly assertOpen = (): void => {
    if (this.closed) throw new LithosError('unsupported', 'The memory engine is closed.');
  };
}

/** What `open` builds, in one step, before the engine. */
interface EngineParts {
  deps: ResolvedDeps;
  state: OpenState;
  memory: MemoryStore;
  cache: CacheStore;
  coordination: CoordinationStore;
  indexer: NoteIndexer;
  sync: VaultSync;
  graph: LinkGraph;
  services: Services;
  /** Cached notes without vectors in the primary space (openMemory's missingPrimary). */
  backfill: string[];
  warnings: string[];
}

/**
 * The memory engine: one vault, its stores, its index. Host-free; the plugin and the bridge compose it
 * with their own ports. It owns the lifecycle (open, reconcile, watch, flush, close); the work is the
 * services' (`services`, session/services.ts), and its other members delegate to them.
 */
export class MemoryEngine {
  readonly warnings: string[];
  /** Learned data found lost at open (each also in `warnings`, and audited as `store.damaged`). */
  readonly losses: StoreLoss[] = [];
  /** The services the engine is made of (session/services.ts). */
  readonly services: Services;
  readonly memory: MemoryStore;
  readonly cache: CacheStore;
  /** Agents, tasks, aspect claims, findings (coordination.sqlite). */
  readonly coordination: CoordinationStore;
  private unwatch: (() => void) | null = null;
  /**
   * Cached notes without vectors in the primary (first) space, e.g. after the default embedder's version
   * changed: embedded from the cached chunks at the next reconcile. Other spaces fill lazily or by addSpace.
   */
  private backfill: string[];
  private readonly state: OpenState;
  private readonly deps: ResolvedDeps;
  private readonly indexer: NoteIndexer;
  private readonly sync: VaultSync;
  private readonly graph: LinkGraph;

  private constructor(p: EngineParts) {
    this.deps = p.deps;
    this.state = p.state;
    this.memory = p.memory;
    this.cache = p.cache;
    this.coordination = p.coordination;
    this.indexer = p.indexer;
    this.sync = p.sync;
    this.graph = p.graph;
    this.services = p.services;
    this.backfill = p.backfill;
    this.warnings = p.warnings;
  }

  static async open(deps: EngineDeps): Promise<MemoryEngine> {
    const d = withDefaults(deps);
    const spaces = new EmbeddingSpaces(deps.embedders?.length ? deps.embedders : [new HashingEmbedder()]);
    const m = await openMemory(d, spaces);
    const { warnings } = m;
    const config = await openConfigStores(d, warnings);
    const state = new OpenState();
    const { services, sync, graph } = buildServices({ d, m, config, spaces, guard: state.assertOpen });
    const { memory, cache, coordination, indexer, missingPrimary: backfill } = m;
    const engine = new MemoryEngine({ deps: d, state, memory, cache, coordination, indexer, sync, graph, services, backfill, warnings });
    const { governance, retrieval } = services;
    await reportLosses(d, { audit: governance.audit, learned: memory.learned, receipts: retrieval.receipts, proposals: governance.proposals }, m.losses, warnings, engine.losses);
    await services.learning.start();
    return engine;
  }

  // ── lifecycle ───────────────────────────────────────────────────────────

  /** The memory as this caller may use it (session/memory-session.ts): what every front door holds. */
  as(caller: SessionCaller): Promise<MemorySession> {
    this.assertOpen();
    return openSession({ services: this.services, logger: this.deps.logger, pendingEvents: () => this.sync.pendingCount() }, caller);
  }

  /** Full scan: mtime + size, then content hash, so unchanged notes cost nothing. */
  async reconcile(): Promise<IndexReport> {
    this.assertOpen();
    const report = await this.sync.reconcile();
    if (this.backfill.length > 0) {
      const paths = this.backfill;
      this.backfill = [];
      await this.services.search.embedPrimary(paths);
    }
    return report;
  }

  startWatching(): void {
    this.assertOpen();
    this.unwatch ??= this.deps.vault.watch((e) => this.handleEvent(e));
  }

  stopWatching(): void {
    this.unwatch?.();
    this.unwatch = null;
  }

  handleEvent(e: VaultEvent): void {
    if (!this.state.closed) this.sync.handleEvent(e);
  }

  /** Handles every pending event now, cutting debounces short (CLI, tests, before a flush). */
  settle(): Promise<void> {
    return this.sync.settle();
  }

  /** Resolves once pending events have been handled, letting their debounces run their course. */
  idle(): Promise<void> {
    return this.sync.idle();
  }

  stats(): Record<string, unknown> {
    return engineStats(this.services.notes.notes(), {
      embedding_spaces: this.cache.spaces(),
      stores: this.memory.counts(),
      pending_events: this.sync.pendingCount(),
      indexed_since_open: this.indexer.indexedCount,
    });
  }

  async doctor(): Promise<DoctorReport> {
    const earlier = [
      ...setAsideWarnings(await this.deps.blobs.list(), this.warnings),
      ...pastLossWarnings(await this.services.governance.audit.recent({ action: 'store.damaged', limit: 100 }), this.losses, this.deps.clock.now()),
    ];
    return doctorReport(this.services.notes.notes(), { warnings: [...this.warnings, ...earlier], errors: [...this.sync.lastErrors], broken_links: this.graph.broken() });
  }

  async flush(): Promise<void> {
    await this.sync.settle();
    await this.services.conflicts.drain();
    await this.memory.flush();
    await this.cache.flush();
    await this.coordination.flush();
  }

  async close(): Promise<void> {
    if (this.state.closed) return;
    this.stopWatching();
    this.services.conflicts.stopFollowingPolicy();
    await this.services.conflicts.idle(); // a callout sync under way finishes before the stores close
    await this.services.learning.stop();
    await this.flush();
    this.state.closed = true;
    await this.memory.close();
    await this.cache.close();
    await this.coordination.close();
  }

  private assertOpen(): void {
    this.state.assertOpen();
  }

  // ── delegates to the services, kept while their callers move to `services` ──

  now(): number {
    return this.deps.clock.now();
  }

  /** `.lithos/` files. */
  get blobs(): BlobStore {
    return this.deps.blobs;
  }

  get logger(): Logger {
    return this.deps.logger;
  }

  note(ref: string): LiveNote | null {
    return this.services.notes.note(ref);
  }

  noteAtPath(path: string): LiveNote | null {
    return this.services.notes.noteAtPath(path);
  }

  notes(): LiveNote[] {
    return this.services.notes.notes();
  }

  links(path: string): ResolvedLink[] {
    return this.services.notes.links(path);
  }

  backlinks(path: string): string[] {
    return this.services.notes.backlinks(path);
  }

  parse(path: string): Promise<ParsedNote> {
    return this.services.notes.parse(path);
  }

  updateFrontmatter(path: string, fn: (fm: Record<string, unknown>) => void): Promise<void> {
    return this.services.notes.updateFrontmatter(path, fn);
  }

  writeNote(req: WriteNoteRequest, audit?: AuditActor): Promise<WriteNoteResult> {
    return this.services.notes.writeNote(req, audit);
  }

  editNoteText(path: string, edit: (text: string) => string, audit: AuditActor): Promise<boolean> {
    return this.services.notes.editNoteText(path, edit, audit);
  }

  deleteNote(path: string, opts: { expectedVersion?: string; trash?: boolean; actor?: string | null } = {}): Promise<DeleteNoteResult> {
    return this.services.notes.deleteNote(path, opts);
  }

  search(query: string, opts: SearchOptions = {}): Promise<EngineSearchHit[]> {
    return this.services.search.search(query, opts);
  }

  similar(id: string, opts: { k?: number; allow?: (id: string) => boolean } = {}): Promise<EngineSearchHit[]> {
    return this.services.search.similar(id, opts);
  }

  noteVector(id: string): Float32Array | null {
    return this.services.search.noteVector(id);
  }

  textSimilarity(ids: readonly string[], text: string): Promise<Map<string, number>> {
    return this.services.search.textSimilarity(ids, text);
  }

  addSpace(space: Embedder, onProgress?: (done: number, total: number) => void): Promise<number> {
    return this.services.search.addSpace(space, onProgress);
  }

  removeSpace(spaceId: string): boolean {
    return this.services.search.removeSpace(spaceId);
  }

  activeSpaces(): string[] {
    return this.services.search.activeSpaces();
  }

  retrieve(ctx: QueryContext, opts: RetrieveOptions = {}): Promise<RetrievalResult> {
    return this.services.retrieval.retrieve(ctx, opts);
  }

  get receipts(): ReceiptLog {
    return this.services.retrieval.receipts;
  }

  setInterpreter(interpreter: Interpreter | null): void {
    this.services.retrieval.setInterpreter(interpreter);
  }

  /** The learning constants' overrides (LearningService.tunables). */
  get learning(): LearningStore {
    return this.services.learning.tunables;
  }

  get consolidator(): Consolidator {
    return this.services.learning.consolidator;
  }

  setDecayInterval(ms: number): void {
    this.services.learning.setDecayInterval(ms);
  }

  get conflicts(): ConflictService {
    return this.services.conflicts;
  }

  followPolicy(): Promise<void> {
    return this.services.conflicts.followPolicy();
  }

  get audit(): AuditLog {
    return this.services.governance.audit;
  }

  get policy(): PolicyStore {
    return this.services.governance.policy;
  }

  get agentKeys(): AgentKeys {
    return this.services.governance.agentKeys;
  }

  get proposals(): ProposalStore {
    return this.services.governance.proposals;
  }

  viewerFor(caller: { kind: 'human' | 'agent'; agent_id: string | null; verified?: boolean }, taskId: string | null = null): Viewer {
    return this.services.governance.viewerFor(caller, taskId);
  }

  readersMaySee(reader: LiveNote, target: LiveNote): boolean {
    return this.services.governance.readersMaySee(reader, target);
  }
}
