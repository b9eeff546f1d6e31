import { CoordinationStore } from '../../shared/coordination/coordination-store';
import { env, type Env } from '../stores/helpers';
import type { MemoryBlobStore } from '../twins/memory-blobs';

export const MIN = 60_000;

/** A coordination store over in-memory twins, with two registered agents. */
export async function openStore(blobs?: MemoryBlobStore): Promise<{ store: CoordinationStore; e: Env; warnings: string[] }> {
  const e = await env(blobs);
  const { store, warnings } = await CoordinationStore.open(e);
  return { store, e, warnings };
}

export async function withAgents(store: CoordinationStore, ...ids: string[]): Promise<void> {
  for (const id of ids) await store.ensureAgent(id);
}

/** Everything the store holds that a restart must keep. */
export function dump(store: CoordinationStore, taskIds: string[]) {
  return {
    agents: store.agents(),
    tasks: store.tasks({ limit: 1000 }),
    claims: taskIds.map((t) => store.liveClaims(t)),
    findings: taskIds.map((t) => store.findings(t)),
    outcomes: taskIds.map((t) => store.outcome(t)),
    counts: store.counts(),
  };
}
