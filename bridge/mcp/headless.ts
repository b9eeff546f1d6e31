import type { Logger } from '../../shared/ports';
import { createDispatcher } from '../../shared/tools/dispatcher';
import type { ToolDef, ToolDispatcher } from '../../shared/tools/types';
import type { Interpreter } from '../../shared/retrieval/terrace2';
import type { Sampler } from '../../shared/learning/reflection-wording';
import { openJobVault, type JobVault } from '../open-vault';
import { LithosError, asLithosError } from '../../shared/errors';
import { lockLooksFree, readLock } from '../lock';
import { join } from 'node:path';
import type { LearningService } from '../../shared/learning/learning-service';
import { nodeGitSource } from '../git-log';

/** Tools a read-only session runs: those that only read, and retrieval (its receipt is not saved). */
function readsOnly(def: ToolDef): boolean {
  return def.annotations?.readOnlyHint === true || def.name === 'lithos_retrieve';
}

/** How often a read-only session tries again to become the writer, between calls. */
const WRITER_RETRY_MS = 10_000;

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
  /** Reflection's wording by the MCP client's model (bridge/mcp/reflection-sampler.ts); null: none. Headless only. */
  setSampler?(sampler: Sampler | null): void;
}

export interface HeadlessHost extends ToolHost {
  /** Whether the vault has been opened (by a first tools/call). */
  isOpen(): boolean;
  /** Whether it was opened read-only, because another process holds the writer lock. */
  isReadOnly(): boolean;
}

/**
 * The in-process dispatcher of `lithos mcp` when Obsidian is not running: the bridge opens the vault
 * itself, with the same engine, under the single-writer lock. Opening waits for the first tools/call, so
 * initialize and tools/list never wait on a large vault; a failed open (vault locked, missing) is that
 * call's error and the next call tries again.
 *
 * A vault another process is writing (a second MCP client's lithos mcp, a running `lithos index`, Obsidian
 * with its bridge off) opens read-only instead: tools that only read, and lithos_retrieve, work (nothing
 * this session records is saved); the others are vault_locked, naming the holder. Between calls, every
 * 10 s, it tries again to become the writer.
 */
