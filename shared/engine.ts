import type { AgentKeys } from './governance/agent-keys';
import { openConfigStores, pendingProposalIds, reportLosses } from './engine-config';
import type { BlobStore, Embedder, Logger, VaultEvent } from './ports';
import type { MemoryStore } from './stores/memory-store';
import type { CacheStore } from './stores/cache-store';
import type { CoordinationStore } from './coordination/coordination-store';
import type { SearchIndex } from './index/search-index';
import type { EngineSearchHit, SearchOptions } from './index/note-queries';
import { HashingEmbedder } from './index/embedders/hashing-embedder';
import { EmbeddingSpaces } from './index/embedding-spaces';
import { doctorReport, engineStats, pastLossWarnings, setAsideWarnings, type DoctorReport } from './vault/engine-report';
import type { StoreLoss } from './stores/store-loss';
import type { ParsedNote } from './model/types';
import { LithosError } from './errors';
import { openMemory } from './vault/open-memory';
import type { NoteIndexer, LiveNote } from './vault/note-indexer';
import { VaultSync, type IndexReport } from './vault/sync';
import { LinkGraph, type ResolvedLink } from './vault/link-graph';
import type { DeleteNoteResult, WriteNoteRequest, WriteNoteResult } from './vault/note-writer';
import { NotesService } from './vault/notes-service';
import { SearchService } from './vault/search-service';
import type { Interpreter } from './retrieval/terrace2';
import { ReceiptLog } from './retrieval/receipts';
import { RetrievalService } from './retrieval/retrieval-service';
import type { QueryContext, Receipt, RetrievalResult, RetrieveOptions } from './retrieval/types';
import { type AuditLog, type AuditActor } from './governance/audit';
import { runDecay } from './learning/decay';
import { Periodic } from './learning/periodic';
import { applyFollowUp, FollowUpTracker } from './learning/follow-up';
import { DECAY } from './learning/constants';
import type { PolicyStore } from './governance/policy';
import type { ConfigStores } from './engine-config';
import type { LearningStore } from './learning/learning-store';
import { ProposalStore } from './governance/proposals';
import type { Viewer } from './governance/gate';
import { GovernanceService } from './governance/governance-service';
import { Consolidator } from './learning/consolidator';
import { ConflictService } from './conflicts/conflicts';
import { withDefaults, type EngineDeps, type ResolvedDeps } from './engine-deps';
import type { Services } from './session/services';

export type { IndexReport } from './vault/sync';
export type { EngineDeps } from './engine-deps';
export type { EngineSearchHit } from './index/note-queries';
export type { DoctorReport } from './vault/engine-report';
export { TOMBSTONE_TTL_MS } from './vault/open-memory';

/**
 * The memory engine: one vault, its stores, its index. Host-free; the plugin and the bridge compose it
 * with their own ports.
 */
/** Whether the engine was closed; its parts refuse work from then on. */
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
  index: SearchIndex;
  indexer: NoteIndexer;
  sync: VaultSync;
  graph: LinkGraph;
  notes: NotesService;
  search: SearchService;
  config: ConfigStores;
  governance: GovernanceService;
  conflicts: ConflictService;
  /** Cached notes without vectors in the primary space (openMemory's missingPrimary). */
  backfill: string[];
  warnings: string[];
}

