/** The bench's figures, their targets, and how they are printed. */

export interface BenchReport {
  notes: number;
  seed: number;
  words: number;
  vault_mb: number;
  generate_s: number;
  cold_index_s: number;
  cold_index_notes_per_s: number;
  /** The longest the event loop went without a turn during the cold index (what typing would wait in Obsidian). */
  index_max_stall_ms: number;
  /** The built plugin's onload (plugin-onload.ts); NaN when run from sources without a build. */
  onload_ms: number;
  warm_start_s: number;
  /** Notes the warm start re-indexed although nothing changed (should be 0). */
  warm_reindexed: number;
  incremental_samples: number;
  incremental_p50_ms: number;
  incremental_p95_ms: number;
  /** Edited notes a search could not find right after settle() (should be 0). */
  incremental_not_searchable: number;
  search_queries: number;
  search_p50_ms: number;
  search_p95_ms: number;
  /** One Parallel Terraced Scan in a fresh process right after it opened the indexed vault (nothing before it). */
  retrieve_first_ms: number;
  /** Parallel Terraced Scan with receipts, no LLM, in the warm process after its edits and persist. */
  retrieve_p50_ms: number;
  retrieve_p95_ms: number;
  persist_ms: number;
  store_mb: number;
  /** Peak RSS of the process that opened the indexed vault, searched, followed the edits and persisted. */
  peak_rss_mb: number;
  /** Peak RSS of that process once the indexed vault was open and had answered one search, before anything else. */
  warm_open_peak_rss_mb: number;
  /** Peak RSS of the process that generated the vault and indexed it cold. */
  cold_peak_rss_mb: number;
  /** Peak RSS of the warm process at its end, after the 300 PTS retrievals and the relay phase too. */
  process_peak_rss_mb: number;
  /** A read-like call over the bridge websocket (relay-bench.ts), and the same call in-process. */
  relay_read_p50_ms: number;
  relay_read_p95_ms: number;
  inprocess_read_p95_ms: number;
  relay_overhead_p95_ms: number;
  /** lithos_retrieve through the real catalog, over the relay and in-process (NaN when not measured). */
  relay_retrieve_p95_ms: number;
  inprocess_retrieve_p95_ms: number;
  /**
   * The devices phase (devices-bench.ts): another device's month of learning at the bench's rates (a day is the
   * warm phase's retrievals, each with feedback, its edits, and decay at open and every 6 hours of an 8-hour day),
   * merged here; then warm start and retrieval with the devices folder off and on, in the bench's main process.
   */
  devices_load_1m: number;
  devices_days: number;
  devices_retrievals_per_day: number;
  devices_edits_per_day: number;
  devices_decays_per_day: number;
  /** What the other device wrote in the month: rounds, lines, bytes and files of its folder, rows it has a share in. */
  devices_month_rounds: number;
  /** Lines it wrote over the month; its files hold `devices_month_lines` at the end (compaction drops superseded ones). */
  devices_month_published_lines: number;
  devices_month_lines: number;
  devices_month_lines_by_table: Record<string, number>;
  devices_month_mb: number;
  devices_month_files: number;
  devices_month_rows: number;
  devices_month_compactions: number;
  /** Seconds the simulated month took to produce (the bench's own cost, not the engine's). */
  devices_simulate_s: number;
  /** This device's first round with the exchange on: it publishes every row it has learned. */
  devices_first_publish_ms: number;
  devices_first_publish_rows: number;
  /** The round that takes in the month: lines accepted, rows whose value changed, rows waiting for their notes. */
  devices_merge_ms: number;
  /** The longest the event loop went without a turn during that round (its plan is synchronous). */
  devices_merge_max_stall_ms: number;
  devices_merge_lines: number;
  devices_merged_rows: number;
  devices_merge_pending: number;
  /** The first round after a reopen with nothing new (it reads every file of the folder again). */
  devices_reopen_round_ms: number;
  /** The whole devices folder after the merge (both devices' files). */
  devices_folder_mb: number;
  /** memory.sqlite's files before the exchange was turned on and after the merge (shares are kept per device). */
  devices_memory_mb_before: number;
  devices_memory_mb_after: number;
  /** After the merge: rows of replica_shares and the bytes of their columns; term–tag affinity rows (the most numerous). */
  devices_share_rows: number;
  devices_shares_mb: number;
  devices_affinity_rows: number;
  devices_off_warm_start_s: number;
  devices_on_warm_start_s: number;
  devices_off_retrieve_p50_ms: number;
  devices_off_retrieve_p95_ms: number;
  devices_on_retrieve_p50_ms: number;
  devices_on_retrieve_p95_ms: number;
  /**
   * 2 and 5 devices learning different things and exchanging files in a random order (devices-converge.ts): all
   * rounds' time summed, lines written, and 1 when every device ended with the same learned state.
   */
  converge_2_ms: number;
  converge_5_ms: number;
  converge_5_rounds: number;
  converge_5_lines: number;
  converge_ok: number;
  /** One-minute load average when the bench started and when it ended (2 cores are shared). */
  load_1m_start: number;
  load_1m_end: number;
  /** `separate`: the two processes above are distinct (the CLI); `same`: one process did everything. */
  warm_process: 'separate' | 'same';
  cores: number;
  node: string;
}

