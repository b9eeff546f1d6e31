import { join } from 'node:path';
import { silentLogger, systemClock, systemTimers, type BlobStore, type Logger } from '../../shared/ports';
import { DEFAULT_RECEIPTS_LIMIT, MAX_RECEIPTS_LIMIT, ReceiptLog, parseTimeArg } from '../../shared/retrieval/receipts';
import { MemoryStore } from '../../shared/stores/memory-store';
import { checkVaultFolder } from '../open-vault';
import { NodeBlobStore } from '../node-blob-store';
import { ReadOnlyBlobStore } from '../read-only-blobs';
import { loadSqlJs } from '../sql';
import { printJson, table, type Out } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';

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
 * `lithos receipts <vault>`: past retrievals, newest first.
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
    for (const n of [...store.nodes.tombstones(), ...store.nodes.live()]) {
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

const TIME = 'an ISO time (2026-01-31, 2026-01-31T12:00:00Z) or a time ago (30m, 2h, 3d, 1w)';

export const receiptsCmd = defineCommand({
  name: 'receipts',
  summary: 'past retrievals, newest first (read-only; runs beside Obsidian)',
  positionals: [VAULT],
  options: {
    agent: { type: 'string', help: 'only this agent\'s retrievals', value: 'id' },
    task: { type: 'string', help: 'only retrievals made for this task', value: 'id' },
    node: { type: 'string', help: 'only retrievals that returned this note (id or vault path)', value: 'id|path' },
    since: { type: 'string', help: `from this time: ${TIME}`, value: 't' },
    until: { type: 'string', help: 'up to this time (same forms as --since)', value: 't' },
    limit: { type: 'int', help: 'at most this many receipts', min: 1, max: MAX_RECEIPTS_LIMIT, default: DEFAULT_RECEIPTS_LIMIT },
  },
  examples: ['lithos receipts ~/vault --since 2h', 'lithos receipts ~/vault --node "project/atlas/Pool sizing.md" --json'],
  run: ({ args: [vault], values, json, out, logger }) => receiptsCommand(vault, { ...values, json, out, logger }),
});
