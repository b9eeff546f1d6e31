import { openConfigStores, openDevices, reportLosses } from './engine-config';
import { withDefaults, type EngineDeps, type ResolvedDeps } from './engine-deps';
import { buildServices } from './engine-services';
import type { Services } from './session/services';
import { openSession, type MemorySession } from './session/memory-session';
import type { SessionCaller } from './session/caller';
import type { VaultEvent } from './ports';
import { LithosError } from './errors';
import type { MemoryStore } from './stores/memory-store';
import type { CacheStore } from './stores/cache-store';
import type { StoreLoss } from './stores/store-loss';
import { HashingEmbedder } from './index/embedders/hashing-embedder';
import { EmbeddingSpaces } from './index/embedding-spaces';
import type { CoordinationStore } from './coordination/coordination-store';
import { doctorReport, engineStats, pastLossWarnings, setAsideWarnings, type DoctorReport } from './vault/engine-report';
import { openMemory } from './vault/open-memory';
import type { NoteIndexer } from './vault/note-indexer';
import type { VaultSync, IndexReport } from './vault/sync';
import type { LinkGraph } from './vault/link-graph';
import type { LedgerAssigner } from './vault/ledger-assign';
import type { BriefingNote } from './session/briefing-note';
import type { TimelineNote } from './session/timeline-note';
import type { GraveyardWatch } from './session/graveyard-watch';
import { bodyOffsetReader, ledgerIdProblems } from './vault/ledger-report';

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
  assigner: LedgerAssigner;
  briefing: BriefingNote;
  timeline: TimelineNote;
  graves: GraveyardWatch;
  services: Services;
  /** Cached notes without vectors in the primary space (openMemory's missingPrimary). */
  backfill: string[];
  warnings: string[];
}

/**
 * The memory engine: one vault, its stores, its index. Host-free; the plugin and the bridge compose it
 * with their own ports. It owns the lifecycle (open, reconcile, watch, flush, close) and the reports about
 * itself (stats, doctor); the work is the services' (`services`, session/services.ts). Front doors hold a
 * session (`as`), composition roots and internal jobs the services; test/engine/facade.test.ts keeps this
 * class at 15 public members or fewer.
 */
export class MemoryEngine {
  readonly warnings: string[];
  /** Learned data found lost at open (each also in `warnings`, and audited as `store.damaged`). */
  readonly losses: StoreLoss[] = [];
  /** The services the engine is made of (session/services.ts): what composition roots and internal jobs use. */
  readonly services: Services;
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
  /** Ledger IDs for ledger notes written outside the engine (vault/ledger-assign.ts). */
  private readonly assigner: LedgerAssigner;
  /** The person's briefing note (session/briefing-note.ts), where the host keeps one. */
  private readonly briefing: BriefingNote;
  /** The person's timeline note (session/timeline-note.ts), kept alike. */
  private readonly timeline: TimelineNote;
  /** States changed by hand: the graveyard's move once the note is quiet (session/graveyard-watch.ts). */
  private readonly graves: GraveyardWatch;
  // The stores the engine flushes and closes; the services reach them through their own ports.
  private readonly memory: MemoryStore;
  private readonly cache: CacheStore;
  private readonly coordination: CoordinationStore;

  private constructor(p: EngineParts) {
    this.deps = p.deps;
    this.state = p.state;
    this.memory = p.memory;
    this.cache = p.cache;
    this.coordination = p.coordination;
    this.indexer = p.indexer;
    this.sync = p.sync;
    this.graph = p.graph;
    this.assigner = p.assigner;
    this.briefing = p.briefing;
    this.timeline = p.timeline;
    this.graves = p.graves;
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
    const devices = await openDevices(d, m, config);
    const { services, sync, graph, assigner, briefing, timeline, graves } = buildServices({ d, m, config, spaces, devices, guard: state.assertOpen });
    const { memory, cache, coordination, indexer, missingPrimary: backfill } = m;
    const engine = new MemoryEngine({ deps: d, state, memory, cache, coordination, indexer, sync, graph, assigner, briefing, timeline, graves, services, backfill, warnings });
    const { governance, retrieval } = services;
    await reportLosses(d, { audit: governance.audit, learned: memory.learned, receipts: retrieval.receipts, proposals: governance.proposals }, m.losses, warnings, engine.losses);
    await services.learning.start();
    retrieval.prepare();
    devices.schedule(0); // take in what other devices learned while this one was away, without delaying the open
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
    await this.assigner.assignMissing();
    this.briefing.schedule();
    this.timeline.schedule();
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
  async settle(): Promise<void> {
    await this.sync.settle();
    await this.assigner.settle();
    await this.graves.settle();
    await this.briefing.settle();
    await this.timeline.settle();
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
    const notes = this.services.notes;
    const ledger_ids = await ledgerIdProblems({ notes: notes.notes(), links: (p) => this.graph.outgoing(p), byLedgerId: (r) => notes.byLedgerId(r), bodyOffset: bodyOffsetReader(this.deps.vault) });
    return doctorReport(notes.notes(), { warnings: [...this.warnings, ...earlier], errors: [...this.sync.lastErrors], broken_links: this.graph.broken(), ledger_ids });
  }

  async flush(): Promise<void> {
    await this.sync.settle();
    await this.services.conflicts.drain();
    await this.services.learning.events.flush(); // tool calls waiting for their batched write
    await this.memory.flush();
    await this.cache.flush();
    await this.coordination.flush();
  }

  async close(): Promise<void> {
    if (this.state.closed) return;
    this.stopWatching();
    this.assigner.stop();
    await this.assigner.settle();
    await this.graves.settle(); // a state changed by hand moves before the stores close
    this.graves.stop();
    await this.briefing.settle(); // a pending regeneration is written before the stores close
    this.briefing.stop();
    await this.timeline.settle();
    this.timeline.stop();
    this.services.conflicts.stopFollowingPolicy();

    await this.services.conflicts.idle(); // a callout sync under way finishes before the stores close
    await this.services.learning.stop();
    await this.services.devices.close(); // what this device learned goes out before it stops
    await this.flush();
    await this.services.governance.close(); // events of the last changes go out; no retry outlives the engine
    this.state.closed = true;
    await this.memory.close();
    await this.cache.close();
    await this.coordination.close();
  }

  private assertOpen(): void {
    this.state.assertOpen();
  }
}
