import type { AgentKeys } from './governance/agent-keys';
import { openConfigStores, pendingProposalIds, reportLosses } from './engine-config';
import type { BlobStore, Embedder, Logger, VaultEvent } from './ports';
import type { MemoryStore } from './stores/memory-store';
import type { CacheStore } from './stores/cache-store';
import type { CoordinationStore } from './coordination/coordination-store';
import type { SearchIndex } from './index/search-index';
import { NoteQueries, type EngineSearchHit, type SearchOptions } from './index/note-queries';
import { HashingEmbedder } from './index/embedders/hashing-embedder';
import { EmbeddingSpaces } from './index/embedding-spaces';
import { liveNoteAtPath, lookupNote } from './vault/note-lookup';
import { doctorReport, engineStats, pastLossWarnings, setAsideWarnings, type DoctorReport } from './vault/engine-report';
import type { StoreLoss } from './stores/store-loss';
import type { LinkResolver } from './model/resolve';
import type { ParsedNote } from './model/types';
import { parseNote } from './model/note';
import { LithosError } from './errors';
import { openMemory } from './vault/open-memory';
import type { NoteIndexer, LiveNote } from './vault/note-indexer';
import { VaultSync, type IndexReport } from './vault/sync';
import type { LinkGraph, ResolvedLink } from './vault/link-graph';
import { normalizeVaultPath } from './vault/paths';
import type { DeleteNoteResult, WriteNoteRequest, WriteNoteResult } from './vault/note-writer';
import { AuditedWrites } from './vault/audited-writes';
import { PathLocks } from './vault/path-locks';
import { EngineCorpus } from './retrieval/engine-corpus';
import { retrieve as runRetrieve } from './retrieval/retrieve';
import { ALL_SCOUTS } from './retrieval/scouts';
import type { Interpreter } from './retrieval/terrace2';
import { ReceiptLog } from './retrieval/receipts';
import type { QueryContext, RetrievalResult, RetrieveOptions } from './retrieval/types';
import { newId } from './model/ids';
import { type AuditLog, type AuditActor } from './governance/audit';
import { runDecay } from './learning/decay';
import { Periodic } from './learning/periodic';
import { RetrievalRecorder } from './learning/retrieval-recorder';
import { DECAY } from './learning/constants';
import type { PolicyStore } from './governance/policy';
import type { LearningStore } from './learning/learning-store';
import { ProposalStore } from './governance/proposals';
import { resolveViewer } from './governance/viewer';
import { gatedNote, type Viewer } from './governance/gate';
import { readersMaySee } from './governance/audience';
import { Consolidator } from './learning/consolidator';
import { ConflictService } from './conflicts/conflicts';
import { withDefaults, type EngineDeps, type ResolvedDeps } from './engine-deps';

export type { IndexReport } from './vault/sync';
export type { EngineDeps } from './engine-deps';
export type { EngineSearchHit } from './index/note-queries';
export type { DoctorReport } from './vault/engine-report';
export { TOMBSTONE_TTL_MS } from './vault/open-memory';

/**
 * The memory engine: one vault, its stores, its index. Host-free; the plugin and the bridge compose it
 * with their own ports.
 */
