/**
 * `npm run bench -- --notes N [--json] [--seed S]`: generates a seeded synthetic vault in a temp
 * folder and measures the engine on it: cold index, warm start, incremental updates, search, persist.
 */
import { writeFailure } from '../log';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { asLithosError, LithosError } from '../../shared/errors';
import { openHeadlessEngine } from '../eval/headless-engine';
import { formatBenchTable, roundReport, type BenchReport } from './bench-report';
import { measureRelayRead, type RelayFigures } from './relay-bench';
import { measureDevices } from './devices-bench';
import { measureConvergence } from './devices-converge';
import { pluginOnloadFigure } from './plugin-onload';
import { startStallProbe } from './stall-probe';
import { Rng } from './rng';
import { percentile, peakRssMb, timed } from './stats';
import { SyntheticVault } from './synth-vault';
import { writeSyntheticVault } from './write-vault';

export interface BenchArgs {
  notes: number;
  seed: number;
  json: boolean;
  out: (s: string) => void;
  /** Run the warm phase in a separate process; by default only from the built CLI. */
  warmInChild?: boolean;
  devicesDays?: number;
}

export interface BenchOptions {
  notes: number;
  seed: number;
  incrementalSamples?: number;
  searchQueries?: number;
  /** Days of the other device's learning the devices phase merges (devices-bench.ts); 30 by default. */
  devicesDays?: number;
}

/** Letters only, so no tokenizer splits it; "qx" never occurs in the generated lexicon. */
function marker(n: number): string {
  let s = '';
  do {
    s += String.fromCharCode(97 + (n % 26));
    n = Math.floor(n / 26);
  } while (n > 0);
  return `qxmark${s}`;
}

async function dirBytes(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? await dirBytes(p) : (await stat(p)).size;
  }
  return total;
}

/** What the warm-phase process measures (its own peak RSS included). */
type WarmFigures = Pick<
  BenchReport,
  | 'warm_start_s'
  | 'warm_reindexed'
  | 'incremental_samples'
  | 'incremental_p50_ms'
  | 'incremental_p95_ms'
  | 'incremental_not_searchable'
  | 'search_queries'
  | 'search_p50_ms'
  | 'search_p95_ms'
  | 'retrieve_p50_ms'
  | 'retrieve_p95_ms'
  | 'persist_ms'
  | 'store_mb'
  | 'peak_rss_mb'
  | 'warm_open_peak_rss_mb'
  | 'process_peak_rss_mb'
> &
  RelayFigures;

interface WarmJob {
  /** `warm`: measureWarm; `first-retrieve`: measureFirstRetrieve, on the vault the warm phase left. */
  phase: 'warm' | 'first-retrieve';
  root: string;
  notes: number;
  seed: number;
  incrementalSamples: number;
  searchQueries: number;
  /** The warm phase's workload, prepared by the parent (prepareWork) so the measured process holds no generator. */
  workFile: string;
}

/** What the warm phase does, decided in advance: its queries, the edits it lands, the notes' paths. */
interface WarmWork {
  queries: string[];
  /** The incremental samples, then the one edit left pending for the persist measurement. */
  edits: { path: string; content: string; token: string }[];
  paths: string[];
}

/**
 * The generator (vocabulary, plans, samplers: ~35 MB of RSS at 10k notes) stays in the parent: the warm
 * process is measured as a user's `lithos` process on an indexed vault, with nothing of the bench in it.
 */
async function prepareWork(vault: SyntheticVault, job: Omit<WarmJob, 'workFile' | 'phase'>): Promise<string> {
  const rng = new Rng((job.seed ^ 0x1b873593) >>> 0);
  const edits: WarmWork['edits'] = [];
  for (let s = 0; s <= job.incrementalSamples; s++) {
    const i = rng.int(0, job.notes - 1);
    const token = marker(s);
    edits.push({ path: vault.path(i), content: `${vault.note(i, s + 1).content}\nEdited ${token}.\n`, token });
  }
  const work: WarmWork = { queries: vault.queries(job.searchQueries), edits, paths: Array.from({ length: job.notes }, (_, i) => vault.path(i)) };
  const file = join(job.root, '.lithos-bench-work.json');
  await writeFile(file, JSON.stringify(work), 'utf8');
  return file;
}

/** Set (to a JSON WarmJob) in the environment of a child process that runs a warm-side phase. */
const WARM_JOB_ENV = 'LITHOS_BENCH_WARM_JOB';

