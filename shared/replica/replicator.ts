import type { Clock, Logger, SyncFolderPort } from '../ports';
import type { MemoryReplica } from '../stores/memory-replica';
import type { Codec, NodeKeys } from './codec';
import { classify, deviceInfoPath, encodeLines, parseLines, SEGMENT_BYTES, segmentPath, type ShareLine } from './device-files';
import { Hlc } from './hlc';
import { planRound, type RoundPlan } from './round';
import { macrotask } from '../stores/yield-to-host';
import { loadReadMarks, READ_KEY, saveReadMarks } from './read-marks';
import type { Contribution } from './fields';

export interface ThisDevice {
  /** The device fingerprint (stores/device-identity.ts): names its folder. */
  fingerprint: string;
  tag: string;
  /** A name a person recognises ("Obsidian on laptop", "lithos on host"). */
  name: string;
  created: string;
}

/** A store whose rows travel: memory.sqlite (learned signals) or coordination.sqlite (tasks, claims, findings). */
export interface ReplicaHost<Op extends { kind: string }> {
  readonly replica: MemoryReplica<Op>;
  watch(fn: ((op: Op) => void) | null): void;
  /** Changes were replayed from its journal at open: rows may have changed without being noted. */
  readonly replayedAtOpen: boolean;
}

export interface ReplicatorOptions<Op extends { kind: string }> {
  host: ReplicaHost<Op>;
  codecs: readonly Codec<Op>[];
  /** Node ids ↔ portable names (memory.sqlite's node registry). */
  nodes: NodeKeys;
  /** The stream's subfolder in the device's folder: '' for memory.sqlite, `tasks` for coordination.sqlite. */
  stream?: string;
  folder: SyncFolderPort;
  device: ThisDevice;
  clock: Clock;
  logger: Logger;
  onRound?: (r: SyncReport) => void | Promise<void>;
}

/** What one round did. */
export interface SyncReport {
  at: number;
  published: number;
  merged: number;
  pending: number;
  /** Devices whose lines were taken in, with how many. */
  from: { device: string; name: string | null; lines: number }[];
  /** Lines skipped as damaged; a cut-off last line is only counted (it is read whole later). */
  bad: number;
  torn: number;
  unknown: number;
  compacted: boolean;
}

/** When this device's own segments hold this many times the bytes of its shares, they are compacted. */
const COMPACT_RATIO = 4;
const COMPACT_MIN_BYTES = 1024 * 1024;
/** Lines taken in per chunk of a round (about half a second of a busy 2-core machine: docs/scaling.md). */
export const ROUND_CHUNK_LINES = 5_000;
const PUBLISHED = 'published';

const enc = new TextEncoder();
const dec = new TextDecoder();

/**
 * Keeps this device's learned state and every other device's in step through the sync folder
 * (docs/devices.md). Local changes are noted as they apply (MemoryStore.watch); `sync` publishes them as
 * this device's shares, takes in newer shares from the other devices' files and sets each touched row to
 * what all shares combine to. Rounds run one at a time.
 */
export class Replicator<Op extends { kind: string }> {
  private readonly hlc: Hlc;
  private readonly nodes: NodeKeys;
  private readonly host: ReplicaHost<Op>;
  private readonly codecs: ReadonlyMap<string, Codec<Op>>;
  private readonly stream: string;
  private readonly folder: SyncFolderPort;
  readonly device: ThisDevice;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly onRound?: (r: SyncReport) => void | Promise<void>;
  private dirty = new Map<string, Set<string>>();
  private readonly seen = new Map<string, number>();
  /** Per file of this device's: the newest stamp in it. */
  private readonly ownStamps = new Map<string, string>();
  /** The bytes this device's shares took when last encoded for the compaction check (0: not yet). */
  private sharesBytes = 0;
  /** The read marks (read-marks.ts) as last saved, serialised: saved again only when they changed. */
  private savedMarks = '';
  private chain: Promise<unknown> = Promise.resolve();
  private fullPass: boolean;
  private started = false;
  private changed: (() => void) | null = null;
  last: SyncReport | null = null;