export class MemoryEngine {
  readonly warnings: string[];
  /** Learned data found lost at open (each also in `warnings`, and audited as `store.damaged`). */
  readonly losses: StoreLoss[] = [];
  private unwatch: (() => void) | null = null;
  /**
   * Cached notes without vectors in the primary (first) space, e.g. after the default embedder's version
   * changed: embedded from the cached chunks at the next reconcile. Other spaces fill lazily or by addSpace.
   */
  private backfill: string[] = [];
  private closed = false;
  private corpus: EngineCorpus | null = null;
  private interpreter: Interpreter | null = null;
  /** `.lithos/receipts.jsonl`: one line per retrieval (retrieval/receipts.ts). */
  private receiptLog: ReceiptLog | null = null;
  /** `.lithos/audit.jsonl`: the hash-chained trail of writes and learning actions (governance/audit.ts). */
  readonly audit!: AuditLog;
  /** Decay at open, then every DECAY.interval_ms (learning/decay.ts). */
  private readonly decay: Periodic;
  /** `.lithos/policy.json`: allowlists, shared patterns, proposal namespaces (governance/policy.ts). */
  readonly policy!: PolicyStore;
  /** `.lithos/agent-keys.json`: per-agent keys a bridge presents to act as its agent (governance/agent-keys.ts). */
  readonly agentKeys!: AgentKeys;
  /** `.lithos/learning.json`: overrides of the learning constants, read by feedback and decay (learning/learning-store.ts). */
  readonly learning!: LearningStore;
  /** `.lithos/proposals/`: agent writes waiting for a person (governance/proposals.ts). */
  readonly proposals!: ProposalStore;
  /** Concept retrievals in the last 24 h (repeated-retrieval penalty); seeded from receipts before the first retrieval. */
  private readonly recorder: RetrievalRecorder;
  /** search, similar, noteVector, textSimilarity (index/note-queries.ts). */
  private readonly queries: NoteQueries;
  private readonly writes: AuditedWrites;
  private consolidatorInst: Consolidator | null = null;
  private conflictService: ConflictService | null = null;
  private stopPolicyWatch: () => void = () => undefined;

  private constructor(
    private readonly deps: ResolvedDeps,
    private readonly spaces: EmbeddingSpaces,
    readonly memory: MemoryStore,
    readonly cache: CacheStore,
    /** Agents, tasks, aspect claims, findings (coordination.sqlite). */
    readonly coordination: CoordinationStore,
    private readonly index: SearchIndex,
    private readonly indexer: NoteIndexer,
    private readonly sync: VaultSync,
    private readonly graph: LinkGraph,
    private readonly resolver: LinkResolver,
    warnings: string[],
  ) {
    this.warnings = warnings;
    this.queries = new NoteQueries(index, indexer.byId, () => spaces.list());
    const resync = async (p: string) => {
      await sync.syncPath(p);
      return indexer.byPath.get(p) ?? null;
    };
    const liveId = (p: string): string | undefined => indexer.byPath.get(p)?.nodeId;
    this.writes = new AuditedWrites({ vault: deps.vault, clock: deps.clock, resync, liveId }, () => this.audit, liveId, new PathLocks(deps.vault.caseInsensitive === true));
    this.decay = new Periodic(deps.timers, () => this.decayNow(), DECAY.interval_ms);
    this.recorder = new RetrievalRecorder(this, (id) => indexer.byId.get(id)?.cached.meta.note_type, (r) => this.consolidatorInst?.noteRetrieval(r));
  }