export class MemoryEngine {
  readonly warnings: string[];
  /** Learned data found lost at open (each also in `warnings`, and audited as `store.damaged`). */
  readonly losses: StoreLoss[] = [];
  private unwatch: (() => void) | null = null;
  /**
   * Cached notes without vectors in the primary (first) space, e.g. after the default embedder's version
   * changed: embedded from the cached chunks at the next reconcile. Other spaces fill lazily or by addSpace.
   */
  private backfill: string[];
  private readonly state: OpenState;
  /** Decay at open, then every DECAY.interval_ms (learning/decay.ts). */
  private readonly decay: Periodic;
  /** `.lithos/learning.json`: overrides of the learning constants, read by feedback and decay (learning/learning-store.ts). */
  readonly learning: LearningStore;
  readonly memory: MemoryStore;
  readonly cache: CacheStore;
  /** Agents, tasks, aspect claims, findings (coordination.sqlite). */
  readonly coordination: CoordinationStore;
  /** The services the engine is made of (session/services.ts). */
  readonly services: Services;
  private readonly followUps = new FollowUpTracker();
  private readonly deps: ResolvedDeps;
  private readonly index: SearchIndex;
  private readonly indexer: NoteIndexer;
  private readonly sync: VaultSync;
  private readonly graph: LinkGraph;
  private consolidatorInst: Consolidator | null = null;

  private constructor(p: EngineParts) {
    ({ deps: this.deps, state: this.state, memory: this.memory, cache: this.cache, coordination: this.coordination, index: this.index } = p);
    ({ indexer: this.indexer, sync: this.sync, graph: this.graph, backfill: this.backfill, warnings: this.warnings } = p);
    this.learning = p.config.learning;
    const { indexer } = p;
    this.decay = new Periodic(p.deps.timers, () => this.decayNow(), DECAY.interval_ms);
    const corpus = { byId: indexer.byId, byPath: indexer.byPath, index: p.index, graph: p.graph, memory: p.memory, embedders: () => p.search.embedders(), version: () => indexer.version };
    const receipts = new ReceiptLog(p.deps.blobs, p.deps.clock, { logger: p.deps.logger });
    const recorded = async (r: Receipt): Promise<void> => {
      // Implicit learning: a re-query in the same task near the previous result is a weak positive.
      if (r.task_id) await applyFollowUp(this, this.followUps, r);
      this.consolidatorInst?.noteRetrieval(r);
    };
    const retrieval = new RetrievalService({ corpus, receipts, memory: p.memory, clock: p.deps.clock, governance: p.governance, recorded, guard: p.state.assertOpen });
    this.services = { notes: p.notes, search: p.search, retrieval, conflicts: p.conflicts, governance: p.governance, coordination: p.coordination, clock: p.deps.clock };
  }

  /** The audit trail (GovernanceService). */
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