export async function measureBench(opts: BenchOptions & { warmInChild?: boolean }): Promise<BenchReport> {
  const { notes, seed } = opts;
  if (!Number.isInteger(notes) || notes < 1) throw new LithosError('invalid_argument', '--notes must be a positive integer.', { notes });
  if (!Number.isInteger(seed)) throw new LithosError('invalid_argument', '--seed must be an integer.', { seed });
  const loadStart = loadavg()[0];
  const root = await mkdtemp(join(tmpdir(), 'lithos-bench-'));
  try {
    const base = { root, notes, seed, incrementalSamples: opts.incrementalSamples ?? 200, searchQueries: opts.searchQueries ?? 300 };
    // The generator is dropped once the vault and the warm phase's workload are written.
    const gen = await timed(async () => {
      const vault = new SyntheticVault(notes, seed);
      return { written: await writeSyntheticVault(vault, root), workFile: await prepareWork(vault, base) };
    });
    const { written, workFile } = gen.value;

    // Cold: empty .lithos, every note parsed, chunked, embedded and indexed.
    const started = performance.now();
    const coldEngine = await openHeadlessEngine(root);
    let coldMs: number;
    let maxStallMs: number;
    try {
      const probe = startStallProbe();
      await coldEngine.reconcile();
      await coldEngine.settle();
      maxStallMs = probe.stop();
      coldMs = performance.now() - started;
    } finally {
      await coldEngine.close(); // close() flushes: the warm start reads that snapshot
    }
    const coldPeak = peakRssMb();

    const job: WarmJob = { ...base, workFile, phase: 'warm' };
    const warm = opts.warmInChild ? await inChild<WarmFigures>(job) : await measureWarm(job);
    const firstJob: WarmJob = { ...job, phase: 'first-retrieve' };
    const first = opts.warmInChild ? await inChild<FirstRetrieveFigures>(firstJob) : await measureFirstRetrieve(firstJob);
    // Last: it adds another device's learning to the vault the phases above measured.
    const work = JSON.parse(await readFile(workFile, 'utf8')) as WarmWork;
    const devices = await measureDevices({ root, seed, paths: work.paths, queries: work.queries, retrievalsPerDay: base.searchQueries, editsPerDay: base.incrementalSamples, days: opts.devicesDays ?? 30 });
    const [two, five] = [await measureConvergence(2, seed), await measureConvergence(5, seed)];
    const converge = { converge_2_ms: two.rounds_ms, converge_5_ms: five.rounds_ms, converge_5_rounds: five.rounds, converge_5_lines: five.lines, converge_ok: Math.min(two.converged, five.converged) };
    const coldS = coldMs / 1000;
    return {
      notes,
      seed,
      words: written.words,
      vault_mb: written.bytes / 1048576,
      generate_s: gen.ms / 1000,
      cold_index_s: coldS,
      cold_index_notes_per_s: notes / coldS,
      index_max_stall_ms: maxStallMs,
      onload_ms: await pluginOnloadFigure(),
      ...warm,
      ...first,
      ...devices,
      ...converge,
      cold_peak_rss_mb: coldPeak,
      load_1m_start: loadStart,
      load_1m_end: loadavg()[0],
      warm_process: opts.warmInChild ? 'separate' : 'same',
      cores: availableParallelism(),
      node: process.versions.node,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/**
 * The user's view of a vault that is already indexed: a new engine over the same vault and stores opens
 * (warm start, until a search answers), serves searches, follows edits and persists. Its peak RSS is
 * that of the process it runs in.
 */
async function measureWarm(job: WarmJob): Promise<WarmFigures> {
  const { root } = job;
  const work = JSON.parse(await readFile(job.workFile, 'utf8')) as WarmWork;
  const { queries } = work;
  const started = performance.now();
  const engine = await openHeadlessEngine(root);
  try {
    const r = await engine.reconcile();
    await engine.services.search.search(queries[0] ?? 'note', { k: 10, mode: 'hybrid' });
    const warmMs = performance.now() - started;
    // Before any further phase: what every session on this vault pays just to open it and answer a search.
    const openPeak = peakRssMb();

    const searchMs: number[] = [];
    for (const q of queries) searchMs.push((await timed(() => engine.services.search.search(q, { k: 10, mode: 'hybrid' }))).ms);

    // Incremental: an external edit lands on disk, the host reports it, the engine catches up.
    const samples = job.incrementalSamples;
    const incMs: number[] = [];
    let notSearchable = 0;
    for (let s = 0; s < samples; s++) {
      const { path, content, token } = work.edits[s];
      await writeFile(join(root, path), content, 'utf8');
      incMs.push((await timed(async () => {
        engine.handleEvent({ kind: 'modify', path });
        await engine.settle();
      })).ms);
      const hits = await engine.services.search.search(token, { k: 3, mode: 'lexical' });
      if (!hits.some((h) => h.path === path)) notSearchable++;
    }

    // Persist: one change pending, then an explicit snapshot.
    await engine.flush();
    const last = work.edits[samples];
    await writeFile(join(root, last.path), last.content, 'utf8');
    engine.handleEvent({ kind: 'modify', path: last.path });
    await engine.settle();
    const persist = await timed(() => engine.flush());

    // The engine's own phases end here (issue 2's figures: open, search, edit, persist): their peak RSS.
    const enginePeak = peakRssMb();

    // Full Parallel Terraced Scan as an agent's call runs it: receipts and retrieval stats written, no LLM.
    const retrieveMs: number[] = [];
    for (const q of queries) retrieveMs.push((await timed(() => engine.services.retrieval.retrieve({ query_text: q, query_class: 'debug', agent_id: 'bench' }))).ms);

    // The same read-like call in-process and over the bridge's websocket (relay-bench.ts).
    const relay = await measureRelayRead(engine, root, work.paths, undefined, undefined, queries.slice(0, 100));

    return {
      warm_start_s: warmMs / 1000,
      warm_reindexed: r.indexed + r.removed + r.renamed,
      incremental_samples: samples,
      incremental_p50_ms: percentile(incMs, 50),
      incremental_p95_ms: percentile(incMs, 95),
      incremental_not_searchable: notSearchable,
      search_queries: queries.length,
      search_p50_ms: percentile(searchMs, 50),
      search_p95_ms: percentile(searchMs, 95),
      retrieve_p50_ms: percentile(retrieveMs, 50),
      retrieve_p95_ms: percentile(retrieveMs, 95),
      persist_ms: persist.ms,
      store_mb: (await dirBytes(join(root, '.lithos'))) / 1048576,
      peak_rss_mb: enginePeak,
      warm_open_peak_rss_mb: openPeak,
      process_peak_rss_mb: peakRssMb(),
      ...relay,
    };
  } finally {
    await engine.close();
  }
}

type FirstRetrieveFigures = Pick<BenchReport, 'retrieve_first_ms'>;

/**
 * What an agent's first `lithos_retrieve` meets: a process that opens the indexed vault and runs one
 * Parallel Terraced Scan, nothing before it (in a process of its own from the CLI, so nothing is warm).
 */
async function measureFirstRetrieve(job: WarmJob): Promise<FirstRetrieveFigures> {
  const work = JSON.parse(await readFile(job.workFile, 'utf8')) as WarmWork;
  const engine = await openHeadlessEngine(job.root);
  try {
    await engine.reconcile();
    const first = await timed(() => engine.services.retrieval.retrieve({ query_text: work.queries[0] ?? 'note', query_class: 'debug' }));
    return { retrieve_first_ms: first.ms };
  } finally {
    await engine.close();
  }
}

/** Runs a warm-side phase in a fresh process (this CLI script again, told what to do through WARM_JOB_ENV). */
function inChild<T>(job: WarmJob): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, __filename, 'bench'], {
      env: { ...process.env, [WARM_JOB_ENV]: JSON.stringify(job) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        const parsed = JSON.parse(out.trim().split('\n').pop() ?? '') as T | { error: { message: string } };
        if (parsed && typeof parsed === 'object' && 'error' in parsed) throw new LithosError('internal', `bench ${job.phase} phase failed: ${parsed.error.message}`);
        if (code !== 0) throw new LithosError('internal', `bench ${job.phase} phase exited with code ${String(code)}`);
        resolve(parsed);
      } catch (err) {
        reject(err instanceof LithosError ? err : new LithosError('internal', `bench ${job.phase} phase gave no result (exit code ${String(code)}).`));
      }
    });
  });
}

export async function runBench(args: BenchArgs): Promise<number> {
  const job = process.env[WARM_JOB_ENV];
  try {
    if (job) {
      // This is a child of another bench run (inChild): one JSON line, for the parent.
      const w = JSON.parse(job) as WarmJob;
      args.out(JSON.stringify(w.phase === 'first-retrieve' ? await measureFirstRetrieve(w) : await measureWarm(w)));
      return 0;
    }
    // From the built CLI (a .js file Node can run again), the warm phase gets a process of its own, so its
    // peak RSS is what a user's `lithos` process reaches on an indexed vault, not the generator's and cold index's.
    const warmInChild = args.warmInChild ?? __filename.endsWith('.js');
    const report = roundReport(await measureBench({ notes: args.notes, seed: args.seed, warmInChild, devicesDays: args.devicesDays }));
    args.out(args.json ? JSON.stringify(report) : formatBenchTable(report));
    return 0;
  } catch (err) {
    const e = asLithosError(err);
    if (args.json || job) args.out(JSON.stringify({ error: e.toJSON() }));
    else writeFailure(e);
    return e.code === 'invalid_argument' ? 2 : 1;
  }
}
