import { LithosError } from '../../shared/errors';
import type { Logger } from '../../shared/ports';
import type { Interpreter } from '../../shared/retrieval/terrace2';
import type { Sampler } from '../../shared/learning/reflection-wording';
import type { CallOptions, ToolCaller, ToolDef, ToolDispatcher } from '../../shared/tools/types';
import type { BridgeFile } from '../../shared/protocol/bridge-file';
import { discoverHost } from '../relay/host-discovery';
import { RelayClient, type RelayClientOptions } from '../relay/relay-client';
import { headlessHost, type HeadlessHost, type ToolHost } from './headless';
import { relayHost } from './relay-host';

export type BridgeMode = 'unset' | 'relay' | 'headless';

export interface ModeHostOptions {
  vault: string;
  catalog: readonly ToolDef[];
  /** The hello's agent id (the host admits one connection per agent) and the calls' default caller. */
  agent: string | null;
  /** Sent in the hello, so the host can verify the agent (governance/agent-keys.ts). */
  agentKey?: string | null;
  version: string;
  logger: Logger;
  /** How long a call waits for a live host's handshake before giving up on it. Default 5 s. */
  connectWaitMs?: number;
  /** After a live host's bridge.json failed to connect, headless calls skip it this long. Default 10 s. */
  retryAfterMs?: number;
  /**
   * While headless, look for a host this often even when no call comes, so an idle bridge does not keep
   * the vault from the plugin. Default 2 s; 0: only at calls.
   */
  watchMs?: number;
  /** For tests: the relay client's other options (backoff, pings). */
  relay?: Partial<RelayClientOptions>;
  now?: () => number;
}

export interface ModeHost extends ToolHost {
  mode(): BridgeMode;
}

type Route = { kind: 'relay'; host: ToolHost } | { kind: 'headless'; host: HeadlessHost; release(): void };

/**
 * `lithos mcp`'s tool calls, relayed to the plugin when it runs and in-process (headless) otherwise. The
 * choice is made per call, one decision at a time: the first call picks relay when bridge.json names a
 * live host that answers the handshake, else headless. In relay, a dropped connection fails the calls in
 * flight (retryable) and the next call reconnects, or falls back to headless once bridge.json is gone or
 * names a dead pid. In headless, a bridge.json with a live pid makes the next call hand over: wait for the
 * headless calls in flight, flush and close the engine (releasing the writer lock), then relay.
 */