  constructor(o: ReplicatorOptions<Op>) {
    this.host = o.host;
    this.codecs = new Map(o.codecs.map((c) => [c.t, c]));
    this.stream = o.stream ?? '';
    this.folder = o.folder;
    this.device = o.device;
    this.logger = o.logger;
    this.clock = o.clock;
    this.onRound = o.onRound;
    this.nodes = o.nodes;
    this.hlc = new Hlc(o.clock, o.device.fingerprint);
    // A device that has published nothing yet offers all it has learned; after a crash, rows may have
    // changed without being noted.
    // One indexed look-up: opening must neither decode nor count every share.
    const newest = o.host.replica.newestOf(o.device.fingerprint);
    this.fullPass = o.host.replayedAtOpen || newest === null;
    if (newest !== null) this.hlc.observe(newest);
    // Where the last run stopped reading each file: an open reads only what grew since.
    const marks = loadReadMarks(this.ownInfo());
    for (const [p, n] of marks.seen) this.seen.set(p, n);
    for (const [p, h] of marks.own) this.ownStamps.set(p, h);
    this.savedMarks = JSON.stringify(saveReadMarks(marks));
    o.host.watch((op) => {
      for (const c of this.codecs.values()) {
        const keys = c.touched(o.host.replica.db, op);
        if (keys.length === 0) continue;
        const set = this.dirty.get(c.t) ?? new Set<string>();
        for (const k of keys) set.add(k);
        this.dirty.set(c.t, set);
        this.changed?.();
      }
    });
  }

  /** Called whenever a local change is noted (DeviceSync publishes a few seconds later). */
  onDirty(fn: (() => void) | null): void {
    this.changed = fn;
  }

  /** Resolves once the round under way (if any) is done. */
  idle(): Promise<void> {
    return this.chain.then(() => undefined);
  }

  /** Rows changed here and not yet published. */
  pendingChanges(): number {
    let n = 0;
    for (const s of this.dirty.values()) n += s.size;
    return n;
  }

  /** One round: publish, take in, write this device's new lines. */
  sync(): Promise<SyncReport> {
    const run = this.chain.then(() => this.round());
    this.chain = run.catch(() => undefined);
    return run;
  }

  stop(): void {
    this.host.watch(null);
  }

