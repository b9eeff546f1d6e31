import { join } from 'node:path';
import { EVENT_KINDS, EVENT_STATUSES, type EventKind, type EventStatus } from '../../shared/model/events';
import { silentLogger, systemClock, systemTimers } from '../../shared/ports';
import { parseTimeArg } from '../../shared/retrieval/receipts';
import { MemoryStore, type EventRow } from '../../shared/stores/memory-store';
import { checkVaultFolder } from '../open-vault';
import { NodeBlobStore } from '../node-blob-store';
import { ReadOnlyBlobStore } from '../read-only-blobs';
import { loadSqlJs } from '../sql';
import { printJson, table, type Out } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 10_000;
const SUMMARY_WIDTH = 60;

export interface EventsOptions {
  kind?: EventKind[];
  since?: string;
  until?: string;
  node?: string;
  status?: EventStatus;
  limit: number;
  json: boolean;
  out: Out;
}

/**
 * `lithos events <vault>`: the episodic events, newest first, as the person sees them (all of them).
 * Read-only and lock-free like `lithos receipts`: memory.sqlite is read through a store that keeps any write
 * in memory, so it runs beside the process that holds the writer lock and changes no file.
 */
export async function eventsCommand(vault: string, o: EventsOptions): Promise<number> {
  const root = await checkVaultFolder(vault);
  const blobs = new ReadOnlyBlobStore(new NodeBlobStore(join(root, '.lithos')));
  const now = systemClock.now();
  const since = o.since === undefined ? undefined : parseTimeArg(o.since, now, '--since');
  const until = o.until === undefined ? undefined : parseTimeArg(o.until, now, '--until');
  let rows: EventRow[] = [];
  if ((await blobs.list('memory.')).length > 0) {
    const { store } = await MemoryStore.open({ sql: await loadSqlJs(), blobs, clock: systemClock, timers: systemTimers, logger: silentLogger });
    try {
      const node = o.node === undefined ? undefined : (store.nodes.byPath(o.node)?.node_id ?? o.node);
      rows = store.events.query({ kinds: o.kind, since, until, node, status: o.status, limit: o.limit });
    } finally {
      await store.close();
    }
  }
  if (o.json) {
    printJson(o.out, { events: rows.map((r) => ({ ...r, at: new Date(r.at).toISOString(), status_at: new Date(r.status_at).toISOString() })) });
    return 0;
  }
  if (rows.length === 0) {
    o.out('No events.');
    return 0;
  }
  o.out(
    table([
      ['time', 'kind', 'actor', 'scope', 'summary', 'links', 'status'],
      ...rows.map((r) => [new Date(r.at).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z'), r.kind, r.actor, r.access_scope, clip(r.summary), String(r.links.length), r.status]),
    ]),
  );
  o.out(`${rows.length} event${rows.length === 1 ? '' : 's'}, newest first.`);
  return 0;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= SUMMARY_WIDTH ? flat : `${flat.slice(0, SUMMARY_WIDTH - 1)}…`;
}

export const eventsCmd = defineCommand({
  name: 'events',
  summary: 'episodic events (tool calls, sessions, commits…), newest first (read-only; runs beside Obsidian)',
  positionals: [VAULT],
  options: {
    kind: { type: 'string', help: 'only this kind (repeatable)', value: 'kind', choices: EVENT_KINDS, multiple: true },
    since: { type: 'string', help: 'from this time: an ISO time or a time ago (30m, 2h, 3d, 1w)', value: 't' },
    until: { type: 'string', help: 'up to this time (same forms as --since)', value: 't' },
    node: { type: 'string', help: 'only events linked to this note (id or vault path)', value: 'id|path' },
    status: { type: 'string', help: 'only active or only archived events', value: 'status', choices: EVENT_STATUSES },
    limit: { type: 'int', help: 'at most this many events', min: 1, max: MAX_LIMIT, default: DEFAULT_LIMIT },
  },
  examples: ['lithos events ~/vault --since 1d', 'lithos events ~/vault --kind tool_call --json'],
  run: ({ args: [vault], values, json, out }) => eventsCommand(vault, { ...values, json, out }),
});
