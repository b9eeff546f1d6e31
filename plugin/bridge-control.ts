import { asLithosError, LithosError } from '../shared/errors';
import type { Logger } from '../shared/ports';
import type { ToolDispatcher } from '../shared/tools/types';
import { BridgeHost, type BridgeHostOptions } from './bridge-host/bridge-host';

/** What the status bar shows for the bridge. */
export type BridgeState =
  | { kind: 'off' }
  | { kind: 'unsupported'; reason: string }
  | { kind: 'starting' }
  | { kind: 'listening'; port: number; agents: string[] }
  | { kind: 'error'; message: string };

/** The part of BridgeHost this drives (tests may hand in a host that records calls). */
export type BridgeHostLike = Pick<BridgeHost, 'start' | 'stop' | 'regenerateToken' | 'port'>;

export interface BridgeControlDeps {
  /** Node APIs exist (Obsidian desktop); on mobile every start is refused as unsupported. */
  desktop: boolean;
  /** Absolute path of `<vault>/.lithos`, or null when the vault adapter has no folder on disk. */
  lithosDir(): string | null;
  vaultName: string;
  pluginVersion: string;
  dispatcher: ToolDispatcher;
  logger: Logger;
  onState(state: BridgeState): void;
  makeHost?: (opts: BridgeHostOptions) => BridgeHostLike;
}

/**
 * Starts and stops the plugin's websocket host to match the settings. Operations run one at a time, in
 * call order, so toggling quickly never leaves two hosts or a stale bridge.json.
 */
export class BridgeControl {
  private host: BridgeHostLike | null = null;
  private hostPort: number | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private current: BridgeState = { kind: 'off' };

  constructor(private readonly deps: BridgeControlDeps) {
    if (!deps.desktop) this.current = { kind: 'unsupported', reason: 'The bridge needs Obsidian desktop (Node); it is not available on mobile.' };
  }

  get state(): BridgeState {
    return this.current;
  }

  get running(): boolean {
    return this.host !== null;
  }

  /** Brings the host in line with `enabled`/`port`: starts, stops, or restarts on another port. */
  apply(enabled: boolean, port: number): Promise<void> {
    return this.serial(async () => {
      if (!enabled) return this.doStop();
      if (this.host && this.hostPort === port) return;
      await this.doStop();
      await this.doStart(port);
    });
  }

  stop(): Promise<void> {
    return this.serial(() => this.doStop());
  }

  /** A new token; a running host rewrites bridge.json and drops current connections (they reconnect). */
  regenerateToken(): Promise<void> {
    return this.serial(async () => {
      const host = this.host ?? this.makeHost(this.requireDir(), 0);
      await host.regenerateToken();
    });
  }

  private serial(op: () => Promise<void>): Promise<void> {
    const next = this.chain.then(op);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private requireDir(): string {
    if (!this.deps.desktop) throw new LithosError('unsupported', 'The Lithos bridge needs Obsidian desktop; it is not available on mobile.');
    const dir = this.deps.lithosDir();
    if (!dir) throw new LithosError('unsupported', 'The Lithos bridge needs a vault that is a folder on disk.');
    return dir;
  }

  private makeHost(dir: string, port: number): BridgeHostLike {
    const opts: BridgeHostOptions = {
      lithosDir: dir,
      vaultName: this.deps.vaultName,
      pluginVersion: this.deps.pluginVersion,
      dispatcher: this.deps.dispatcher,
      port,
      logger: this.deps.logger,
      onAgentsChanged: (agents) => {
        if (this.current.kind === 'listening') this.set({ ...this.current, agents });
      },
    };
    return this.deps.makeHost ? this.deps.makeHost(opts) : new BridgeHost(opts);
  }

  private async doStart(port: number): Promise<void> {
    let dir: string;
    try {
      dir = this.requireDir();
    } catch (err) {
      this.set({ kind: 'error', message: asLithosError(err).message });
      throw err;
    }
    this.set({ kind: 'starting' });
    const host = this.makeHost(dir, port);
    try {
      const r = await host.start();
      this.host = host;
      this.hostPort = port;
      this.set({ kind: 'listening', port: r.port, agents: [] });
    } catch (err) {
      const e = asLithosError(err);
      this.deps.logger.error('the bridge host could not start', { error: e.toJSON() });
      this.set({ kind: 'error', message: `The bridge could not start: ${e.message}` });
      throw e;
    }
  }

  private async doStop(): Promise<void> {
    const host = this.host;
    this.host = null;
    this.hostPort = null;
    if (host) await host.stop();
    if (this.deps.desktop) this.set({ kind: 'off' });
  }

  private set(s: BridgeState): void {
    this.current = s;
    this.deps.onState(s);
  }
}