  private async round(): Promise<SyncReport> {
    const me = this.device.fingerprint;
    if (!this.started) {
      await this.writeDeviceInfo();
      this.started = true;
    }
    const files = await this.folder.list();
    const present = new Set(files.map((f) => f.path));
    for (const p of [...this.ownStamps.keys()]) if (!present.has(p)) this.ownStamps.delete(p);
    for (const p of [...this.seen.keys()]) if (!present.has(p)) this.seen.delete(p);
    const readBefore = { seen: new Map(this.seen), own: new Map(this.ownStamps) };
    const unread = (): void => {
      // Lines read but not taken in: read again next round.
      this.seen.clear();
      this.ownStamps.clear();
      for (const [p, n] of readBefore.seen) this.seen.set(p, n);
      for (const [p, h] of readBefore.own) this.ownStamps.set(p, h);
    };
    let read;
    try {
      read = await this.readLines(files);
    } catch (err) {
      unread();
      throw err;
    }
    const { lines, bad, torn, names } = read;
    for (const l of lines) this.hlc.observe(l.h);
    if (this.fullPass) {
      for (const c of this.codecs.values()) this.dirty.set(c.t, new Set([...(this.dirty.get(c.t) ?? []), ...c.all(this.host.replica.db)]));
      this.fullPass = false;
    }
    // Lines are taken in a chunk at a time, the host getting a turn between chunks: a long absence does not hold
    // the event loop for the whole merge. Within a chunk, from plan to write, nothing awaits, so no local change
    // comes between them; each chunk first publishes what changed here meanwhile.
    const total: RoundPlan<Op> = { ops: [], published: 0, merged: 0, pending: 0, unknown: 0, accepted: new Map() };
    for (let from = 0; ; from += ROUND_CHUNK_LINES) {
      const chunk = lines.slice(from, from + ROUND_CHUNK_LINES);
      // Local changes too, at most a chunk's worth at a time (a first round offers everything learned so far).
      const dirty = this.takeDirty(ROUND_CHUNK_LINES);
      const last = from + ROUND_CHUNK_LINES >= lines.length && this.pendingChanges() === 0;
      let plan;
      try {
        plan = planRound({ replica: this.host.replica, codecs: this.codecs, nodes: this.nodes, me, stamp: () => this.hlc.now(), dirty, lines: chunk });
      } catch (err) {
        this.restoreDirty(dirty);
        unread();
        throw err;
      }
      // The read marks go in the same write as the last of the shares those lines brought (a crash before it
      // reads them all again: taking a share in twice changes nothing).
      const marks = last ? this.marksRow() : null;
      const ops = marks ? [...plan.ops, { kind: 'replica_device' as const, row: marks.row }] : plan.ops;
      try {
        await this.host.replica.write(() => ops);
      } catch (err) {
        this.restoreDirty(dirty);
        unread();
        throw err;
      }
      if (marks) this.savedMarks = marks.saved;
      total.published += plan.published;
      total.merged += plan.merged;
      total.pending += plan.pending;
      total.unknown += plan.unknown;
      for (const [d, n] of plan.accepted) total.accepted.set(d, (total.accepted.get(d) ?? 0) + n);
      if (last) break;
      await macrotask();
    }
    const plan = total;
    const compacted = await this.publish(files);
    const report: SyncReport = {
      at: this.clock.now(),
      published: plan.published,
      merged: plan.merged,
      pending: plan.pending,
      from: [...plan.accepted].filter(([d]) => d !== me).map(([device, n]) => ({ device, name: names.get(device) ?? null, lines: n })),
      bad,
      torn,
      unknown: plan.unknown,
      compacted,
    };
    await this.recordDevices(report, names);
    this.last = report;
    if (this.onRound) await this.onRound(report);
    return report;
  }

  /** Up to `max` of the rows changed here, taken out of `dirty` (the rest wait for the next chunk). */
  private takeDirty(max: number): Map<string, Set<string>> {
    if (this.pendingChanges() <= max) {
      const all = this.dirty;
      this.dirty = new Map();
      return all;
    }
    const out = new Map<string, Set<string>>();
    let n = 0;
    for (const [t, keys] of this.dirty) {
      const take = new Set<string>();
      for (const k of keys) {
        if (n >= max) break;
        take.add(k);
        n++;
      }
      for (const k of take) keys.delete(k);
      if (keys.size === 0) this.dirty.delete(t);
      if (take.size > 0) out.set(t, take);
      if (n >= max) break;
    }
    return out;
  }

  private restoreDirty(dirty: Map<string, Set<string>>): void {
    for (const [t, keys] of dirty) {
      const set = this.dirty.get(t) ?? new Set<string>();
      for (const k of keys) set.add(k);
      this.dirty.set(t, set);
    }
  }

