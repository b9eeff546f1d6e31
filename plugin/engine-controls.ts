/**
 * What the plugin's settings, schedules, commands and embeddings switch do to the open engine: its
 * configuration (vault policy, agent keys, learning constants, schedules, callouts, embedding spaces) and
 * its own jobs (consolidation, the audit check). Never a note: notes are read and changed through the
 * person's memory session (panel-context.ts). The composition root (main.ts) hands the engine over as
 * this, so nothing else in plugin/ depends on the engine.
 */
import type { AgentKeys } from '../shared/governance/agent-keys';
import type { PolicyStore } from '../shared/governance/policy';
import type { ConflictService } from '../shared/conflicts/conflicts';
import type { Consolidator } from '../shared/learning/consolidator';
import type { LearningStore } from '../shared/learning/learning-store';
import type { BlobStore, Embedder } from '../shared/ports';
import type { LiveNote } from '../shared/vault/note-indexer';

export interface EngineControls {
  /** The vault policy (.lithos/policy.json): write policy, hidden folders, agents' tools; `set` is audited. */
  readonly policy: Pick<PolicyStore, 'get' | 'set'>;
  readonly agentKeys: Pick<AgentKeys, 'problem' | 'list' | 'issue' | 'revoke'>;
  /** The vault's learning constants (.lithos/learning.json); changes are audited. */
  readonly learning: Pick<LearningStore, 'problem' | 'overrides' | 'update' | 'reset'>;
  readonly consolidator: Pick<Consolidator, 'start' | 'reschedule' | 'run'>;
  readonly conflicts: Pick<ConflictService, 'setCallouts'>;
  /** Where the audit log lives ("Verify the audit log"). */
  readonly blobs: BlobStore;
  setDecayInterval(ms: number): void;
  activeSpaces(): string[];
  addSpace(space: Embedder, onProgress?: (done: number, total: number) => void): Promise<number>;
  removeSpace(spaceId: string): boolean;
  /** The indexed notes: how many a new space embeds (its progress). */
  notes(): readonly LiveNote[];
}