  static async open(deps: EngineDeps): Promise<MemoryEngine> {
    const d = withDefaults(deps);
    const spaces = new EmbeddingSpaces(deps.embedders?.length ? deps.embedders : [new HashingEmbedder()]);
    const m = await openMemory(d, spaces);
    const { indexer, warnings } = m;
    let opened: MemoryEngine | null = null;
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
      onChanged: (p) => opened?.conflicts.noteChanged(p),
      onRemoved: (id) => opened?.conflicts.noteRemoved(id),
    });
    const engine = new MemoryEngine(d, spaces, m.memory, m.cache, m.coordination, m.index, indexer, sync, m.graph, m.resolver, warnings);
    engine.backfill = m.missingPrimary;
    opened = engine;
    const { audit, policy, agentKeys, learning } = await openConfigStores(d, warnings);
    const pending = pendingProposalIds(m.memory.learned);
    const proposals = new ProposalStore({ blobs: d.blobs, clock: d.clock, audit, write: (req) => engine.writeNote(req), pending });
    Object.assign(engine as { audit: AuditLog; policy: PolicyStore; agentKeys: AgentKeys; learning: LearningStore; proposals: ProposalStore }, { audit, policy, agentKeys, learning, proposals });
    await reportLosses(d, { audit, learned: m.memory.learned, receipts: engine.receipts, proposals }, m.losses, warnings, engine.losses);
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
      await this.indexer.embedAll(this.spaces.primary(), undefined, paths);
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
    if (!this.closed) this.sync.handleEvent(e);
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
    this.assertOpen();
    return this.queries.search(query, opts);
  }

  /**
   * Parallel Terraced Scan (retrieval/retrieve.ts). Read-only for learning: it bumps retrieval_count and
   * last_retrieved_at of the final nodes and writes a receipt, nothing else.
   */
  async retrieve(ctx: QueryContext, opts: RetrieveOptions = {}): Promise<RetrievalResult> {
    this.assertOpen();
    this.corpus ??= new EngineCorpus({
      byId: this.indexer.byId,
      byPath: this.indexer.byPath,
      index: this.index,
      graph: this.graph,
      words: this.indexer.words,
      memory: this.memory,
      embedders: () => this.spaces.list(),
      version: () => this.indexer.version,
      recentRetrievals: (id, now) => this.recorder.count(id, now),
    });
    await this.recorder.ready(this.indexer.byId.keys());
    // Bad values are refused by resolveQuery inside; here they only must not widen the viewer.
    const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
    const viewer = opts.viewer ?? this.viewerFor({ kind: 'agent', agent_id: text(ctx?.agent_id) }, text(ctx?.task_id));
    return runRetrieve(ctx, { ...opts, viewer }, {
      corpus: this.corpus,
      scouts: ALL_SCOUTS,
      clock: this.deps.clock,
      elapsed: typeof performance !== 'undefined' ? () => performance.now() : undefined,
      interpreter: opts.interpreter ?? this.interpreter,
      newId,
      record: (receipt) => this.recorder.record(receipt),
    });
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
    return this.queries.noteVector(id);
  }

  /**
   * The viewer the scope gate judges for a caller: the person as is; an agent with its policy allowlist,
   * the shared patterns and the tasks it is on (governance/viewer.ts).
   */
  viewerFor(caller: { kind: 'human' | 'agent'; agent_id: string | null; verified?: boolean }, taskId: string | null = null): Viewer {
    return resolveViewer(caller, taskId, { policy: this.policy.get(), tasksOf: (id) => this.coordination.tasksOf(id) });
  }

  /**
   * Whether text the engine writes into `reader` (a callout, a concept's member list, a summary) may name or
   * quote `target`: every agent that may read `reader` may read `target` too (governance/audience.ts).
   */
  readersMaySee(reader: LiveNote, target: LiveNote): boolean {
    const ctx = { policy: this.policy.get(), viewerOf: (id: string) => this.viewerFor({ kind: 'agent', agent_id: id }) };
    return readersMaySee(ctx, gatedNote(reader), gatedNote(target));
  }

  /** Cosine between `text` and each note's mean vector in the primary space (notes without one are left out). */
  textSimilarity(ids: readonly string[], text: string): Promise<Map<string, number>> {
    this.assertOpen();
    return this.queries.textSimilarity(ids, text);
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
    if (!this.closed) this.decay.reschedule(ms);
  }

  /** The receipt log: every recorded retrieval, queryable by time, agent, task and node. */
  get receipts(): ReceiptLog {
    return (this.receiptLog ??= new ReceiptLog(this.deps.blobs, this.deps.clock, { logger: this.deps.logger }));
  }

  /** Terrace 2's interpretive pass (the bridge sets an MCP-sampling interpreter); null switches it off. */
  setInterpreter(interpreter: Interpreter | null): void {
    this.interpreter = interpreter;
  }

  /** A live note by node id, vault path, title or alias (the resolver's rules). */
  note(ref: string): LiveNote | null {
    return lookupNote(this.indexer, this.resolver, ref);
  }

  /** The live note at a vault path: exactly, in another Unicode form, or in another case where the disk ignores case. */
  noteAtPath(path: string): LiveNote | null {
    return liveNoteAtPath(this.indexer, this.resolver, path, this.deps.vault.caseInsensitive === true);
  }

  notes(): LiveNote[] {
    return [...this.indexer.byPath.values()];
  }

  links(path: string): ResolvedLink[] {
    return this.graph.outgoing(path);
  }

  backlinks(path: string): string[] {
    return this.graph.incoming(path);
  }

  /** Embeds every note into `space` now and keeps it active (vectors from all active spaces are merged). */
  async addSpace(space: Embedder, onProgress?: (done: number, total: number) => void): Promise<number> {
    this.assertOpen();
    this.spaces.add(space);
    this.cache.registerSpace(space.spaceId, space.dimensions);
    return this.indexer.embedAll(space, onProgress);
  }

  /**
   * Stops using a space that addSpace (or the open) made active: searches, retrieval and indexing leave it
   * out from now on. Its cached vectors stay, so adding it again embeds only what changed meanwhile. The
   * primary (first) space cannot be removed. Returns whether the space was active.
   */
  removeSpace(spaceId: string): boolean {
    return this.spaces.remove(spaceId);
  }

  activeSpaces(): string[] {
    return this.spaces.ids();
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
  async parse(path: string): Promise<ParsedNote> {
    this.assertOpen();
    const p = normalizeVaultPath(path);
    return parseNote(p, await this.deps.vault.readBytes(p));
  }

  /**
   * The engine's own frontmatter write (migrations, later lithos_write): goes through the host's
   * processFrontMatter and is re-indexed at once, so the file event that follows finds nothing to do.
   */
  async updateFrontmatter(path: string, fn: (fm: Record<string, unknown>) => void): Promise<void> {
    this.assertOpen();
    const p = normalizeVaultPath(path);
    await this.writes.exclusive(p, async () => {
      await this.deps.vault.processFrontMatter(p, fn);
      await this.sync.syncPath(p);
    });
  }

  /** Creates or updates a note through the vault port, re-indexed at once and audited (vault/audited-writes.ts). */
  writeNote(req: WriteNoteRequest, audit?: AuditActor): Promise<WriteNoteResult> {
    this.assertOpen();
    return this.writes.write(req, audit);
  }

  /** Conflict objects, rule detection and managed callouts (conflicts/conflicts.ts). */
  get conflicts(): ConflictService {
    return (this.conflictService ??= new ConflictService(this, { clock: this.deps.clock, timers: this.deps.timers, logger: this.deps.logger, callouts: this.deps.callouts ?? true }));
  }

  /**
   * For hosts that keep the vault open and write it (the plugin, headless `lithos mcp`): callouts name other
   * notes only where the policy lets every reader see them, so they are brought in line now if the policy
   * changed since they were last synced (a `lithos policy` run, a hand edit while closed), and whenever it
   * changes from here on (settings, a hand edit picked up while open).
   */
  async followPolicy(): Promise<void> {
    this.assertOpen();
    this.stopPolicyWatch();
    this.stopPolicyWatch = this.policy.onChange(() => void (this.closed ? undefined : this.conflicts.policyChanged()));
    await this.conflicts.policyChanged();
  }

  /**
   * The engine's own edit of a note's text (managed callouts; vault/text-edit.ts): every byte outside the
   * edit kept, re-indexed at once, audited as a note write by `audit`; the note's version changes.
   */
  editNoteText(path: string, edit: (text: string) => string, audit: AuditActor): Promise<boolean> {
    this.assertOpen();
    return this.writes.editText(path, edit, audit);
  }

  /** Deletes a note (into `.trash/` when `trash`), re-indexed at once; its edges and stats are tombstoned. */
  deleteNote(path: string, opts: { expectedVersion?: string; trash?: boolean; actor?: string | null } = {}): Promise<DeleteNoteResult> {
    this.assertOpen();
    return this.writes.delete(path, opts);
  }

  /** Nearest notes to a note's own mean chunk vector in each active space, the note itself left out. */
  similar(id: string, opts: { k?: number; allow?: (id: string) => boolean } = {}): Promise<EngineSearchHit[]> {
    this.assertOpen();
    return this.queries.similar(id, opts);
  }

  async flush(): Promise<void> {
    await this.sync.settle();
    await this.conflictService?.drain();
    await this.memory.flush();
    await this.cache.flush();
    await this.coordination.flush();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.stopWatching();
    this.stopPolicyWatch();
    await this.conflictService?.idle(); // a callout sync under way finishes before the stores close
    await this.decay.stop();
    await this.consolidatorInst?.stop();
    await this.flush();
    this.closed = true;
    await this.memory.close();
    await this.cache.close();
    await this.coordination.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new LithosError('unsupported', 'The memory engine is closed.');
  }
}