export function modeHost(opts: ModeHostOptions): ModeHost {
  const { logger } = opts;
  const now = opts.now ?? Date.now;
  const connectWaitMs = opts.connectWaitMs ?? 5_000;
  const retryAfterMs = opts.retryAfterMs ?? 10_000;
  let mode: BridgeMode = 'unset';
  let relay: { client: RelayClient; host: ToolHost } | null = null;
  let headless: HeadlessHost | null = null;
  let headlessInFlight = 0;
  let drained: (() => void) | null = null;
  let interpreter: Interpreter | null = null;
  let sampler: Sampler | null = null;
  let failedHost: { pid: number; port: number; at: number; why: string } | null = null;
  let closed = false;
  let mismatchLogged = false;
  let deciding: Promise<unknown> = Promise.resolve();

  let watchTimer: ReturnType<typeof setInterval> | null = null;

  const switchTo = (next: BridgeMode, why: string) => {
    if (next === 'headless') startWatching();
    // The first choice is routine (--verbose shows it); a later switch is news for whoever reads stderr.
    if (mode === 'unset') logger.info(`mode: ${next} (${why})`);
    else if (mode !== next) logger.warn(`mode: switched from ${mode} to ${next} (${why})`);
    mode = next;
  };

  const headlessLease = (): Route => {
    if (!headless) {
      headless = headlessHost(opts.vault, opts.catalog, logger);
      headless.setInterpreter?.(interpreter);
      headless.setSampler?.(sampler);
    }
    headlessInFlight++;
    let released = false;
    return {
      kind: 'headless',
      host: headless,
      release: () => {
        if (released) return;
        released = true;
        if (--headlessInFlight === 0) drained?.();
      },
    };
  };

  /** A connected relay to the host bridge.json names, or null (the reason logged). */
  const tryConnect = async (file: BridgeFile): Promise<{ client: RelayClient; host: ToolHost } | null> => {
    const client = new RelayClient({ ...opts.relay, vaultRoot: opts.vault, agentId: opts.agent, agentKey: opts.agentKey ?? null, bridgeVersion: opts.version, logger, interpreter: () => interpreter, sampler: () => sampler });
    client.start();
    try {
      await client.waitConnected(connectWaitMs);
      failedHost = null;
      return { client, host: relayHost(client, opts.catalog) };
    } catch (err) {
      await client.close();
      const why = (err as Error).message;
      failedHost = { pid: file.pid, port: file.port, at: now(), why };
      logger.warn(`relay: the Lithos host (pid ${file.pid}, port ${file.port}) did not connect: ${why}`);
      return null;
    }
  };

  /** The live host bridge.json announces, or null; a protocol mismatch is an error worth showing. */
  const probe = async (): Promise<BridgeFile | null> => {
    try {
      return await discoverHost(opts.vault, opts.version);
    } catch (err) {
      if (err instanceof LithosError && err.code === 'protocol_mismatch') throw err;
      return null;
    }
  };

  const handOver = async (): Promise<void> => {
    const h = headless;
    if (!h) return;
    headless = null;
    if (headlessInFlight > 0) await new Promise<void>((r) => (drained = r));
    drained = null;
    await h.close(); // flushes the stores and releases the writer lock
  };

  const decide = async (): Promise<Route> => {
    if (closed) throw new LithosError('unavailable', 'The bridge is shutting down.', { retryable: false });
    if (mode === 'relay') {
      if (relay?.client.state === 'connected') return { kind: 'relay', host: relay.host };
      const file = await probe(); // a mismatch (the plugin was upgraded) is this call's error
      const old = relay;
      relay = null;
      // A fresh client rather than the old one's backoff, which may by now wait longer than a call should.
      await old?.client.close();
      if (!file) {
        switchTo('headless', 'the Lithos host is gone: no live bridge.json');
        return headlessLease();
      }
      relay = await tryConnect(file);
      if (!relay) {
        throw new LithosError('unavailable', `The Lithos host (pid ${file.pid}) is running but not accepting this bridge right now: ${failedHost?.why ?? 'no answer'} Retry shortly.`, {
          retryable: true,
        });
      }
      return { kind: 'relay', host: relay.host };
    }
    let file: BridgeFile | null;
    try {
      file = await probe();
    } catch (err) {
      if (mode === 'unset') throw err;
      // Headless already: keep serving (the plugin waits for the lock), and say why no handover happens once.
      if (!mismatchLogged) logger.warn(`relay: ${(err as Error).message}`);
      mismatchLogged = true;
      file = null;
    }
    const skip = file && failedHost && failedHost.pid === file.pid && failedHost.port === file.port && now() - failedHost.at < retryAfterMs;
    if (file && !skip) {
      const connected = await tryConnect(file);
      if (connected) {
        const wasHeadless = headless !== null;
        await handOver();
        relay = connected;
        switchTo('relay', wasHeadless ? `handed over to the Lithos host on port ${file.port}; the headless engine is flushed and closed` : `Lithos host on port ${file.port}`);
        return { kind: 'relay', host: relay.host };
      }
    }
    switchTo('headless', file ? 'the Lithos host did not answer' : 'no Lithos host running: this process opens the vault');
    return headlessLease();
  };

  const route = (): Promise<Route> => {
    const next = deciding.then(decide);
    deciding = next.catch(() => undefined);
    return next;
  };

  /** A decision without a call: hands over when a host has appeared, else just lets the lease go. */
  function startWatching(): void {
    const every = opts.watchMs ?? 2_000;
    if (watchTimer || every <= 0) return;
    watchTimer = setInterval(() => {
      if (mode !== 'headless' || closed) return;
      route().then(
        (r) => (r.kind === 'headless' ? r.release() : undefined),
        (err: unknown) => logger.debug(`mode: idle check failed: ${(err as Error).message}`),
      );
    }, every);
    watchTimer.unref?.();
  }

  const dispatcher: ToolDispatcher = {
    list: () => opts.catalog,
    async call(name: string, args: unknown, caller: ToolCaller, callOpts?: CallOptions): Promise<unknown> {
      const r = await route();
      if (r.kind === 'relay') return r.host.dispatcher.call(name, args, caller, callOpts);
      try {
        return await r.host.dispatcher.call(name, args, caller, callOpts);
      } catch (err) {
        throw explainLocked(err, failedHost?.why);
      } finally {
        r.release();
      }
    },
  };

  return {
    dispatcher,
    mode: () => mode,
    setInterpreter(next) {
      // Headless: the engine takes it. Relay: the hello declares it and the host asks per call (relay-client.ts);
      // the client initializes before its first tool call, so it is known before any connection is made.
      interpreter = next;
      headless?.setInterpreter?.(next);
    },
    setSampler(next) {
      // Headless: the engine takes it. Relay: the host asks during this bridge's calls (a completion that reflects).
      sampler = next;
      headless?.setSampler?.(next);
    },
    async close() {
      closed = true;
      if (watchTimer) clearInterval(watchTimer);
      watchTimer = null;
      await deciding;
      const r = relay;
      const h = headless;
      relay = null;
      headless = null;
      await Promise.all([r?.client.close(), h?.close()]);
    },
  };
}

/**
 * Headless after a live host refused this bridge: the host most likely holds the lock, so the lock error
 * alone would hide the real problem (a bad token, the agent id already connected, …). Say both.
 */
function explainLocked(err: unknown, relayFailure: string | undefined): unknown {
  if (!relayFailure || !(err instanceof LithosError) || err.code !== 'vault_locked') return err;
  return new LithosError('vault_locked', `${err.message} The Lithos host in .lithos/bridge.json did not accept this bridge either: ${relayFailure}`, {
    ...err.data,
    relay_error: relayFailure,
  });
}
