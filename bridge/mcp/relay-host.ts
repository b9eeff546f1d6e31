import type { RelayClient } from '../relay/relay-client';
import type { ToolDef, ToolDispatcher } from '../../shared/tools/types';
import type { ToolHost } from './headless';

/**
 * Tool calls forwarded to the plugin through a RelayClient. The host validates and runs them with the same
 * dispatcher, so errors arrive as the host's own LithosError ({code, message, data}); the caller (agent id)
 * travels with each call. A call in flight when the connection drops fails at once with a retryable
 * `unavailable` (RelayClient never hangs a call). The catalog is only what tools/list shows.
 */
export function relayHost(client: RelayClient, catalog: readonly ToolDef[]): ToolHost {
  const list = Object.freeze([...catalog]);
  const dispatcher: ToolDispatcher = {
    list: () => list,
    call: (name, args, caller, opts) => client.call(name, args ?? {}, caller, opts?.sessionRecord ? { sessionRecord: true } : {}),
  };
  return { dispatcher, close: () => client.close() };
}