  /** New lines of every device's segments (and conflict copies), reading only what grew since last time. */
  private async readLines(files: { path: string; size: number }[]): Promise<{ lines: (ShareLine & { device: string })[]; bad: number; torn: number; names: Map<string, string> }> {
    const newest = new Map<string, ShareLine & { device: string }>();
    const names = new Map<string, string>();
    let bad = 0;
    let torn = 0;
    for (const f of files) {
      const c = classify(f.path);
      if (!c) continue;
      if (f.path === deviceInfoPath(c.device)) {
        const bytes = await this.folder.read(f.path);
        try {
          const info = JSON.parse(dec.decode(bytes ?? new Uint8Array())) as { name?: unknown };
          if (typeof info.name === 'string') names.set(c.device, info.name);
        } catch {
          // a half-synced device.json: its name shows next time
        }
        continue;
      }
      if (!c.lines || c.stream !== this.stream || this.seen.get(f.path) === f.size) continue;
      const bytes = await this.folder.read(f.path);
      if (!bytes) continue;
      const from = this.seen.get(f.path) ?? 0;
      // Segments only grow; a smaller file was replaced (compaction, a restored backup): read it all.
      const start = from > 0 && from <= bytes.byteLength && bytes[from - 1] === 0x0a ? from : 0;
      const parsed = parseLines(bytes.subarray(start));
      bad += parsed.bad;
      if (parsed.torn) torn++;
      // Only the newest line per row and device counts (planRound): a month of lines is held as its rows.
      for (const l of parsed.lines) {
        const id = `${c.device}\u0000${l.t}\u0000${l.k}`;
        const prev = newest.get(id);
        if (!prev || l.h > prev.h) newest.set(id, { ...l, device: c.device });
      }
      if (c.device === this.device.fingerprint) {
        let best = start === 0 ? '' : (this.ownStamps.get(f.path) ?? '');
        for (const l of parsed.lines) if (l.h > best) best = l.h;
        this.ownStamps.set(f.path, best);
      }
      // Up to the last complete line: a cut-off line is read again once whole.
      const lastNl = bytes.lastIndexOf(0x0a);
      this.seen.set(f.path, lastNl + 1);
    }
    return { lines: [...newest.values()], bad, torn, names };
  }

  /** Appends this device's shares not yet in its files; compacts its segments when they have grown large. */
  private async publish(files: { path: string; size: number }[]): Promise<boolean> {
    const me = this.device.fingerprint;
    const mark = this.host.replica.devices().find((d) => d.device === me);
    const through = ((mark?.info ?? {}) as { [PUBLISHED]?: string })[PUBLISHED] ?? '';
    const own = files.map((f) => ({ ...f, c: classify(f.path) })).filter((f) => f.c?.device === me && f.c.stream === this.stream && f.c.segment !== null);
    const newest = own.reduce((m, f) => Math.max(m, f.c?.segment ?? 0), 0);
    // A restored (older) copy of this device's files lacks lines it had written: write them all again.
    const ownNewest = this.ownNewestStamp();
    const restore = through !== '' && own.length > 0 && ownNewest !== null && ownNewest < through;
    const fresh = this.host.replica.sharesOf(me, restore ? '' : through);
    if (fresh.length === 0) return false;
    const lines = fresh.map((s) => ({ h: s.stamp, t: s.tbl, k: s.key, c: s.share as Contribution }));
    const bytes = encodeLines(lines);
    const ownBytes = own.reduce((t, f) => t + f.size, 0);
    let compacted = false;
    // Encoding every share is the cost of a check (O(rows), not O(lines) of this round): done only once the files
    // have grown past the ratio of the size last measured, so not on every round of a busy device.
    const stamp = lines[lines.length - 1].h;
    if (ownBytes > COMPACT_MIN_BYTES && ownBytes > COMPACT_RATIO * this.sharesBytes) {
      const shares = this.host.replica.sharesOf(me);
      const all = encodeLines(shares.map((s) => ({ h: s.stamp, t: s.tbl, k: s.key, c: s.share as Contribution })));
      this.sharesBytes = all.byteLength;
      if (ownBytes > COMPACT_RATIO * all.byteLength) {
        // The new segment holds every share this device has: removing the older ones loses nothing.
        const path = segmentPath(me, newest + 1, this.stream);
        await this.folder.writeAtomic(path, all);
        for (const f of own) {
          await this.folder.remove(f.path);
          this.seen.delete(f.path);
          this.ownStamps.delete(f.path);
        }
        this.wrote(path, 0, all.byteLength, shares[shares.length - 1]?.stamp ?? stamp);
        compacted = true;
      }
    }
    if (!compacted) {
      const current = own.find((f) => f.c?.segment === newest);
      const target = !current || current.size + bytes.byteLength > SEGMENT_BYTES ? newest + 1 : newest;
      const path = segmentPath(me, Math.max(1, target), this.stream);
      await this.folder.append(path, bytes);
      this.wrote(path, target === newest ? (current?.size ?? 0) : 0, bytes.byteLength, stamp);
    }
    const saved = JSON.stringify(saveReadMarks({ seen: this.seen, own: this.ownStamps }));
    await this.host.replica.write(() => [{ kind: 'replica_device', row: { device: me, info: { ...((mark?.info ?? {}) as Record<string, unknown>), [PUBLISHED]: stamp, [READ_KEY]: JSON.parse(saved) as unknown } } }]);
    this.savedMarks = saved;
    return compacted;
  }

