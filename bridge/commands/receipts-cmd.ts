import { join } from 'node:path';
import { silentLogger, systemClock, systemTimers, type BlobStore, type Logger } from '../../shared/ports';
import { ReceiptLog, parseTimeArg } from '../../shared/retrieval/receipts';
import { MemoryStore } from '../../shared/stores/memory-store';
import { checkVaultFolder } from '../open-vault';
import { NodeBlobStore } from '../node-blob-store';
import { ReadOnlyBlobStore } from '../read-only-blobs';
import { loadSqlJs } from '../sql';
import { printJson, table, type Out } from './output';

export interface ReceiptsOptions {
  agent?: string;
  task?: string;
  /** A node id, or a vault-relative note path looked up in the node registry. */
  node?: string;
  since?: string;
  until?: string;
  limit?: number;
  json: boolean;
  out: Out;
  logger: Logger;
}

const TOP_NODES = 3;
const QUERY_WIDTH = 40;

/**
 * `lithos receipts <vault> [--agent a] [--task t] [--node id|path] [--since t] [--until t] [--limit N] [--json]`.
 * Read-only and lock-free: it reads `.lithos/` through a store that keeps any write in memory, so it runs
 * beside the process that holds the writer lock and never changes a file.
 */
export async function receiptsCommand(vault: string, o: ReceiptsOptions): Promise<number> {
  const root = await checkVaultFolder(vault);
  const blobs = new ReadOnlyBlobStore(new NodeBlobStore(join(root, '.lithos')));
  const now = systemClock.now();
  // Resolved here so that a bad value is reported under its flag's name.
  const since = o.since === undefined ? undefined : parseTimeArg(o.since, now, '--since');
  const until = o.until === undefined ? undefined : parseTimeArg(o.until, now, '--until');
  const names = o.node !== undefined || !o.json ? await readNodeNames(blobs, o.logger) : null;
  const node = o.node === undefined ? undefined : (names?.idOfPath(o.node) ?? o.node);

  const log = new ReceiptLog(blobs, systemClock, { logger: o.logger });
  const result = await log.query({ agent: o.agent, task: o.task, node, since, until, limit: o.limit });
  if (o.json) {
    printJson(o.out, result);
    return 0;
  }
  const skipped = result.skipped_lines ? ` (${result.skipped_lines} damaged line${result.skipped_lines === 1 ? '' : 's'} skipped)` : '';
  if (result.receipts.length === 0) {
    o.out(`No receipts.${skipped}`);
    return 0;
  }
  const label = (id: string): string => names?.nameOf(id) ?? id;
  o.out(
    table([
      ['time', 'agent', 'class', 'query', 'temp', 'top nodes'],
      ...result.receipts.map((r) => [
        shortTime(r.ts),
        r.agent_id ?? '-',
        r.query_class,
        clip(r.query_text, QUERY_WIDTH),
        r.temperature.toFixed(2),
        r.final_nodes.slice(0, TOP_NODES).map((n) => label(n.id)).join(', ') || '-',
      ]),
    ]),
  );
  o.out(`${result.receipts.length} receipt${result.receipts.length === 1 ? '' : 's'}, newest first${skipped}.`);
  return 0;
}

interface NodeNames {
  /** The note's file name without `.md`; null for an id the registry does not know. */
  nameOf(id: string): string | null;
  idOfPath(path: string): string | null;
}

/**
 * Note names from the node registry in memory.sqlite, which is small next to the cache; titles would need
 * the cache or the notes. Receipts stay readable without it: on any failure the table shows node ids.
 */
async function readNodeNames(blobs: BlobStore, logger: Logger): Promise<NodeNames | null> {
  if ((await blobs.list('memory.')).length === 0) return null; // never indexed
  try {
    const { store } = await MemoryStore.open({ sql: await loadSqlJs(), blobs, clock: systemClock, timers: systemTimers, logger: silentLogger });
    const byId = new Map<string, string>();
    const byPath = new Map<string, string>();
    // Deleted notes keep the path they had, so old receipts still name them; a live note wins a shared path.
    for (const n of [...store.tombstones(), ...store.liveNodes()]) {
      const path = n.path ?? n.last_path;
      if (path === null) continue;
      byId.set(n.node_id, path);
      byPath.set(path, n.node_id);
    }
    await store.close();
    return {
      nameOf: (id) => {
        const path = byId.get(id);
        return path === undefined ? null : (path.split('/').pop() ?? path).replace(/\.md$/i, '');
      },
      idOfPath: (path) => byPath.get(path) ?? null,
    };
  } catch (err) {
    logger.warn(`could not read note names from .lithos/memory.sqlite (${err instanceof Error ? err.message : String(err)}); showing node ids`);
    return null;
  }
}

/** `2026-01-31T12:00:00.000Z` → `2026-01-31 12:00:00Z`. */
function shortTime(ts: string): string {
  return ts.replace('T', ' ').replace(/\.\d+(?=Z|[+-]|$)/, '');
}

function clip(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= width ? flat : `${flat.slice(0, width - 1)}…`;
}
