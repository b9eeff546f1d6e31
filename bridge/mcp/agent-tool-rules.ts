import { join } from 'node:path';
import { DEFAULT_POLICY, PolicyStore, type AgentTools } from '../../shared/governance/policy';
import type { Logger } from '../../shared/ports';
import { NodeBlobStore } from '../node-blob-store';
import { ReadOnlyBlobStore } from '../read-only-blobs';

/** The vault policy's `agent_tools`, as tools/list needs it: read from disk, whichever process holds the vault. */
export interface AgentToolRules {
  current(): Promise<AgentTools>;
}

/**
 * Reads `<vault>/.lithos/policy.json` itself (read-only, no lock): tools/list is answered before, and
 * whether or not, this process opens the vault, and in relay mode the policy's writer is the plugin.
 * Calls are refused by the dispatcher that runs them (shared/tools/dispatcher.ts), from the same file.
 */
export function vaultToolRules(vault: string, logger: Logger): AgentToolRules {
  let store: Promise<PolicyStore> | null = null;
  return {
    async current() {
      try {
        store ??= PolicyStore.open({ blobs: new ReadOnlyBlobStore(new NodeBlobStore(join(vault, '.lithos'))), clock: { now: Date.now }, logger });
        const s = await store;
        await s.reload(); // a few hundred bytes: tools/list always shows the file as it is now
        return s.get().agent_tools;
      } catch (err) {
        store = null; // a vault folder that is not there yet: try again next time
        logger.debug(`policy not readable for tools/list: ${(err as Error).message}`);
        return DEFAULT_POLICY.agent_tools;
      }
    },
  };
}

const signature = (r: AgentTools): string => JSON.stringify([r.read_only, [...r.disabled].sort(), r.profile ?? null]);

/**
 * Polls the rules (a hand edit or the settings tab changes policy.json) and calls `changed` when the set of
 * visible tools may have changed, so the server can send notifications/tools/list_changed. Returns stop().
 */
export function watchToolRules(rules: AgentToolRules, changed: () => void, everyMs: number): () => void {
  let last: string | null = null;
  let busy = false;
  const tick = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    try {
      const now = signature(await rules.current());
      if (last !== null && now !== last) changed();
      last = now;
    } finally {
      busy = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), everyMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
