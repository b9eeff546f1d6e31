import { DeviceSync } from './replica/device-sync';
import { Replicator, type SyncReport } from './replica/replicator';
import { NodeKeys } from './replica/codec';
import { CODECS } from './replica/codecs';
import { COORDINATION_CODECS } from './coordination/coordination-codecs';
import type { CoordinationStore } from './coordination/coordination-store';
import { DeviceIdentity } from './stores/device-identity';
import type { MemoryStore } from './stores/memory-store';
/**
 * The small files under `.lithos/` the engine opens beside its stores (MemoryEngine.open): the audit trail,
 * the policy, agent keys and learning overrides, each noting in `warnings` what it could not read, and the
 * pending-proposal ids kept in memory.sqlite (so a proposal file lost to damage is noticed).
 */
import type { ResolvedDeps } from './engine-deps';
import { AgentKeys } from './governance/agent-keys';
import { AuditLog } from './governance/audit';
import { PolicyStore } from './governance/policy';
import { LearningStore } from './learning/learning-store';
import type { MemoryLearned } from './stores/memory-learned';
import type { StoreLoss } from './stores/store-loss';
import type { ReceiptLog } from './retrieval/receipts';
import type { ProposalStore } from './governance/proposals';
import { RECEIPTS_SEQ_MARK } from './retrieval/retrieval-recorder';
import { recordLosses } from './vault/engine-report';

export interface ConfigStores {
  audit: AuditLog;
  policy: PolicyStore;
  agentKeys: AgentKeys;
  learning: LearningStore;
}

export async function openConfigStores(d: ResolvedDeps, warnings: string[]): Promise<ConfigStores> {
  const deps = { blobs: d.blobs, clock: d.clock, logger: d.logger };
  const audit = await AuditLog.open(deps);
  if (audit.damage) warnings.push(audit.damage.message);
  const policy = await PolicyStore.open({ ...deps, audit });
  const agentKeys = await AgentKeys.open({ ...deps, audit });
  const learning = await LearningStore.open({ ...deps, audit });
  for (const problem of [policy.problem, agentKeys.problem, learning.problem]) if (problem) warnings.push(problem);
  return { audit, policy, agentKeys, learning };
}

/** The learning mark that holds the pending proposals' ids. */
const PENDING_PROPOSALS_MARK = 'proposals:pending';

/** The ids of pending proposals, as ProposalStore keeps them in memory.sqlite's learning marks. */
export function pendingProposalIds(learned: MemoryLearned) {
  return {
    get: (): string[] => {
      const ids = learned.mark(PENDING_PROPOSALS_MARK);
      return Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : [];
    },
    set: (ids: string[]) => learned.setMark(PENDING_PROPOSALS_MARK, ids),
  };
}

/**
 * Learned data found lost at open — by the stores (`found`), the audit trail, and then the receipts and pending
 * proposals checked against what memory.sqlite remembers of them: each logged, warned, audited as
 * `store.damaged` and kept in `into` (vault/engine-report.ts).
 */
export async function reportLosses(
  d: ResolvedDeps,
  s: { audit: AuditLog; learned: MemoryLearned; receipts: ReceiptLog; proposals: ProposalStore },
  found: readonly StoreLoss[],
  warnings: string[],
  into: StoreLoss[],
): Promise<void> {
  const mark = s.learned.mark(RECEIPTS_SEQ_MARK);
  const later = [await s.receipts.check(typeof mark === 'number' ? mark : null), ...(await s.proposals.check())].filter((l) => l !== null);
  for (const l of later) {
    d.logger.warn(l.message);
    warnings.push(l.message);
  }
  await recordLosses(s.audit, [...found, ...(s.audit.damage ? [s.audit.damage] : []), ...later], into);
}

/**
 * The exchange of learned state with this person's other devices (shared/replica, docs/devices.md): on when
 * the host reaches a devices folder and learning.json names one. Merges and compactions are audited.
 */
export async function openDevices(d: ResolvedDeps, stores: { memory: MemoryStore; coordination: CoordinationStore }, config: ConfigStores): Promise<DeviceSync> {
  const { memory, coordination } = stores;
  const folder = config.learning.get().devices.folder;
  if (!d.syncFolder || folder === null) return new DeviceSync([], memory, folder, d.timers, d.logger);
  const identity = await DeviceIdentity.load(d.device, d.clock, d.logger);
  const device = { fingerprint: identity.fingerprint, tag: identity.tag, name: d.deviceName, created: identity.created };
  const audit = config.audit;
  const files = d.syncFolder(folder);
  const onRound = async (r: SyncReport): Promise<void> => {
    const actor = { kind: 'system' as const, id: null };
    if (r.from.length > 0) await audit.append({ action: 'replica.merge', actor, target: folder, data: { from: r.from, rows: r.merged, pending: r.pending, bad: r.bad } });
    if (r.compacted) await audit.append({ action: 'replica.compact', actor, target: folder, data: { device: device.fingerprint } });
  };
  const nodes = new NodeKeys(memory.nodes);
  const common = { nodes, folder: files, device, clock: d.clock, logger: d.logger, onRound };
  const learned = new Replicator({ ...common, host: memory, codecs: CODECS });
  const tasks = new Replicator({ ...common, host: coordination, codecs: COORDINATION_CODECS, stream: 'tasks' });
  return new DeviceSync([learned, tasks], memory, folder, d.timers, d.logger, files);
}