  static async open(deps: EngineDeps): Promise<MemoryEngine> {
    const d = withDefaults(deps);
    const spaces = new EmbeddingSpaces(deps.embedders?.length ? deps.embedders : [new HashingEmbedder()]);
    const m = await openMemory(d, spaces);
    const { indexer, warnings } = m;
    const config = await openConfigStores(d, warnings);
    const state = new OpenState();
    // Built after sync (it writes callouts through the notes, which sync re-reads): sync's hooks find it then.
    let conflicts: ConflictService | null = null;
    const sync = new VaultSync({
      vault: d.vault,
      memory: m.memory,
      indexer,
      identity: m.identity,
      clock: d.clock,
      timers: d.timers,
      logger: d.logger,
      debounceMs: d.debounceMs,
      onProgress: d.onProgress,
      // Rule detection follows notes changed after open, never the reconcile's bulk work.
      onChanged: (p) => conflicts?.noteChanged(p),
      onRemoved: (id) => conflicts?.noteRemoved(id),
    });
    const graph = new LinkGraph(indexer.byPath, m.resolver, () => indexer.version);
    const notes = new NotesService({ vault: d.vault, clock: d.clock, audit: config.audit, live: indexer, resolver: m.resolver, graph, syncPath: (p) => sync.syncPath(p), guard: state.assertOpen });
    const search = new SearchService({ index: m.index, indexer, spaces, cache: m.cache, guard: state.assertOpen });
    const pending = pendingProposalIds(m.memory.learned);
    const proposals = new ProposalStore({ blobs: d.blobs, clock: d.clock, audit: config.audit, write: (req) => notes.writeNote(req), pending });
    const governance = new GovernanceService({ ...config, proposals, tasks: m.coordination });
    const { memory, cache, coordination, index, missingPrimary: backfill } = m;
    const { clock, timers, logger } = d;
    conflicts = new ConflictService({ notes, search, memory, audit: config.audit, policy: config.policy, governance, tunables: config.learning, clock, timers, logger, callouts: d.callouts ?? true, guard: state.assertOpen });
    const engine = new MemoryEngine({ deps: d, state, memory, cache, coordination, index, indexer, sync, graph, notes, search, conflicts, config, governance, backfill, warnings });
    await reportLosses(d, { audit: config.audit, learned: m.memory.learned, receipts: engine.receipts, proposals }, m.losses, warnings, engine.losses);
    await engine.decayNow();
    engine.decay.start();
    return engine;
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

  /** `allow`: a per-note gate (the caller's scope) applied before ranking, so k counts only allowed notes. */
  search(query: string, opts: SearchOptions = {}): Promise<EngineSearchHit[]> {
    return this.services.search.search(query, opts);
  }

  /** RetrievalService.retrieve. */
  retrieve(ctx: QueryContext, opts: RetrieveOptions = {}): Promise<RetrievalResult> {
    return this.services.retrieval.retrieve(ctx, opts);
  }

  /** Consolidation (learning/consolidate.ts): run on demand, or start its schedule (learning/consolidator.ts). */
  get consolidator(): Consolidator {
    return (this.consolidatorInst ??= new Consolidator(this, this.deps.timers, this.deps.logger));
  }

  now(): number {
    return this.deps.clock.now();
  }

  /** `.lithos/` files, for the learning layer's own state. */
  get blobs(): BlobStore {
    return this.deps.blobs;
  }

  get logger(): Logger {
    return this.deps.logger;
  }

  /** A note's mean chunk vector in the primary space (unit length), or null. */
  noteVector(id: string): Float32Array | null {
    return this.services.search.noteVector(id);
  }

  /** GovernanceService.viewerFor. */
  viewerFor(caller: { kind: 'human' | 'agent'; agent_id: string | null; verified?: boolean }, taskId: string | null = null): Viewer {
    return this.services.governance.viewerFor(caller, taskId);
  }

  /** GovernanceService.readersMaySee. */
  readersMaySee(reader: LiveNote, target: LiveNote): boolean {
    return this.services.governance.readersMaySee(reader, target);
  }

  /** Cosine between `text` and each note's mean vector in the primary space (notes without one are left out). */
  textSimilarity(ids: readonly string[], text: string): Promise<Map<string, number>> {
    return this.services.search.textSimilarity(ids, text);
  }

  /** One decay run (learning/decay.ts); a failure is logged, never thrown at the host. */
  private decayNow(): Promise<void> {
    return runDecay(this, this.deps.clock.now()).then(
      () => undefined,
      (err: unknown) => this.deps.logger.warn('decay failed', { error: String(err) }),
    );
  }

  /** How often decay runs while open (the plugin's settings); a pending run is re-armed to `ms` from now. */
  setDecayInterval(ms: number): void {
    if (!Number.isFinite(ms) || ms <= 0) throw new LithosError('invalid_argument', `The decay interval must be a positive number of milliseconds (got ${ms}).`, { interval_ms: ms });
    if (!this.state.closed) this.decay.reschedule(ms);
  }

  /** The receipt log: every recorded retrieval, queryable by time, agent, task and node. */
  get receipts(): ReceiptLog {
    return this.services.retrieval.receipts;
  }

  /** Terrace 2's interpretive pass (the bridge sets an MCP-sampling interpreter); null switches it off. */
  setInterpreter(interpreter: Interpreter | null): void {
    this.services.retrieval.setInterpreter(interpreter);
  }

  /** A live note by node id, vault path, title or alias (the resolver's rules). */
  note(ref: string): LiveNote | null {
    return this.services.notes.note(ref);
  }

  /** The live note at a vault path: exactly, in another Unicode form, or in another case where the disk ignores case. */
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

  /** Embeds every note into `space` now and keeps it active (vectors from all active spaces are merged). */
  addSpace(space: Embedder, onProgress?: (done: number, total: number) => void): Promise<number> {
    return this.services.search.addSpace(space, onProgress);
  }

  /**
   * Stops using a space that addSpace (or the open) made active: searches, retrieval and indexing leave it
   * out from now on. Its cached vectors stay, so adding it again embeds only what changed meanwhile. The
   * primary (first) space cannot be removed. Returns whether the space was active.
   */
  removeSpace(spaceId: string): boolean {
    return this.services.search.removeSpace(spaceId);
  }

  activeSpaces(): string[] {
    return this.services.search.activeSpaces();
  }

  stats(): Record<string, unknown> {
    return engineStats(this.notes(), {
      embedding_spaces: this.cache.spaces(),
      stores: this.memory.counts(),
      pending_events: this.sync.pendingCount(),
      indexed_since_open: this.indexer.indexedCount,
    });
  }

  async doctor(): Promise<DoctorReport> {
    const earlier = [
      ...setAsideWarnings(await this.deps.blobs.list(), this.warnings),
      ...pastLossWarnings(await this.audit.recent({ action: 'store.damaged', limit: 100 }), this.losses, this.deps.clock.now()),
    ];
    return doctorReport(this.notes(), { warnings: [...this.warnings, ...earlier], errors: [...this.sync.lastErrors], broken_links: this.graph.broken() });
  }

  /** Reads and parses a note's current bytes (for tools that need the raw frontmatter, e.g. migrations). */
  parse(path: string): Promise<ParsedNote> {
    return this.services.notes.parse(path);
  }

  /**
   * The engine's own frontmatter write (migrations, later lithos_write): goes through the host's
   * processFrontMatter and is re-indexed at once, so the file event that follows finds nothing to do.
   */
  updateFrontmatter(path: string, fn: (fm: Record<string, unknown>) => void): Promise<void> {
    return this.services.notes.updateFrontmatter(path, fn);
  }

  /** Creates or updates a note through the vault port, re-indexed at once and audited (vault/audited-writes.ts). */
  writeNote(req: WriteNoteRequest, audit?: AuditActor): Promise<WriteNoteResult> {
    return this.services.notes.writeNote(req, audit);
  }

  /** Conflict objects, rule detection and managed callouts (conflicts/conflicts.ts). */
  get conflicts(): ConflictService {
    return this.services.conflicts;
  }

  /** ConflictService.followPolicy. */
  followPolicy(): Promise<void> {
    return this.services.conflicts.followPolicy();
  }

  /**
   * The engine's own edit of a note's text (managed callouts; vault/text-edit.ts): every byte outside the
   * edit kept, re-indexed at once, audited as a note write by `audit`; the note's version changes.
   */
  editNoteText(path: string, edit: (text: string) => string, audit: AuditActor): Promise<boolean> {
    return this.services.notes.editNoteText(path, edit, audit);
  }

  /** Deletes a note (into `.trash/` when `trash`), re-indexed at once; its edges and stats are tombstoned. */
  deleteNote(path: string, opts: { expectedVersion?: string; trash?: boolean; actor?: string | null } = {}): Promise<DeleteNoteResult> {
    return this.services.notes.deleteNote(path, opts);
  }

  /** Nearest notes to a note's own mean chunk vector in each active space, the note itself left out. */
  similar(id: string, opts: { k?: number; allow?: (id: string) => boolean } = {}): Promise<EngineSearchHit[]> {
    return this.services.search.similar(id, opts);
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
    await this.decay.stop();
    await this.consolidatorInst?.stop();
    await this.flush();
    this.state.closed = true;
    await this.memory.close();
    await this.cache.close();
    await this.coordination.close();
  }

  private assertOpen(): void {
    this.state.assertOpen();
  }
}
