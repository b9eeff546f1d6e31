import type { Logger, SyncFolderPort, Timers } from '../ports';
import type { MemoryStore } from '../stores/memory-store';
import { stampTime } from './hlc';
import type { SyncReport, ThisDevice } from './replicator';

/** A device as `lithos devices` and the plugin's status show it. */
export interface DeviceEntry {
  /** Its folder in the devices folder (the device fingerprint). */
  device: string;
  name: string | null;
  tag: string | null;
  this_device: boolean;
  /** Learned rows it has a share in. */
  rows: number;
  /** When it last changed something it learned (its newest stamp), ISO. */
  last_change: string | null;
  /** When this device last took in its learning, ISO (null for this device, or never). */
  merged_at: string | null;
}

export interface DevicesReport {
  /** The devices folder, or null when the exchange is off. */
  folder: string | null;
  devices: DeviceEntry[];
  /** The last round on this device (what it published, took in, left pending). */
  last: SyncReport | null;
  /** Local changes not yet published. */
  unpublished: number;
}

/** What DeviceSync drives: one Replicator per store whose rows travel. */
export interface Exchange {
  readonly device: ThisDevice;
  readonly last: SyncReport | null;
  sync(): Promise<SyncReport>;
  idle(): Promise<void>;
  pendingChanges(): number;
  onDirty(fn: (() => void) | null): void;
  stop(): void;
}

/** One report of several stores' rounds (memory.sqlite's and coordination.sqlite's). */
export function sumReports(rs: readonly SyncReport[]): SyncReport | null {
  if (rs.length === 0) return null;
  const from = new Map<string, { device: string; name: string | null; lines: number }>();
  for (const r of rs) for (const f of r.from) from.set(f.device, { ...f, lines: (from.get(f.device)?.lines ?? 0) + f.lines });
  const sum = (k: 'published' | 'merged' | 'pending' | 'bad' | 'torn' | 'unknown'): number => rs.reduce((t, r) => t + r[k], 0);
  return { at: Math.max(...rs.map((r) => r.at)), published: sum('published'), merged: sum('merged'), pending: sum('pending'), from: [...from.values()], bad: sum('bad'), torn: sum('torn'), unknown: sum('unknown'), compacted: rs.some((r) => r.compacted) };
}

/** How long after a local change this device publishes it (changes come in bursts: one feedback, many rows). */
export const PUBLISH_QUIET_MS = 5_000;
/** How often a long-running host looks for other devices' files when its host tells it nothing. */
export const POLL_MS = 60_000;

/**
 * When rounds run: at open, a few seconds after local learning, when the host sees the devices folder change
 * (the plugin's vault events), every minute in a long-running host, and at close (so what this device learned
 * is out before it stops). Without a folder every call is a no-op and the report says the exchange is off.
 */
export class DeviceSync {
  private timer: unknown = null;
  private pollTimer: unknown = null;
  private closed = false;
  private synced: ((r: SyncReport) => void) | null = null;

  private readonly replicator: Exchange | null;
  private last: SyncReport | null = null;

  constructor(
    private readonly exchanges: readonly Exchange[],
    private readonly memory: MemoryStore,
    readonly folder: string | null,
    private readonly timers: Timers,
    private readonly logger: Logger,
    /** The devices folder itself (null when off): the ledger's allocations are mirrored there too. */
    readonly files: SyncFolderPort | null = null,
  ) {
    this.replicator = exchanges[0] ?? null;
    for (const x of exchanges) x.onDirty(() => this.schedule());
  }

  /** One round now; null when the exchange is off. A failed round is logged and retried at the next trigger. */
  async sync(): Promise<SyncReport | null> {
    if (!this.replicator || this.closed) return null;
    try {
      const reports: SyncReport[] = [];
      for (const x of this.exchanges) reports.push(await x.sync());
      this.last = sumReports(reports);
      if (this.last) this.synced?.(this.last);
      return this.last;
    } catch (err) {
      this.logger.warn('Exchanging learned state with other devices failed; it is tried again later.', { error: String(err) });
      return null;
    }
  }

  /** Told after every round that ran (the plugin's status shows the last merge); one listener, null removes it. */
  onSynced(fn: ((r: SyncReport) => void) | null): void {
    this.synced = fn;
  }

  /** A round soon (after `ms` of quiet): local learning happened, or the host saw the folder change. */
  schedule(ms = PUBLISH_QUIET_MS): void {
    if (!this.replicator || this.closed) return;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      void this.sync();
    }, ms);
  }

  /** Rounds every `ms` for a long-running host (the plugin, `lithos mcp`). */
  poll(ms = POLL_MS): void {
    if (!this.replicator || this.closed) return;
    const tick = (): void => {
      this.pollTimer = this.timers.setTimeout(() => {
        void this.sync().finally(() => {
          if (!this.closed) tick();
        });
      }, ms);
    };
    tick();
  }

  report(): DevicesReport {
    const me = this.replicator?.device.fingerprint ?? null;
    const infos = new Map(this.memory.replica.devices().map((d) => [d.device, (d.info ?? {}) as Record<string, unknown>]));
    const devices: DeviceEntry[] = [];
    const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
    const totals = this.memory.replica.totals();
    const ids = new Set([...totals.map((t) => t.device), ...infos.keys()]);
    if (me) ids.add(me);
    for (const device of [...ids].sort()) {
      const t = totals.find((x) => x.device === device);
      const info = infos.get(device) ?? {};
      const mine = device === me;
      devices.push({
        device,
        name: mine ? (this.replicator?.device.name ?? null) : typeof info.name === 'string' ? info.name : null,
        tag: mine ? (this.replicator?.device.tag ?? null) : typeof info.tag === 'string' ? info.tag : null,
        this_device: mine,
        rows: t?.rows ?? 0,
        last_change: t ? iso(stampTime(t.newest)) : null,
        merged_at: typeof info.merged_at === 'number' ? iso(info.merged_at) : null,
      });
    }
    return { folder: this.replicator ? this.folder : null, devices, last: this.last, unpublished: this.exchanges.reduce((t, x) => t + x.pendingChanges(), 0) };
  }

  /** Stops the timers and publishes what is left. */
  async close(): Promise<void> {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    if (this.pollTimer !== null) this.timers.clearTimeout(this.pollTimer);
    this.timer = null;
    this.pollTimer = null;
    for (const x of this.exchanges) await x.idle();
    if (this.exchanges.some((x) => x.pendingChanges() > 0)) await this.sync();
    this.closed = true;
    for (const x of this.exchanges) x.stop();
  }
}