export function headlessHost(vaultPath: string, catalog: readonly ToolDef[], logger: Logger, writerRetryMs = WRITER_RETRY_MS): HeadlessHost {
  let opening: Promise<JobVault> | null = null;
  let opened: JobVault | null = null;
  let closed = false;
  let interpreter: Interpreter | null = null;
  let sampler: Sampler | null = null;

  let inFlight = 0;
  let lastWriterTry = 0;

  /** The writer when the lock is free; otherwise read-only (openVault: stores in memory, no callouts written). */
  const openOnce = async (): Promise<JobVault> => {
    const v = await openJobVault(vaultPath, 'mcp', { write: false, logger, lockOwner: 'bridge' });
    if (v.readOnly) logger.warn('lithos mcp: another process holds the vault\'s writer lock; this session reads only (tools that write answer vault_locked).');
    v.engine.services.retrieval.setInterpreter(interpreter);
    v.engine.services.learning.setSampler(sampler);
    try {
      const report = await v.engine.reconcile();
      logger.info(`vault open${v.readOnly ? ' (read-only)' : ''}: ${report.notes} notes (${report.indexed} indexed) in ${report.duration_ms} ms`);
      v.engine.startWatching(); // follow edits a person makes while the bridge runs
      v.engine.services.devices.poll(); // other devices' learning arrives through the sync tool: look every minute
      if (!v.readOnly) {
        await v.engine.services.conflicts.followPolicy(); // callouts in line with the policy (changed by `lithos policy` meanwhile?)
        v.engine.services.learning.consolidator.start(); // scheduled consolidation and the working-memory size trigger
        indexGitHistory(v.engine.services.learning, v.root, logger); // commits as episodic events, then with each decay run
      }
    } catch (err) {
      await v.close();
      throw err;
    }
    return v;
  };

  const open = (): Promise<JobVault> => {
    opening ??= (async () => {
      lastWriterTry = Date.now();
      const v = await openOnce();
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

  // The switch from read-only to writer happens only between calls: it starts when none is running, and
  // calls arriving meanwhile wait for it (a lock-file read, then the reopen). A running call is never
  // waited for, so a slow one (a retrieval waiting on sampling) holds nobody up: the switch is tried later.
  let switching: Promise<void> | null = null;

  /** Read-only and idle: once the lock is free by the lock's own rules (lockLooksFree), reopen as the writer. */
  const maybeBecomeWriter = (): void => {
    const v = opened;
    if (!v?.readOnly || switching || closed || inFlight > 0 || Date.now() - lastWriterTry < writerRetryMs) return;
    lastWriterTry = Date.now();
    switching = (async () => {
      try {
        if (!(await lockLooksFree(join(v.root, '.lithos')))) return;
        if (opened !== v || closed || inFlight > 0) return;
        opened = null;
        opening = null;
        await v.close();
        if (closed) return;
        await open();
      } catch (err) {
        logger.warn(`lithos mcp: could not reopen the vault as its writer: ${String(err)}`);
      } finally {
        switching = null;
      }
    })();
  };

  const shuttingDown = (): LithosError => new LithosError('unavailable', 'The bridge is shutting down.', { retryable: false });

  const lockedForWrites = async (tool: string): Promise<LithosError> => {
    const holder = await readLock(join(vaultPath, '.lithos')).catch(() => null);
    const who = holder ? `${holder.owner === 'plugin' ? 'Obsidian' : `lithos ${holder.owner === 'bridge' ? 'mcp' : 'CLI'}`} (pid ${holder.pid})` : 'another process';
    return new LithosError(
      'vault_locked',
      `${who} holds this vault's writer lock, so this session reads only and ${tool} is refused. Search, read, list and retrieve work; writes work again once that process ends (checked every ${WRITER_RETRY_MS / 1000} s), or through one MCP server per vault.`,
      { tool, pid: holder?.pid ?? null, owner: holder?.owner ?? null },
    );
  };

  const inner = createDispatcher(catalog, async () => ({ gateway: (await open()).engine, deleteTo: 'trash_folder' }));
  const defs = new Map(catalog.map((d) => [d.name, d]));
  const dispatcher: ToolDispatcher = {
    list: () => inner.list(),
    async call(name, args, caller, opts) {
      if (closed) throw shuttingDown();
      maybeBecomeWriter();
      while (switching) await switching;
      if (closed) throw shuttingDown();
      inFlight++;
      try {
        const def = defs.get(name);
        if (def && !readsOnly(def) && def.input.safeParse(args ?? {}).success) {
          const v = await open().catch((err: unknown) => {
            throw asLithosError(err, 'internal');
          });
          if (v.readOnly) throw await lockedForWrites(name);
        }
        return await inner.call(name, args, caller, opts);
      } finally {
        inFlight--;
      }
    },
  };
  return {
    dispatcher,
    isOpen: () => opened !== null,
    isReadOnly: () => opened?.readOnly === true,
    setInterpreter(next) {
      interpreter = next;
      opened?.engine.services.retrieval.setInterpreter(next);
    },
    setSampler(next) {
      sampler = next;
      opened?.engine.services.learning.setSampler(next);
    },
    async close() {
      closed = true;
      // A switch under way has the old engine closing and may be opening the new one: let it finish first.
      await switching;
      const v = opened ?? (await opening?.catch(() => null)) ?? null;
      opened = null;
      if (v) await v.close();
    },
  };
}

/**
 * Reads git repositories from here on (the setting `git.repository`, or the one holding the vault) and starts
 * indexing their commits (logged, never failing the open; a vault in no repository is said once in the log).
 */
function indexGitHistory(learning: LearningService, root: string, logger: Logger): void {
  learning.setGitSource(nodeGitSource(root));
  void learning.indexGit().then(
    (r) => r.indexed > 0 && logger.info(`indexed ${r.indexed} git commit${r.indexed === 1 ? '' : 's'} as events`),
    (err: unknown) => logger.warn(`lithos mcp: git history not indexed: ${String(err)}`),
  );
}
