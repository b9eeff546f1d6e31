import { formatBenchTable, roundReport } from '../../bridge/bench/bench-report';
import { measureBench, runBench } from '../../bridge/bench/run-bench';

const KEYS = ['notes', 'cold_index_notes_per_s', 'warm_start_s', 'incremental_p50_ms', 'incremental_p95_ms',
  'search_p50_ms', 'search_p95_ms', 'retrieve_first_ms', 'retrieve_p50_ms', 'retrieve_p95_ms', 'relay_retrieve_p95_ms', 'persist_ms', 'peak_rss_mb'];

describe('runBench', () => {
  it('prints one JSON object with every figure a finite number on a tiny vault', async () => {
    const lines: string[] = [];
    const code = await runBench({ notes: 30, seed: 3, json: true, out: (s) => lines.push(s), devicesDays: 1 });
    expect(code).toBe(0);
    expect(lines).toHaveLength(1);
    const report = JSON.parse(lines[0]) as Record<string, unknown>;
    for (const k of KEYS) {
      expect(typeof report[k]).toBe('number');
      expect(Number.isFinite(report[k])).toBe(true);
    }
    expect(report.notes).toBe(30);
    // The engine really did the work: nothing re-indexed on warm start, every edit findable.
    expect(report.warm_reindexed).toBe(0);
    expect(report.incremental_not_searchable).toBe(0);
    // The whole default run (cold, a warm child process, searches, retrievals, relay) on a loaded 2-core CI box.
  }, 120_000);

  it('takes smaller sample counts and its figures fill the human table', async () => {
    const r = await measureBench({ notes: 20, seed: 1, incrementalSamples: 5, searchQueries: 10, devicesDays: 2 });
    expect(r.incremental_samples).toBe(5);
    expect(r.search_queries).toBe(10);
    expect(r.words).toBeGreaterThan(20 * 50);
    // The devices phase: another device's days at the bench's own rates, its lines merged here.
    expect(r.devices_retrievals_per_day).toBe(10);
    expect(r.devices_edits_per_day).toBe(5);
    expect(r.devices_month_lines).toBeGreaterThan(0);
    expect(r.devices_month_published_lines).toBeGreaterThanOrEqual(r.devices_month_lines);
    expect(r.devices_merge_lines).toBeGreaterThan(0);
    expect(r.devices_merged_rows).toBeGreaterThan(0);
    expect(r.devices_merge_pending).toBe(0);
    expect(formatBenchTable(roundReport(r))).toMatch(/cold index\s+[\d.]+ notes\/s\s+>= 500 notes\/s\s+n\/a/);
  });

  it('refuses a non-positive note count with exit code 2', async () => {
    const lines: string[] = [];
    expect(await runBench({ notes: 0, seed: 1, json: true, out: (s) => lines.push(s) })).toBe(2);
    expect(JSON.parse(lines[0])).toMatchObject({ error: { code: 'invalid_argument' } });
  });
});
