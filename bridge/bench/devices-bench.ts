import { learnedReplicator } from '../../shared/replica/learned-replicator';
/**
 * The bench's devices phase (issue 22, docs/devices.md): on the indexed bench vault, another device's month
 * of learning (device-month.ts) lands in the devices folder and this device merges it; then warm start and
 * retrieval are measured with the exchange off and on, so "no regression" is a figure.
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { DECAY } from '../../shared/learning/constants';
import { DEFAULT_LEARNING } from '../../shared/learning/tunables';
import { silentLogger, systemClock } from '../../shared/ports';
import type { SyncReport } from '../../shared/replica/replicator';
import { DeviceIdentity } from '../../shared/stores/device-identity';
import { MemoryStore } from '../../shared/stores/memory-store';
import { cliTimers, openHeadlessEngine } from '../eval/headless-engine';
import { NodeBlobStore } from '../node-blob-store';
import { NodeSyncFolder } from '../node-sync-folder';
import { loadSqlJs } from '../sql';
import type { BenchReport } from './bench-report';
import { simulateMonth, WORK_DAY_MS, type MonthRates } from './device-month';
import { MemoryDeviceRecord } from './memory-ports';
import { percentile, timed } from './stats';
import { startStallProbe } from './stall-probe';

export type DevicesFigures = Pick<BenchReport, Extract<keyof BenchReport, `devices_${string}`>>;

export interface DevicesJob {
  root: string;
  seed: number;
  /** The notes' paths and the warm phase's queries (run-bench.ts prepareWork). */
  paths: readonly string[];
  queries: readonly string[];
  /** One day of the other device is the bench's warm workload: its retrievals (each with feedback) and edits. */
  retrievalsPerDay: number;
  editsPerDay: number;
  days: number;
}

const DAY_MS = 24 * 3600 * 1000;

async function warmAndRetrieve(root: string, queries: readonly string[], devices?: { record: MemoryDeviceRecord; name: string }): Promise<{ warm_s: number; p50: number; p95: number }> {
  const started = performance.now();
  const engine = await openHeadlessEngine(root, devices ? { devices } : {});
  try {
    await engine.reconcile();
    await engine.services.search.search(queries[0] ?? 'note', { k: 10, mode: 'hybrid' });
    const warmMs = performance.now() - started;
    const ms: number[] = [];
    for (const q of queries) ms.push((await timed(() => engine.services.retrieval.retrieve({ query_text: q, query_class: 'debug', agent_id: 'bench' }))).ms);
    return { warm_s: warmMs / 1000, p50: percentile(ms, 50), p95: percentile(ms, 95) };
  } finally {
    await engine.close();
  }
}

/** memory.sqlite's current snapshot (its previous generation, a copy kept beside it, is not counted). */
async function memoryBytes(root: string): Promise<number> {
  return (await stat(join(root, '.lithos', 'memory.sqlite')).catch(() => ({ size: NaN }))).size;
}

const otherLines = (r: SyncReport, me: string): number => r.from.filter((f) => f.device !== me).reduce((n, f) => n + f.lines, 0);

