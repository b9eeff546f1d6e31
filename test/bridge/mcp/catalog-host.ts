/**
 * The plugin's side for relay-mode specs: a real MemoryEngine over a vault folder served by the plugin's own
 * BridgeHost with the REAL tool catalog (createDispatcher + TOOL_CATALOG), plus one test tool, `test_hold`,
 * that stays in flight until the host stops. Records every call it runs, so a spec can tell relayed calls
 * from headless ones.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { NodeBlobStore } from '../../../bridge/node-blob-store';
import { NodeVault } from '../../../bridge/node-vault';
import { loadSqlJs } from '../../../bridge/sql';
import { BridgeHost } from '../../../plugin/bridge-host/bridge-host';
import { MemoryEngine } from '../../../shared/engine';
import { TOOL_CATALOG } from '../../../shared/tools/catalog';
import { createDispatcher } from '../../../shared/tools/dispatcher';
import type { ToolCaller, ToolDef, ToolDispatcher } from '../../../shared/tools/types';

export interface CatalogHost {
  engine: MemoryEngine;
  host: BridgeHost;
  port: number;
  /** Every call the host ran for the agents, in order. */
  calls: { tool: string; caller: ToolCaller }[];
  /** The bridges' own records of their MCP sessions (CallOptions.sessionRecord), apart from the agents' calls. */
  sessionRecords: { tool: string; caller: ToolCaller }[];
  /** Resolves once a `test_hold` call is running on the host. */
  held(): Promise<void>;
  /** Removes bridge.json, drops the connections (calls in flight fail at the bridge), closes the engine. */
  stop(): Promise<void>;
}

export async function startCatalogHost(root: string): Promise<CatalogHost> {
  const engine = await MemoryEngine.open({
    vault: new NodeVault(root),
    blobs: new NodeBlobStore(join(root, '.lithos')),
    sql: await loadSqlJs(),
    debounceMs: 0,
  });
  await engine.reconcile();
  let onHeld: () => void = () => undefined;
  const heldNow = new Promise<void>((r) => (onHeld = r));
  const hold: ToolDef = {
    name: 'test_hold',
    title: 'hold',
    description: 'test tool: never answers',
    input: z.object({}),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: () => {
      onHeld();
      return new Promise(() => undefined);
    },
  };
  const real = createDispatcher([...TOOL_CATALOG, hold], async () => ({ gateway: engine, deleteTo: "trash_folder" }));
  const calls: CatalogHost['calls'] = [];
  const sessionRecords: CatalogHost['sessionRecords'] = [];
  const dispatcher: ToolDispatcher = {
    list: () => real.list(),
    call: (tool, args, caller, opts) => {
      (opts?.sessionRecord ? sessionRecords : calls).push({ tool, caller });
      return real.call(tool, args, caller, opts);
    },
  };
  const host = new BridgeHost({ lithosDir: join(root, '.lithos'), vaultName: 'relay-vault', pluginVersion: '0.1.0-test', dispatcher, port: 0 });
  try {
    const { port } = await host.start();
    return {
      engine,
      host,
      port,
      calls,
      sessionRecords,
      held: () => heldNow,
      stop: async () => {
        await host.stop();
        await engine.close();
      },
    };
  } catch (err) {
    await engine.close();
    throw err;
  }
}
