import type { Logger } from '../../shared/ports';
import { createDispatcher } from '../../shared/tools/dispatcher';
import type { ToolDef, ToolDispatcher } from '../../shared/tools/types';
import type { Interpreter } from '../../shared/retrieval/terrace2';
import { openVault, type OpenedVault } from '../open-vault';

/**
 * What the MCP server runs tool calls through: in-process over an engine this process opened (headless,
 * below) or forwarded to the plugin over the websocket (relay). `close` ends it cleanly; safe to call twice.
 */
export interface ToolHost {
  dispatcher: ToolDispatcher;
  close(): Promise<void>;
  /**
   * Terrace 2 of retrieval (the MCP client's sampling, bridge/mcp/sampling-interpreter.ts); null: none.
   * Optional: a host whose engine lives elsewhere (relay) has no way to take one.
   */
  setInterpreter?(interpreter: Interpreter | null): void;
}

export interface HeadlessHost extends ToolHost {
  /** Whether the vault has been opened (by a first tools/call). */
  isOpen(): boolean;
}

/**
 * The in-process dispatcher of `lithos mcp` when Obsidian is not running: the bridge opens the vault
 * itself, with the same engine, under the single-writer lock. Opening waits for the first tools/call, so
 * initialize and tools/list never wait on a large vault; a failed open (vault locked, missing) is that
 * call's error and the next call tries again.
 */
export function headlessHost(vaultPath: string, catalog: readonly ToolDef[], logger: Logger): HeadlessHost {
  let opening: Promise<OpenedVault> | null = null;
  let opened: OpenedVault | null = null;
  let closed = false;
  let interpreter: Interpreter | null = null;

  const open = (): Promise<OpenedVault> => {
    opening ??= (async () => {
      const v = await openVault(vaultPath, { write: true, logger, lockOwner: 'bridge' });
      v.engine.setInterpreter(interpreter);
      try {
        const report = await v.engine.reconcile();
        logger.info(`vault open: ${report.notes} notes (${report.indexed} indexed) in ${report.duration_ms} ms`);
        v.engine.startWatching(); // follow edits a person makes while the bridge runs
        await v.engine.followPolicy(); // callouts in line with the policy (changed by `lithos policy` meanwhile?)
        v.engine.consolidator.start(); // scheduled consolidation and the working-memory size trigger
      } catch (err) {
        await v.close();
        throw err;
      }
      if (closed) {
        await v.close();
        throw new Error('The bridge is shutting down.');
      }
      opened = v;
      return v;
    })();
    opening.catch(() => {
      opening = null;
    });
    return opening;
  };

  const dispatcher = createDispatcher(catalog, async (caller) => ({ engine: (await open()).engine, caller, deleteTo: 'trash_folder' }));
  return {
    dispatcher,
    isOpen: () => opened !== null,
    setInterpreter(next) {
      interpreter = next;
      opened?.engine.setInterpreter(next);
    },
    async close() {
      closed = true;
      const v = opened ?? (await opening?.catch(() => null)) ?? null;
      opened = null;
      if (v) await v.close();
    },
  };
}