export async function measureDevices(job: DevicesJob): Promise<DevicesFigures> {
  const { root } = job;
  const load = loadavg()[0];
  const folderName = DEFAULT_LEARNING.devices.folder ?? 'Lithos/Devices';
  const rates: MonthRates = {
    days: job.days,
    retrievalsPerDay: job.retrievalsPerDay,
    editsPerDay: job.editsPerDay,
    // At open and every DECAY.interval_ms while an 8-hour working day lasts.
    decaysPerDay: Math.ceil(WORK_DAY_MS / DECAY.interval_ms),
  };
  const month = await simulateMonth(root, job.paths, job.queries, rates, job.seed, Date.now() - (job.days + 1) * DAY_MS);
  const storeBefore = await memoryBytes(root);

  // This device, as every engine the bench opens with the exchange on (one identity).
  const record = new MemoryDeviceRecord();
  const identity = await DeviceIdentity.load(record, systemClock, silentLogger);
  const me = { fingerprint: identity.fingerprint, tag: identity.tag, name: 'bench: this device', created: identity.created };
  const { store } = await MemoryStore.open({ sql: await loadSqlJs(), blobs: new NodeBlobStore(join(root, '.lithos')), clock: systemClock, timers: cliTimers, logger: silentLogger, debounceMs: DAY_MS });
  const folder = new NodeSyncFolder(root, folderName);
  let first: { value: SyncReport; ms: number };
  let merge: { value: SyncReport; ms: number };
  let reopen: { value: SyncReport; ms: number };
  let mergeStall: number;
  let sharesBytes = 0;
  let shareRows = 0;
  let affinityRows = 0;
  try {
    // The first round with the exchange on publishes everything this device learned (its whole share).
    const replicator = learnedReplicator(store, folder, me, systemClock, silentLogger);
    first = await timed(() => replicator.sync());
    for (const [path, bytes] of month.files) {
      const to = join(root, folderName, path);
      await mkdir(dirname(to), { recursive: true });
      await writeFile(to, bytes);
    }
    // The month's files have arrived (a sync tool carried them): the round that merges them. Its plan is
    // synchronous (no local change may slip in), so the probe sees how long it holds the event loop.
    const probe = startStallProbe();
    merge = await timed(() => replicator.sync());
    mergeStall = probe.stop();
    replicator.stop();
    // Reopened with nothing new: what the first round of every later open costs.
    const again = learnedReplicator(store, folder, me, systemClock, silentLogger);
    reopen = await timed(() => again.sync());
    again.stop();
    // What of memory.sqlite the exchange itself adds: the shares (every device's, per row).
    const one = (sql: string): number => Number(store.replica.db.one(sql)?.[0] ?? 0);
    sharesBytes = one('SELECT SUM(LENGTH(tbl) + LENGTH(key) + LENGTH(device) + LENGTH(stamp) + LENGTH(share)) FROM replica_shares');
    shareRows = one('SELECT COUNT(*) FROM replica_shares');
    affinityRows = one('SELECT COUNT(*) FROM tag_affinity');
  } finally {
    await store.close();
  }

  const storeAfter = await memoryBytes(root);

  // Off and on over the same memory.sqlite (the merged month in it): what the exchange itself costs. With it on,
  // the open round runs in the background while the engine opens and serves retrievals.
  const off = await warmAndRetrieve(root, job.queries);
  const on = await warmAndRetrieve(root, job.queries, { record, name: me.name });

  return {
    devices_load_1m: load,
    devices_days: rates.days,
    devices_retrievals_per_day: rates.retrievalsPerDay,
    devices_edits_per_day: rates.editsPerDay,
    devices_decays_per_day: rates.decaysPerDay,
    devices_month_rounds: month.rounds,
    devices_month_published_lines: month.published,
    devices_month_lines: month.lines,
    devices_month_lines_by_table: month.tables,
    devices_month_mb: month.bytes / 1048576,
    devices_month_files: month.files.length,
    devices_month_rows: month.rows,
    devices_month_compactions: month.compactions,
    devices_simulate_s: month.simulate_s,
    devices_first_publish_ms: first.ms,
    devices_first_publish_rows: first.value.published,
    devices_merge_ms: merge.ms,
    devices_merge_max_stall_ms: mergeStall,
    devices_merge_lines: otherLines(merge.value, me.fingerprint),
    devices_merged_rows: merge.value.merged,
    devices_merge_pending: merge.value.pending,
    devices_reopen_round_ms: reopen.ms,
    devices_folder_mb: (await folder.list()).reduce((n, f) => n + f.size, 0) / 1048576,
    devices_memory_mb_before: storeBefore / 1048576,
    devices_memory_mb_after: storeAfter / 1048576,
    devices_share_rows: shareRows,
    devices_shares_mb: sharesBytes / 1048576,
    devices_affinity_rows: affinityRows,
    devices_off_warm_start_s: off.warm_s,
    devices_on_warm_start_s: on.warm_s,
    devices_off_retrieve_p50_ms: off.p50,
    devices_off_retrieve_p95_ms: off.p95,
    devices_on_retrieve_p50_ms: on.p50,
    devices_on_retrieve_p95_ms: on.p95,
  };
}
