/**
 * The bench's convergence phase (issue 22, docs/devices.md): 2 and then 5 devices, each with its own
 * memory.sqlite, learn different things — feedback on notes, reinforced edges, co-use, a contradiction one opens
 * and another resolves — and exchange their files in a seeded random order, with duplicates, cut-off copies and
 * sync-tool conflict copies, until every file has travelled. Says how long the rounds took and whether every
 * device ended with the same learned state (it must: the specs in test/replica hold it).
 */
import { learnedState } from '../../shared/replica/learned-state';
import { stableJson } from '../../shared/replica/fields';
import { learnedReplicator } from '../../shared/replica/learned-replicator';
import type { Replicator } from '../../shared/replica/replicator';
import { silentLogger, type Clock } from '../../shared/ports';
import { MemoryStore } from '../../shared/stores/memory-store';
import type { MemoryOp } from '../../shared/stores/memory-types';
import { cliTimers } from '../eval/headless-engine';
import { loadSqlJs } from '../sql';
import { MemoryBlobs, MemoryFolder } from './memory-ports';
import { Rng } from './rng';
import { timed } from './stats';

export interface ConvergeFigures {
  /** Devices, notes each holds, learning steps per device. */
  devices: number;
  notes: number;
  steps: number;
  /** Every round of every device, summed (ms), and how many rounds. */
  rounds_ms: number;
  rounds: number;
  /** Lines written into all the devices' files. */
  lines: number;
  /** 1 when every device ended with the same learned state, else 0. */
  converged: number;
}

interface Sim {
  fp: string;
  store: MemoryStore;
  folder: MemoryFolder;
  replicator: Replicator<MemoryOp>;
  ids: string[];
}

const FP = 'abcdefghijklmnopqrstuvwxyz234567';

async function learn(d: Sim, i: number, rng: Rng, steps: number, now: () => number): Promise<void> {
  const pick = (): string => d.ids[Math.floor(rng.next() * d.ids.length)];
  for (let s = 0; s < steps; s++) {
    const [a, b] = [pick(), pick()];
    const st = d.store.stats.get(a);
    await d.store.stats.update(a, { use_count: st.use_count + 1, salience: Math.min(1, st.salience + 0.01), last_used_at: now() });
    if (a === b) continue;
    const e = d.store.edges.find({ from: a }).find((x) => x.to_id === b && x.type === 'related_to');
    await d.store.edges.upsert({ from_id: a, to_id: b, type: 'related_to', weight: Math.min(1, (e?.weight ?? 0) + 0.05), namespace: 'default', provenance_actor: `device ${i}`, provenance_type: 'rule', evidence: null, conflict_state: null });
    await d.store.coactivation.bump(a, b, 'default', now());
  }
}

/** Runs the exchange for `n` devices over `notes` notes; seeded, so the same figures' counts on every machine. */
export async function measureConvergence(n: number, seed: number, notes = 500, steps = 200): Promise<ConvergeFigures> {
  const sql = await loadSqlJs();
  const rng = new Rng((seed ^ 0x2545f491) >>> 0);
  const paths = Array.from({ length: notes }, (_, k) => `notes/n${k}.md`);
  const sims: Sim[] = [];
  for (let i = 0; i < n; i++) {
    let t = 1_800_000_000_000 + i * 7;
    const clock: Clock = { now: () => (t += 1) };
    const { store } = await MemoryStore.open({ sql, blobs: new MemoryBlobs(), clock, timers: cliTimers, logger: silentLogger, debounceMs: 3_600_000 });
    await store.batch(async () => {
      for (const p of paths) await store.nodes.register({ node_id: crypto.randomUUID(), path: p, id_source: 'registry', content_hash: null });
    });
    const fp = FP[i].repeat(16);
    const folder = new MemoryFolder();
    const replicator = learnedReplicator(store, folder, { fingerprint: fp, tag: fp.slice(0, 4), name: `device ${i}`, created: '2026-11-27T00:00:00.000Z' }, clock, silentLogger);
    sims.push({ fp, store, folder, replicator, ids: paths.map((p) => store.nodes.byPath(p)?.node_id ?? '') });
  }
  let roundsMs = 0;
  let rounds = 0;
  const sync = async (d: Sim): Promise<void> => {
    roundsMs += (await timed(() => d.replicator.sync())).ms;
    rounds++;
  };
  const carryAll = (): void => {
    for (const from of sims) for (const [p, bytes] of from.folder.entries()) if (p.startsWith(`${from.fp}/`)) for (const to of sims) if (to !== from) void to.folder.writeAtomic(p, bytes);
  };
  for (const [i, d] of sims.entries()) {
    await learn(d, i, rng, steps, () => 1_800_000_000_000 + i);
    await sync(d);
  }
  // A contradiction the last device opens and the first resolves once it has travelled.
  const opener = sims[n - 1];
  await opener.store.edges.upsert({ from_id: opener.ids[0], to_id: opener.ids[1], type: 'contradicts', weight: 1, namespace: 'default', provenance_actor: 'detector', provenance_type: 'rule', evidence: null, conflict_state: 'open' });
  await sync(opener);
  carryAll();
  for (const d of sims) await sync(d);
  const resolver = sims[0];
  const open = resolver.store.edges.find({ from: resolver.ids[0] }).find((e) => e.type === 'contradicts');
  if (open) await resolver.store.edges.upsert({ ...open, conflict_state: 'resolved' });
  for (const [i, d] of sims.entries()) {
    await learn(d, i, rng, steps, () => 1_800_000_100_000 + i);
    await sync(d);
  }
  for (let step = 0; step < 40 * n; step++) {
    const [from, to] = [sims[Math.floor(rng.next() * n)], sims[Math.floor(rng.next() * n)]];
    if (from === to) continue;
    const files = from.folder.entries().filter(([p]) => !p.includes('conflict'));
    if (files.length === 0) continue;
    const [path, bytes] = files[Math.floor(rng.next() * files.length)];
    const roll = rng.next();
    if (roll < 0.2 && bytes.byteLength > 2) await to.folder.writeAtomic(path, bytes.slice(0, 1 + Math.floor(rng.next() * (bytes.byteLength - 1))));
    else if (roll < 0.3 && path.endsWith('.jsonl')) await to.folder.writeAtomic(path.replace('.jsonl', ' (conflict 2026-11-27 101010).jsonl'), bytes);
    else await to.folder.writeAtomic(path, bytes);
    if (rng.next() < 0.5) await sync(to);
  }
  for (let pass = 0; pass < 2; pass++) {
    carryAll();
    for (const d of sims) await sync(d);
  }
  const states = sims.map((d) => stableJson(learnedState(d.store)));
  let lines = 0;
  for (const d of sims) for (const [p, bytes] of d.folder.entries()) if (p.startsWith(`${d.fp}/`) && p.endsWith('.jsonl')) lines += bytes.reduce((c, b) => c + (b === 0x0a ? 1 : 0), 0);
  for (const d of sims) await d.store.close();
  return { devices: n, notes, steps, rounds_ms: roundsMs, rounds, lines, converged: states.every((s) => s === states[0]) ? 1 : 0 };
}