interface Target {
  key: keyof BenchReport;
  label: string;
  unit: string;
  /** `min`: the figure must be at least `value`; `max`: at most. */
  kind: 'min' | 'max';
  value: number;
}

/** Targets hold at 10,000 notes on 2 cores with the offline embedder. */
export const TARGET_NOTES = 10_000;
export const TARGETS: readonly Target[] = [
  { key: 'cold_index_notes_per_s', label: 'cold index', unit: 'notes/s', kind: 'min', value: 500 },
  { key: 'index_max_stall_ms', label: 'longest stall while indexing', unit: 'ms', kind: 'max', value: 50 },
  { key: 'onload_ms', label: 'plugin onload', unit: 'ms', kind: 'max', value: 30 },
  { key: 'warm_start_s', label: 'warm start to searchable', unit: 's', kind: 'max', value: 1.5 },
  { key: 'incremental_p50_ms', label: 'incremental update p50', unit: 'ms', kind: 'max', value: Infinity },
  { key: 'incremental_p95_ms', label: 'incremental update p95', unit: 'ms', kind: 'max', value: 30 },
  { key: 'search_p50_ms', label: 'search p50 (hybrid)', unit: 'ms', kind: 'max', value: Infinity },
  { key: 'search_p95_ms', label: 'search p95 (hybrid)', unit: 'ms', kind: 'max', value: 30 },
  { key: 'retrieve_first_ms', label: 'first retrieve after open', unit: 'ms', kind: 'max', value: Infinity },
  { key: 'retrieve_p50_ms', label: 'retrieve p50 (PTS, no LLM)', unit: 'ms', kind: 'max', value: Infinity },
  { key: 'retrieve_p95_ms', label: 'retrieve p95 (PTS, no LLM)', unit: 'ms', kind: 'max', value: 80 },
  { key: 'persist_ms', label: 'persist (flush)', unit: 'ms', kind: 'max', value: Infinity },
  { key: 'peak_rss_mb', label: 'peak RSS (warm: open, search, edits, persist)', unit: 'MB', kind: 'max', value: 400 },
  { key: 'warm_open_peak_rss_mb', label: 'peak RSS (warm open + search)', unit: 'MB', kind: 'max', value: Infinity },
  { key: 'cold_peak_rss_mb', label: 'peak RSS (cold index)', unit: 'MB', kind: 'max', value: 400 },
  { key: 'process_peak_rss_mb', label: 'peak RSS (warm process incl. retrieval, relay)', unit: 'MB', kind: 'max', value: Infinity },
  { key: 'inprocess_read_p95_ms', label: 'read p95 (in-process)', unit: 'ms', kind: 'max', value: Infinity },
  { key: 'relay_read_p50_ms', label: 'read p50 (relay over ws)', unit: 'ms', kind: 'max', value: Infinity },
  { key: 'relay_read_p95_ms', label: 'read p95 (relay over ws)', unit: 'ms', kind: 'max', value: Infinity },
  { key: 'relay_overhead_p95_ms', label: 'relay overhead p95', unit: 'ms', kind: 'max', value: 2 },
  { key: 'relay_retrieve_p95_ms', label: 'lithos_retrieve p95 (relay over ws)', unit: 'ms', kind: 'max', value: Infinity },
  { key: 'inprocess_retrieve_p95_ms', label: 'lithos_retrieve p95 (in-process)', unit: 'ms', kind: 'max', value: Infinity },
  { key: 'devices_merge_ms', label: 'merge a month of another device', unit: 'ms', kind: 'max', value: Infinity },
  { key: 'devices_merge_max_stall_ms', label: 'longest stall while merging', unit: 'ms', kind: 'max', value: Infinity },
  { key: 'devices_reopen_round_ms', label: 'first devices round after reopen', unit: 'ms', kind: 'max', value: Infinity },
  { key: 'devices_first_publish_ms', label: 'first publish (devices folder turned on)', unit: 'ms', kind: 'max', value: Infinity },
  { key: 'devices_month_mb', label: 'one device\'s files after a month', unit: 'MB', kind: 'max', value: Infinity },
  { key: 'converge_ok', label: '2 and 5 devices end with the same learned state (1 = yes)', unit: '', kind: 'min', value: 1 },
  { key: 'converge_5_ms', label: '5 devices: every round of the exchange, summed', unit: 'ms', kind: 'max', value: Infinity },
  { key: 'devices_off_warm_start_s', label: 'warm start, devices folder off', unit: 's', kind: 'max', value: Infinity },
  // With the devices folder on, the same budgets as warm start and retrieval: the exchange must not cost them.
  { key: 'devices_on_warm_start_s', label: 'warm start, devices folder on', unit: 's', kind: 'max', value: 1.5 },
  { key: 'devices_off_retrieve_p95_ms', label: 'retrieve p95, devices folder off', unit: 'ms', kind: 'max', value: Infinity },
  { key: 'devices_on_retrieve_p95_ms', label: 'retrieve p95, devices folder on', unit: 'ms', kind: 'max', value: 80 },
];