  /**
   * This device wrote `added` bytes at `from` of its file `path`: when it had read that file up to there, its
   * own lines need no reading back (their shares are here); otherwise the next round reads the file.
   */
  private wrote(path: string, from: number, added: number, stamp: string): void {
    if ((this.seen.get(path) ?? 0) !== from) return;
    this.seen.set(path, from + added);
    const h = this.ownStamps.get(path);
    if (h === undefined || stamp > h) this.ownStamps.set(path, stamp);
  }

  private ownInfo(): Record<string, unknown> {
    return (this.host.replica.devices().find((d) => d.device === this.device.fingerprint)?.info ?? {}) as Record<string, unknown>;
  }

  /** This device's row with its read marks, when they changed since they were last saved. */
  private marksRow(): { row: { device: string; info: Record<string, unknown> }; saved: string } | null {
    const saved = JSON.stringify(saveReadMarks({ seen: this.seen, own: this.ownStamps }));
    if (saved === this.savedMarks) return null;
    return { row: { device: this.device.fingerprint, info: { ...this.ownInfo(), [READ_KEY]: JSON.parse(saved) as unknown } }, saved };
  }

  /** The newest stamp this device's files now hold (null when it has none). */
  private ownNewestStamp(): string | null {
    let best: string | null = null;
    for (const h of this.ownStamps.values()) if (best === null || h > best) best = h;
    return best;
  }

  private async writeDeviceInfo(): Promise<void> {
    const d = this.device;
    const body = enc.encode(`${JSON.stringify({ tag: d.tag, name: d.name, created: d.created }, null, 2)}\n`);
    const current = await this.folder.read(deviceInfoPath(d.fingerprint));
    if (!current || dec.decode(current) !== dec.decode(body)) await this.folder.writeAtomic(deviceInfoPath(d.fingerprint), body);
  }

  /** Keeps, per device, its name and when its learning was last taken in (`lithos devices`). */
  private async recordDevices(r: SyncReport, names: Map<string, string>): Promise<void> {
    const known = new Map(this.host.replica.devices().map((d) => [d.device, (d.info ?? {}) as Record<string, unknown>]));
    const rows: { device: string; info: Record<string, unknown> }[] = [];
    for (const [device, name] of names) {
      const info = known.get(device) ?? {};
      const merged = r.from.find((f) => f.device === device);
      if (info.name === name && !merged) continue;
      rows.push({ device, info: { ...info, name, ...(merged ? { merged_at: r.at, merged_lines: Number(info.merged_lines ?? 0) + merged.lines } : {}) } });
    }
    if (rows.length > 0) await this.host.replica.write(() => rows.map((row) => ({ kind: 'replica_device' as const, row })));
    if (r.from.length > 0) this.logger.info('Learning from other devices merged.', { from: r.from.map((f) => f.name ?? f.device), rows: r.merged });
  }
}
