import type { DeviceSync } from './replica/device-sync';
/**
 * The services MemoryEngine.open builds over the opened stores, in one step and each with only the ports
 * it uses (session/services.ts names them). The order follows what each is given, not the layers: the
 * notes need the audit log; proposals write through the notes; learning's quarantine writes the conflicts'
 * callouts; retrieval hands each recorded retrieval to learning.
 */
import type { ConfigStores } from './engine-config';
import { pendingProposalIds } from './engine-config';
import type { ResolvedDeps } from './engine-deps';
import type { EmbeddingSpaces } from './index/embedding-spaces';
import { GovernanceService } from './governance/governance-service';
import { ProposalStore } from './governance/proposals';
import { LearningService } from './learning/learning-service';
import { ReceiptLog } from './retrieval/receipts';
import { RetrievalService } from './retrieval/retrieval-service';
import { ConflictService } from './conflicts/conflicts';
import type { Services } from './session/services';
import type { LinkGraph } from './vault/link-graph';
import { NotesService } from './vault/notes-service';
import { NoteEditors } from './vault/note-editors';
import { stripManagedBlocks } from './conflicts/callout-blocks';
import { parseNote } from './model/note';
import type { OpenedMemory } from './vault/open-memory';
import { SearchService } from './vault/search-service';
import { VaultSync } from './vault/sync';
import { LedgerIds } from './vault/ledger-ids';
import { LedgerAssigner } from './vault/ledger-assign';
import { briefingNote, type BriefingNote } from './session/briefing-note';
import { timelineNote, type TimelineNote } from './session/timeline-note';
import { GraveyardWatch } from './session/graveyard-watch';

export interface ServiceSources {
  d: ResolvedDeps;
  m: OpenedMemory;
  config: ConfigStores;
  spaces: EmbeddingSpaces;
  devices: DeviceSync;
  /** Throws once the engine is closed. */
  guard: () => void;
}

/** The services, and the sync and link graph the engine itself keeps (reconcile, events, doctor). */
export function buildServices(s: ServiceSources): { services: Services; sync: VaultSync; graph: LinkGraph; assigner: LedgerAssigner; briefing: BriefingNote; timeline: TimelineNote; graves: GraveyardWatch } {
  const { d, m, config, spaces, guard } = s;
  const { memory, coordination, indexer } = m;
  const { clock, timers, logger, blobs } = d;
  const { audit, policy } = config;
  // Built after sync (callouts are written through the notes, which sync re-reads): sync's hooks find it then.
  let conflicts: ConflictService | null = null;
  let learned: LearningService | null = null;
  let assigner: LedgerAssigner | null = null;
  let briefing: BriefingNote | null = null;
  let timeline: TimelineNote | null = null;
  let graves: GraveyardWatch | null = null;
  const editors = new NoteEditors({
    store: memory.editors,
    clock,
    audit,
    isAgent: (name) => coordination.agent(name) !== null || config.agentKeys.list().some((k) => k.agent_id === name),
    ownText: stripManagedBlocks,
    idOf: (p) => indexer.byPath.get(p)?.nodeId,
    read: async (p) => ((await d.vault.stat(p)) ? parseNote(p, await d.vault.readBytes(p)) : null),
  });
  const sync = new VaultSync({
    vault: d.vault,
    memory,
    indexer,
    identity: m.identity,
    clock,
    timers,
    logger,
    debounceMs: d.debounceMs,
    onProgress: d.onProgress,
    // Rule detection follows notes changed after open, never the reconcile's bulk work.
    onChanged: (p, external, before) => {
      conflicts?.noteChanged(p);
      learned?.noteChanged(p); // a ledger entry's phase (learning/ledger-phases.ts)
      if (external) learned?.externalEdit(p); // an episodic event (learning/external-edits.ts)
      if (external) graves?.noteChanged(p, before); // a state changed by hand: the graveyard's move, once quiet
      assigner?.noteChanged(p);
      briefing?.noteChanged(p); // the person's briefing note, debounced
      timeline?.noteChanged(p); // and the timeline note
    },
    onRemoved: (id) => conflicts?.noteRemoved(id),
    onIndexed: (id, parsed) => editors.seen(id, parsed),
  });
  const graph = m.graph;
  const ledger = new LedgerIds({ blobs, device: d.device, clock, logger, audit, marks: memory.learned, live: indexer, shared: s.devices.files });
  const notes = new NotesService({ vault: d.vault, clock, audit, live: indexer, resolver: m.resolver, graph, syncPath: (p) => sync.syncPath(p), guard, ledger, editors });
  assigner = new LedgerAssigner({ live: indexer, ledger, updateFrontmatter: (p, fn) => notes.updateFrontmatter(p, fn), timers, logger, enabled: d.assignLedgerIds });
  const search = new SearchService({ index: m.index, indexer, spaces, cache: m.cache, guard });
  const proposals = new ProposalStore({ blobs, clock, audit, write: (req) => notes.writeNote(req), delete: (path, o) => notes.deleteNote(path, { ...o, trash: true }), pending: pendingProposalIds(memory.learned) });
  const governance = new GovernanceService({ audit, policy, agentKeys: config.agentKeys, proposals, tasks: coordination, post: d.post, clock, timers, logger });
  const conflictService = new ConflictService({ notes, search, memory, audit, policy, governance, tunables: config.learning, clock, timers, logger, callouts: d.callouts ?? true, guard });
  conflicts = conflictService;
  const receipts = new ReceiptLog(blobs, clock, { logger });
  const learning = new LearningService({ notes, search, receipts, memory, tunables: config.learning, audit, policy, governance, coordination, clock, blobs, logger, timers, callouts: conflictService });
  learned = learning;
  const corpus = { byId: indexer.byId, byPath: indexer.byPath, index: m.index, graph, words: indexer.words, memory, embedders: () => search.embedders(), version: () => indexer.version };
  const retrieval = new RetrievalService({ corpus, receipts, memory, clock, governance, recorded: (r) => learning.retrievalRecorded(r), guard });
  const services: Services = { notes, search, retrieval, learning, conflicts: conflictService, governance, coordination, devices: s.devices, clock };
  briefing = briefingNote({ services, path: () => config.learning.get().briefing.path, timers, logger, enabled: d.briefingNote && d.assignLedgerIds });
  timeline = timelineNote({ services, path: () => config.learning.get().timeline.path, timers, logger, enabled: d.briefingNote && d.assignLedgerIds });
  graves = new GraveyardWatch({ services, timers, logger, enabled: d.assignLedgerIds });
  return { services, sync, graph, assigner, briefing, timeline, graves };
}
