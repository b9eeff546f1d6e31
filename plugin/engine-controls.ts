/**
 * What the plugin's settings, schedules, commands and embeddings switch do to the open engine: its
 * configuration (vault policy, agent keys, learning constants, schedules, callouts, embedding spaces) and
 * its own jobs (consolidation, the audit check). Never a note: notes are read and changed through the
 * person's memory session (panel-context.ts). The engine session (engine-session.ts) builds this from the
 * engine's services, so nothing else in plugin/ depends on the engine.
 */
import type { EventBus } from '../shared/governance/public-events';
import type { AgentKeys } from '../shared/governance/agent-keys';
import type { AuditLog } from '../shared/governance/audit';
import type { PolicyStore } from '../shared/governance/policy';
import type { ConflictService } from '../shared/conflicts/conflicts';
import type { Consolidator } from '../shared/learning/consolidator';
import type { LearningStore } from '../shared/learning/learning-store';
import type { Embedder } from '../shared/ports';
import type { DeviceSync } from '../shared/replica/device-sync';
import type { Services } from '../shared/session/services';
import type { LiveNote } from '../shared/vault/note-indexer';
import type { GitHistoryControl } from './obsidian-git-log';

export interface EngineControls {
  /** The vault policy (.lithos/policy.json): write policy, hidden folders, agents' tools; `set` is audited. */
  readonly policy: Pick<PolicyStore, 'get' | 'set'>;
  readonly agentKeys: Pick<AgentKeys, 'problem' | 'list' | 'issue' | 'revoke'>;
  /** The vault's learning constants (.lithos/learning.json); changes are audited. */
  readonly learning: Pick<LearningStore, 'problem' | 'get' | 'overrides' | 'update' | 'reset' | 'set'>;
  /** Git history as events (obsidian-git-log.ts); set by the engine session once the engine is open. */
  readonly git?: GitHistoryControl;
  readonly consolidator: Pick<Consolidator, 'start' | 'reschedule' | 'run'>;
  readonly conflicts: Pick<ConflictService, 'setCallouts'>;
  /** The exchange of learned state with this person's other devices (docs/devices.md): a round now, the list. */
  readonly devices: Pick<DeviceSync, 'sync' | 'report'>;
  /** The audit log ("Verify the audit log"). */
  readonly audit: Pick<AuditLog, 'verify'>;
  /** The public event stream other plugins receive through the plugin's `api` (public-api.ts). */
  readonly events: Pick<EventBus, 'on'>;
  setDecayInterval(ms: number): void;
  activeSpaces(): string[];
  addSpace(space: Embedder, onProgress?: (done: number, total: number) => void): Promise<number>;
  removeSpace(spaceId: string): boolean;
  /** The indexed notes: how many a new space embeds (its progress). */
  notes(): readonly LiveNote[];
}

/** The controls over an open engine's services. */
export function engineControls(s: Services): EngineControls {
  const { governance, learning, search } = s;
  return {
    policy: governance.policy,
    agentKeys: governance.agentKeys,
    learning: learning.tunables,
    consolidator: learning.consolidator,
    conflicts: s.conflicts,
    audit: governance.audit,
    devices: s.devices,
    events: governance.events,
    setDecayInterval: (ms) => learning.setDecayInterval(ms),
    activeSpaces: () => search.activeSpaces(),
    addSpace: (space, onProgress) => search.addSpace(space, onProgress),
    removeSpace: (spaceId) => search.removeSpace(spaceId),
    notes: () => s.notes.notes(),
  };
}
