import { learnedReplicator } from '../../shared/replica/learned-replicator';
/**
 * A month of another device's learning on the bench vault (issue 22), driven through that device's own
 * MemoryStore and Replicator: the same store writes and learning functions a retrieval and its feedback
 * run (retrieval-recorder.ts, feedback.ts), decay (decay.ts) and person edits (note-editors.ts), one round
 * after each burst as DeviceSync runs them. What comes out is that device's files for the devices folder.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { silentLogger, type Clock } from '../../shared/ports';
import { MemoryStore } from '../../shared/stores/memory-store';
import { DEFAULT_LEARNING } from '../../shared/learning/tunables';
import { recordTagAffinity } from '../../shared/learning/tag-affinity';
import { runDecay } from '../../shared/learning/decay';
import { stabilityAfterUse } from '../../shared/model/spaced-repetition';
import { PRECEDENTS, DECAY } from '../../shared/learning/constants';
import { RECEIPTS_SEQ_MARK } from '../../shared/retrieval/retrieval-recorder';
import { feedbackMark } from '../../shared/learning/feedback';
import { tokenize } from '../../shared/index/tokenizer';
import { DEFAULT_K } from '../../shared/retrieval/constants';
import { cliTimers } from '../eval/headless-engine';
import { loadSqlJs } from '../sql';
import { MemoryBlobs, MemoryFolder } from './memory-ports';
import { Rng, ZipfSampler } from './rng';

/** What the other device does in a day: the bench's own warm workload, once a day. */
export interface MonthRates {
  days: number;
  /** Retrievals, each with feedback (the bench's search_queries). */
  retrievalsPerDay: number;
  /** Person edits of notes (the bench's incremental_samples). */
  editsPerDay: number;
  /** Decay runs: at open and every DECAY.interval_ms of an 8-hour working day. */
  decaysPerDay: number;
}

export const WORK_DAY_MS = 8 * 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;

export interface MonthResult {
  fingerprint: string;
  files: [string, Uint8Array][];
  rounds: number;
  /** Lines written over the month (before compactions dropped superseded ones). */
  published: number;
  /** Lines in its files at the end of the month. */
  lines: number;
  /** Lines per learned table. */
  tables: Record<string, number>;
  bytes: number;
  /** Learned rows the device has a share in at the end of the month. */
  rows: number;
  compactions: number;
  /** Seconds the simulation took (not a figure of the engine). */
  simulate_s: number;
}

interface NoteMeta {
  id: string;
  path: string;
  tags: string[];
  namespace: string;
  note_type: string;
}

/** The notes' frontmatter ids, tags, namespaces and types, read from the bench vault as the device indexed them. */
async function readNotes(root: string, paths: readonly string[]): Promise<NoteMeta[]> {
  const out: NoteMeta[] = [];
  for (const path of paths) {
    const text = await readFile(join(root, path), 'utf8');
    const end = text.indexOf('\n---\n', 4);
    const fm = (parse(text.slice(4, end)) ?? {}) as Record<string, unknown>;
    if (typeof fm.id !== 'string') continue;
    out.push({
      id: fm.id,
      path,
      tags: Array.isArray(fm.tags) ? fm.tags.map(String) : [],
      namespace: typeof fm.namespace === 'string' ? fm.namespace : '',
      note_type: typeof fm.note_type === 'string' ? fm.note_type : 'observation',
    });
  }
  return out;
}

const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;
const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

