import { formatBenchTable, roundReport, type BenchReport } from '../../bridge/bench/bench-report';

const report: BenchReport = {
  notes: 10000, seed: 42, words: 3_912_345, vault_mb: 25.123456, generate_s: 2.34567,
  cold_index_s: 12.3456789, cold_index_notes_per_s: 810.123456, warm_start_s: 0.98765, warm_reindexed: 0,
  incremental_samples: 200, incremental_p50_ms: 4.56789, incremental_p95_ms: 31.234, incremental_not_searchable: 0,
  search_queries: 300, search_p50_ms: 3.3333, search_p95_ms: 12.345, retrieve_first_ms: 1500.5, retrieve_p50_ms: 20.25, retrieve_p95_ms: 41.5, persist_ms: 210.987, store_mb: 80.55555,
  peak_rss_mb: 350.777, warm_open_peak_rss_mb: 301.2, cold_peak_rss_mb: 812.4,
  process_peak_rss_mb: 600, warm_process: 'separate', cores: 2, node: '20.20.2',
  relay_read_p50_ms: 0.61, relay_read_p95_ms: 1.234, inprocess_read_p95_ms: 0.456, relay_overhead_p95_ms: 0.778, relay_retrieve_p95_ms: 45.6, inprocess_retrieve_p95_ms: 44.1,
  index_max_stall_ms: 12.345, onload_ms: 4.567,
  devices_load_1m: 3.5, devices_days: 30, devices_retrievals_per_day: 300, devices_edits_per_day: 200, devices_decays_per_day: 2,
  devices_month_rounds: 15060, devices_month_published_lines: 700_000, devices_month_lines: 600_000, devices_month_lines_by_table: { affinity: 400_000, stats: 200_000 }, devices_month_mb: 150.25, devices_month_files: 300, devices_month_rows: 90_000,
  devices_month_compactions: 1, devices_simulate_s: 200, devices_first_publish_ms: 900, devices_first_publish_rows: 10_500,
  devices_merge_ms: 30_000, devices_merge_max_stall_ms: 25_000, devices_memory_mb_before: 20, devices_memory_mb_after: 80, devices_share_rows: 160_000, devices_shares_mb: 40, devices_affinity_rows: 120_000, devices_merge_lines: 90_000, devices_merged_rows: 85_000, devices_merge_pending: 0, devices_reopen_round_ms: 9000,
  devices_folder_mb: 160, devices_off_warm_start_s: 1.1, devices_on_warm_start_s: 1.6, devices_off_retrieve_p50_ms: 20, devices_off_retrieve_p95_ms: 40,
  devices_on_retrieve_p50_ms: 21, devices_on_retrieve_p95_ms: 42, converge_2_ms: 90, converge_5_ms: 600, converge_5_rounds: 120, converge_5_lines: 4000, converge_ok: 1, load_1m_start: 2.5, load_1m_end: 4.25,
};

describe('roundReport', () => {
  it('rounds rates to 0.1, seconds to 0.001 and ms/MB to 0.01, leaving integers alone', () => {
    const r = roundReport(report);
    expect(r.cold_index_notes_per_s).toBe(810.1);
    expect(r.warm_start_s).toBe(0.988);
    expect(r.incremental_p95_ms).toBe(31.23);
    expect(r.peak_rss_mb).toBe(350.78);
    expect(r.notes).toBe(10000);
    expect(r.node).toBe('20.20.2');
  });
});

describe('formatBenchTable', () => {
  it('shows each figure beside its target with a verdict at the target size', () => {
    const text = formatBenchTable(roundReport(report));
    expect(text).toMatch(/cold index\s+810 notes\/s\s+>= 500 notes\/s\s+ok/);
    expect(text).toMatch(/incremental update p95\s+31\.23 ms\s+<= 30 ms\s+MISS/);
    expect(text).toMatch(/peak RSS \(warm: open, search, edits, persist\)\s+351 MB\s+<= 400 MB\s+ok/);
    expect(text).toMatch(/peak RSS \(cold index\)\s+812 MB\s+<= 400 MB\s+MISS\n/);
    expect(text).toMatch(/relay overhead p95\s+0\.78 ms\s+<= 2 ms\s+ok/);
    expect(text).toContain('the warm phase ran in a process of its own');
    expect(text).toMatch(/warm start, devices folder on\s+1\.6 s\s+<= 1\.5 s\s+MISS/);
    expect(text).toMatch(/retrieve p95, devices folder on\s+42 ms\s+<= 80 ms\s+ok/);
    expect(text).toContain('devices: another device\'s 30 days at 300 retrievals with feedback, 200 edits and 2 decay runs a day: 600000 lines, 150.3 MB in 300 files');
    expect(text).toContain('load average (1 min): 2.5 at the start, 3.5 at the devices phase, 4.25 at the end');
    expect(text).not.toContain('warning');
  });

  it('gives no verdict below the target size and warns about suspicious runs', () => {
    const text = formatBenchTable({ ...report, notes: 30, warm_reindexed: 3, incremental_not_searchable: 1 });
    expect(text).toMatch(/search p95 \(hybrid\)\s+12\.35 ms\s+<= 30 ms\s+n\/a/);
    expect(text).toContain('warning: warm start re-indexed 3 unchanged notes');
    expect(text).toContain('warning: 1 edited notes were not found by search after settle()');
  });

  it('says when one process did everything, so its peak RSS is not the warm figure alone', () => {
    expect(formatBenchTable(roundReport({ ...report, warm_process: 'same' }))).toContain('one process generated, indexed cold and ran the warm phase');
  });
});
