/**
 * What a memory session reaches in the engine. The session is the only thing front doors hold; it applies the
 * viewer's scope over these members. The composition (engine.ts) satisfies this interface and hands itself
 * over when it opens a session; nothing else in shared/ sees the unscoped engine.
 */
import type { AgentKeys } from '../governance/agent-keys';
import type { AuditLog } from '../governance/audit';
import type { Viewer } from '../governance/gate';
import type { PolicyStore } from '../governance/policy';
import type { ProposalStore } from '../governance/proposals';
import type { CoordinationStore } from '../coordination/coordination-store';
import type { ConflictService } from '../conflicts/conflicts';
import type { Consolidator } from '../learning/consolidator';
import type { EngineSearchHit, SearchOptions } from '../index/note-queries';
import type { ParsedNote } from '../model/types';
import type { Logger } from '../ports';
import type { ReceiptLog } from '../retrieval/receipts';
import type { QueryContext, RetrievalResult, RetrieveOptions } from '../retrieval/types';
import type { MemoryStore } from '../stores/memory-store';
import type { LiveNote } from '../vault/note-indexer';
import type { ResolvedLink } from '../vault/link-graph';
import type { DeleteNoteResult, WriteNoteRequest, WriteNoteResult } from '../model/note-write';
import type { AuditActor } from '../governance/audit';
import type { LearningStore } from '../learning/learning-store';
import type { Services } from './services';

export interface SessionEngine {
  /** The engine's services (services.ts); the session's rooms move onto these. */
  readonly services: Services;
  readonly audit: AuditLog;
  readonly policy: PolicyStore;
  readonly agentKeys: AgentKeys;
  readonly learning: LearningStore;
  readonly proposals: ProposalStore;
  readonly memory: MemoryStore;
  readonly coordination: CoordinationStore;
  readonly conflicts: ConflictService;
  readonly consolidator: Consolidator;
  readonly receipts: ReceiptLog;
  readonly logger: Logger;
  now(): number;
  viewerFor(caller: { kind: 'human' | 'agent'; agent_id: string | null; verified?: boolean }, taskId?: string | null): Viewer;
  note(ref: string): LiveNote | null;
  noteAtPath(path: string): LiveNote | null;
  notes(): LiveNote[];
  links(path: string): ResolvedLink[];
  backlinks(path: string): string[];
  parse(path: string): Promise<ParsedNote>;
  search(query: string, opts?: SearchOptions): Promise<EngineSearchHit[]>;
  similar(id: string, opts?: { k?: number; allow?: (id: string) => boolean }): Promise<EngineSearchHit[]>;
  /** Learning's own reach (learning/feedback.ts FeedbackEngine): output support and quarantine's status write. */
  textSimilarity(ids: readonly string[], text: string): Promise<Map<string, number>>;
  updateFrontmatter(path: string, fn: (fm: Record<string, unknown>) => void): Promise<void>;
  retrieve(ctx: QueryContext, opts?: RetrieveOptions): Promise<RetrievalResult>;
  writeNote(req: WriteNoteRequest, audit?: AuditActor): Promise<WriteNoteResult>;
  deleteNote(path: string, opts?: { expectedVersion?: string; trash?: boolean; actor?: string | null }): Promise<DeleteNoteResult>;
  stats(): Record<string, unknown>;
  activeSpaces(): string[];
  updateFrontmatter(path: string, fn: (fm: Record<string, unknown>) => void): Promise<void>;
}
