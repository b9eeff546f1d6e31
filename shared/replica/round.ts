import type { ReplicaOp, ShareRow } from '../stores/replica-rows';
import type { MemoryReplica } from '../stores/memory-replica';
import type { Codec, NodeKeys } from './codec';
import { SEP } from './codec';
import type { ShareLine } from './device-files';
import { combine, diffShare, sameValue, type Contribution, type RowValues, type Shares } from './fields';

export interface RoundInput<Op extends { kind: string }> {
  replica: MemoryReplica<Op>;
  /** The tables that travel, by their name in the files. */
  codecs: ReadonlyMap<string, Codec<Op>>;
  nodes: NodeKeys;
  me: string;
  stamp: () => string;
  /** Local rows changed since the last round, by table: local keys. */
  dirty: ReadonlyMap<string, ReadonlySet<string>>;
  /** Lines read from the devices' files (this device's own too: they restore a lost memory.sqlite). */
  lines: readonly (ShareLine & { device: string })[];
}

export interface RoundPlan<Op> {
  ops: (Op | ReplicaOp)[];
  /** This device's shares that changed (to append to its files). */
  published: number;
  /** Rows whose value changed here because of another device's share. */
  merged: number;
  /** Rows whose shares arrived but whose notes are not on this device yet. */
  pending: number;
  /** Lines naming a table this version does not know (a newer device's): kept for later, not applied. */
  unknown: number;
  /** Per device, the lines accepted from it. */
  accepted: Map<string, number>;
}

const rowId = (t: string, k: string): string => `${t}${SEP}${k}`;

/**
 * One replication round, planned synchronously so that no local change slips in between (the caller applies
 * `ops` in one journaled mutation): first this device's changed rows become its new shares ("my row minus
 * what the others' shares already put in it"), then newer shares from other devices are taken in, then every
 * touched row is set to what all shares combine to — the same value on every device that holds the same shares.
 */
export function planRound<Op extends { kind: string }>(inp: RoundInput<Op>): RoundPlan<Op> {
  const { replica, nodes, me } = inp;
  const plan: RoundPlan<Op> = { ops: [], published: 0, merged: 0, pending: 0, unknown: 0, accepted: new Map() };
  const touched = new Map<string, { codec: Codec<Op>; key: string; local: string | null; dirty: boolean }>();
  const incoming = new Map<string, Map<string, ShareLine>>();

  for (const [t, keys] of inp.dirty) {
    const codec = inp.codecs.get(t);
    if (!codec) continue;
    for (const local of keys) {
      const key = codec.toPortable(local, nodes);
      if (key !== null) touched.set(rowId(t, key), { codec, key, local, dirty: true });
    }
  }
  for (const line of inp.lines) {
    const codec = inp.codecs.get(line.t);
    if (!codec) {
      plan.unknown++;
      continue;
    }
    const stored = replica.share(line.t, line.k, line.device);
    if (stored && stored.stamp >= line.h) continue;
    const id = rowId(line.t, line.k);
    const per = incoming.get(id) ?? new Map<string, ShareLine>();
    const prev = per.get(line.device);
    if (prev && prev.h >= line.h) continue;
    per.set(line.device, line);
    incoming.set(id, per);
    if (!touched.has(id)) touched.set(id, { codec, key: line.k, local: null, dirty: false });
  }
  for (const p of replica.pending()) {
    const codec = inp.codecs.get(p.tbl);
    const id = rowId(p.tbl, p.key);
    if (codec && !touched.has(id)) touched.set(id, { codec, key: p.key, local: null, dirty: false });
  }

  const shareRows: ShareRow[] = [];
  const applied: { tbl: string; key: string }[] = [];
  for (const [id, row] of touched) {
    const { codec, key } = row;
    const t = codec.t;
    const local = row.local ?? codec.toLocal(key, nodes);
    const stored = replica.shares(t, key);
    const shares = new Map<string, { share: Contribution; applied: boolean }>(stored.map((s) => [s.device, { share: s.share as Contribution, applied: s.applied }]));
    let value: RowValues | null = null;
    if (local !== null) value = codec.read(replica.db, local, nodes);
    let publishedNow = false;
    if (row.dirty && local !== null) {
      const others: Shares = stored.filter((s) => s.device !== me && s.applied).map((s) => [s.device, s.share as Contribution] as const);
      const mine = shares.get(me)?.share;
      const next = diffShare(codec.fields, value, others, mine, inp.stamp);
      if (next) {
        publishedNow = true;
        shares.set(me, { share: next, applied: true });
        shareRows.push({ device: me, tbl: t, key, stamp: next.a[1], share: next, applied: true });
        plan.published++;
      }
    }
    let fromOthers = false;
    for (const [device, line] of incoming.get(id) ?? []) {
      // This device's own line newer than its stored share (a memory.sqlite restored or carried from elsewhere) is
      // taken back, unless this round just wrote a newer share from the row itself.
      if (device === me && publishedNow) continue;
      shares.set(device, { share: line.c, applied: false });
      shareRows.push({ device, tbl: t, key, stamp: line.h, share: line.c, applied: false });
      plan.accepted.set(device, (plan.accepted.get(device) ?? 0) + 1);
      fromOthers = true;
    }
    if (local === null) {
      if ([...shares.values()].some((s) => !s.applied)) plan.pending++;
      continue;
    }
    const combined = combine(codec.fields, [...shares].map(([d, s]) => [d, s.share] as const));
    if (!sameRows(codec, value, combined)) {
      plan.ops.push(...codec.write(replica.db, local, combined, nodes));
      if (fromOthers || [...shares.values()].some((s) => !s.applied)) plan.merged++;
    }
    if (stored.some((s) => !s.applied) || fromOthers) applied.push({ tbl: t, key });
  }
  // Shares first: a row op below may read them back; `applied` last, after the incoming rows were written.
  const done = new Set(applied.map((a) => rowId(a.tbl, a.key)));
  if (shareRows.length > 0) plan.ops.unshift({ kind: 'shares', rows: shareRows.map((r) => (done.has(rowId(r.tbl, r.key)) ? { ...r, applied: true } : r)) });
  if (applied.length > 0) plan.ops.push({ kind: 'shares_applied', keys: applied });
  return plan;
}

function sameRows<Op>(codec: Codec<Op>, a: RowValues | null, b: RowValues | null): boolean {
  if (a === null || b === null) return a === b;
  return Object.keys(codec.fields).every((f) => sameValue(a[f], b[f]));
}