export async function simulateMonth(root: string, paths: readonly string[], queries: readonly string[], rates: MonthRates, seed: number, start: number): Promise<MonthResult> {
  const began = performance.now();
  const notes = await readNotes(root, paths);
  const byId = new Map(notes.map((n) => [n.id, n]));
  let now = start;
  const clock: Clock = { now: () => now };
  const { store } = await MemoryStore.open({ sql: await loadSqlJs(), blobs: new MemoryBlobs(), clock, timers: cliTimers, logger: silentLogger, debounceMs: DAY_MS });
  await store.batch(async () => {
    for (const n of notes) await store.nodes.register({ node_id: n.id, path: n.path, id_source: 'frontmatter', content_hash: null });
  });
  const folder = new MemoryFolder();
  const fingerprint = 'benchotherdevice'; // a device folder name (device-files.ts DEVICE_DIR_RE)
  const replicator = learnedReplicator(store, folder, { fingerprint, tag: 'othr', name: 'bench: another device', created: new Date(start).toISOString() }, clock, silentLogger);
  const k = DEFAULT_LEARNING.feedback;
  const rng = new Rng((seed ^ 0x5bd1e995) >>> 0);
  // Popular notes come back more often: a Zipf over a seeded order of the notes.
  const order = notes.map((n) => n.id);
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [order[i], order[j]] = [order[j], order[i]];
  }
  const zipf = new ZipfSampler(order.length);
  // Decay reads only a note's type (decay.ts): the device's notes as its index would hold them.
  const decayPorts = {
    memory: store,
    tunables: { get: () => DEFAULT_LEARNING, refresh: () => Promise.resolve() },
    audit: { append: () => Promise.resolve() },
    notes: { note: (id: string) => ({ cached: { meta: { note_type: byId.get(id)?.note_type ?? 'observation' } } }) },
  } as unknown as Parameters<typeof runDecay>[0];
  let rounds = 0;
  let compactions = 0;
  let published = 0;
  let receipt = 0;
  const sync = async (): Promise<void> => {
    const r = await replicator.sync();
    rounds++;
    published += r.published;
    if (r.compacted) compactions++;
  };

  const retrieveWithFeedback = async (query: string): Promise<void> => {
    const shown = new Set<string>();
    while (shown.size < Math.min(DEFAULT_K, order.length)) shown.add(order[zipf.sample(rng)]);
    const finals = [...shown];
    const at = now;
    const id = `bench-${++receipt}`;
    // The retrieval's record (retrieval-recorder.ts): telemetry counts of the notes shown.
    await store.batch(async () => {
      for (const n of finals) await store.stats.update(n, { retrieval_count: store.stats.get(n).retrieval_count + 1, last_retrieved_at: at });
      await store.learned.setMark(RECEIPTS_SEQ_MARK, receipt);
    });
    // Feedback (feedback.ts, accepted not asked): one to three cited, the others passed over.
    const used: string[] = [];
    for (let want = rng.int(1, 3); used.length < Math.min(want, finals.length); ) {
      const n = finals[rng.int(0, finals.length - 1)];
      if (!used.includes(n)) used.push(n);
    }
    const ignored = finals.filter((n) => !used.includes(n));
    const cls = 'debug';
    const prior = (p: Record<string, number>, d: number): Record<string, number> => ({ ...p, [cls]: round6(clamp((p[cls] ?? 0) + d, -k.class_prior_cap, k.class_prior_cap)) });
    await store.batch(async () => {
      for (const n of used) {
        const s = store.stats.get(n);
        await store.stats.update(n, { use_count: s.use_count + 1, last_used_at: at, salience: round6(clamp(s.salience + k.used_salience, 0, 1)), spaced_rep_strength: stabilityAfterUse(s, at), per_queryclass_priors: prior(s.per_queryclass_priors, k.used_class_prior) });
      }
      for (const n of ignored) {
        const s = store.stats.get(n);
        await store.stats.update(n, { ignored_count: s.ignored_count + 1, per_queryclass_priors: prior(s.per_queryclass_priors, k.ignored_class_prior) });
      }
      for (let i = 0; i < used.length; i++) {
        for (let j = i + 1; j < used.length; j++) {
          const [from, to] = used[i] < used[j] ? [used[i], used[j]] : [used[j], used[i]];
          const e = store.edges.find({ from, to, type: 'related_to' })[0];
          if (e) await store.edges.upsert({ ...e, weight: round6(clamp(e.weight + k.used_edge, 0, 1)) });
          else await store.edges.upsert({ from_id: from, to_id: to, type: 'related_to', weight: k.used_edge, namespace: byId.get(from)?.namespace ?? '', provenance_actor: 'learning.feedback', provenance_type: 'rule', evidence: { rule: 'used together' }, conflict_state: null });
          await store.coactivation.bump(used[i], used[j], byId.get(used[i])?.namespace ?? '', at);
        }
      }
      const terms = [...new Set(tokenize(query))];
      if (terms.length > 0) await store.learned.addPrecedent({ precedent_id: id, at, query_class: cls, query_text: query.slice(0, PRECEDENTS.max_query_chars), agent_id: 'bench', terms, used }, PRECEDENTS.keep);
      await recordTagAffinity(store.learned, query, finals.map((n) => ({ tags: byId.get(n)?.tags ?? [], used: used.includes(n) })), at);
      await store.learned.setMark(feedbackMark(id), { at, agent: 'bench', task: null, used, misleading: [] });
    });
  };

  const edit = async (): Promise<void> => {
    const n = order[zipf.sample(rng)];
    const row = store.editors.get(n);
    await store.editors.set({ node_id: n, creator_kind: row?.creator_kind ?? 'person', editor_kind: 'person', editor: null, fingerprint: `bench-${rng.int(0, 2 ** 30)}`, at: now });
  };

  for (let day = 0; day < rates.days; day++) {
    const open = start + day * DAY_MS;
    const kinds = [...Array<'r'>(rates.retrievalsPerDay).fill('r'), ...Array<'e'>(rates.editsPerDay).fill('e')];
    for (let i = kinds.length - 1; i > 0; i--) {
      const j = rng.int(0, i);
      [kinds[i], kinds[j]] = [kinds[j], kinds[i]];
    }
    const step = WORK_DAY_MS / Math.max(1, kinds.length);
    let nextDecay = 0;
    for (const [i, kind] of kinds.entries()) {
      now = open + Math.round(i * step);
      if (nextDecay < rates.decaysPerDay && now >= open + nextDecay * DECAY.interval_ms) {
        await runDecay(decayPorts, now);
        nextDecay++;
        await sync();
      }
      if (kind === 'r') await retrieveWithFeedback(queries[(day * rates.retrievalsPerDay + i) % queries.length] ?? 'note');
      else await edit();
      // Bursts are a working day / events apart (about a minute at the bench's rates), far over
      // PUBLISH_QUIET_MS: every burst is a round of its own.
      await sync();
    }
    await store.flush();
  }
  await sync();
  const files = folder.entries();
  let lines = 0;
  let bytes = 0;
  const tables: Record<string, number> = {};
  const dec = new TextDecoder();
  for (const [path, b] of files) {
    bytes += b.byteLength;
    if (!path.endsWith('.jsonl')) continue;
    for (const m of dec.decode(b).matchAll(/"t":"([a-z_]+)"/g)) {
      lines++;
      tables[m[1]] = (tables[m[1]] ?? 0) + 1;
    }
  }
  const rows = store.replica.sharesOf(fingerprint).length;
  replicator.stop();
  await store.close();
  return { fingerprint, files, rounds, published, lines, tables, bytes, rows, compactions, simulate_s: (performance.now() - began) / 1000 };
}