const round = (x: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/** Figures rounded for output: ms and MB to 0.01, seconds to 0.001, rates to 0.1. */
export function roundReport(r: BenchReport): BenchReport {
  const out = { ...r };
  for (const [k, v] of Object.entries(r)) {
    if (typeof v !== 'number' || Number.isInteger(v)) continue;
    const digits = k.endsWith('_per_s') ? 1 : k.endsWith('_s') ? 3 : 2;
    (out as Record<string, unknown>)[k] = round(v, digits);
  }
  return out;
}

function verdict(t: Target, v: number, notes: number): string {
  if (!Number.isFinite(t.value)) return '';
  if (notes < TARGET_NOTES) return 'n/a';
  return (t.kind === 'min' ? v >= t.value : v <= t.value) ? 'ok' : 'MISS';
}

export function formatBenchTable(r: BenchReport): string {
  const rows: string[][] = [['metric', 'value', 'target', 'status']];
  for (const t of TARGETS) {
    const v = r[t.key] as number;
    const target = Number.isFinite(t.value) ? `${t.kind === 'min' ? '>=' : '<='} ${t.value} ${t.unit}` : '';
    rows.push([t.label, `${round(v, v >= 100 ? 0 : 2)} ${t.unit}`, target, verdict(t, v, r.notes)]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  const fmt = (row: string[]): string => row.map((cell, c) => (c === 1 ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ').trimEnd();
  const lines = [
    `Lithos bench: ${r.notes} notes (seed ${r.seed}), ${r.words} words, ${round(r.vault_mb, 1)} MB vault, ${r.cores} cores, node ${r.node}`,
    `targets are for ${TARGET_NOTES} notes on 2 cores with the offline embedder`,
    fmt(rows[0]),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.slice(1).map(fmt),
    `cold index took ${round(r.cold_index_s, 2)} s; store on disk ${round(r.store_mb, 1)} MB; ${r.search_queries} queries, ${r.incremental_samples} edits`,
  ];
  lines.push(
    r.warm_process === 'separate'
      ? 'the warm phase ran in a process of its own: its peak RSS is read after persist (the engine\'s phases) and again at its end (with the retrievals and the relay)'
      : 'one process generated, indexed cold and ran the warm phase: every peak RSS figure is that process\'s high-water mark so far',
  );
  lines.push(
    `devices: another device's ${r.devices_days} days at ${r.devices_retrievals_per_day} retrievals with feedback, ${r.devices_edits_per_day} edits and ${r.devices_decays_per_day} decay runs a day: ` +
      `${r.devices_month_lines} lines, ${round(r.devices_month_mb, 1)} MB in ${r.devices_month_files} files (${r.devices_month_rows} rows, ${r.devices_month_compactions} compactions); ` +
      `merged ${r.devices_merge_lines} lines into ${r.devices_merged_rows} rows (${r.devices_merge_pending} pending); ` +
      `memory.sqlite ${round(r.devices_memory_mb_before, 1)} -> ${round(r.devices_memory_mb_after, 1)} MB; off/on figures are both after the merge`,
    `load average (1 min): ${round(r.load_1m_start, 2)} at the start, ${round(r.devices_load_1m, 2)} at the devices phase, ${round(r.load_1m_end, 2)} at the end`,
  );
  if (r.warm_reindexed > 0) lines.push(`warning: warm start re-indexed ${r.warm_reindexed} unchanged notes`);
  if (r.incremental_not_searchable > 0) lines.push(`warning: ${r.incremental_not_searchable} edited notes were not found by search after settle()`);
  return lines.join('\n');
}
