/**
 * Relay round trip against the same call made in-process: a read-like tool (`bench_read`: look the note
 * up, read and parse it from disk, return path, title and body) over an engine at bench scale.
 *
 * The relay side is the real RelayClient (bridge.json discovery, token, handshake, request ids) talking
 * over a loopback websocket to a server that runs the protocol through HostSession, the same host-free
 * code the plugin's BridgeHost runs per message. The bench cannot use BridgeHost itself (bridge/ may not
 * import plugin/); what BridgeHost adds, the upgrade's token and origin checks, happens once per
 * connection, not per call.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import type { MemoryEngine } from '../../shared/engine';
import { LithosError } from '../../shared/errors';
import { BRIDGE_FILE } from '../../shared/protocol/bridge-file';
import { HostSession } from '../../shared/protocol/host-session';
import { HARD_FRAME_BYTES } from '../../shared/protocol/limits';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';
import type { ToolCaller, ToolDef, ToolDispatcher } from '../../shared/tools/types';
import { RelayClient } from '../relay/relay-client';
import { createDispatcher } from '../../shared/tools/dispatcher';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import { Rng } from './rng';
import { percentile } from './stats';

export interface RelayFigures {
  relay_read_p50_ms: number;
  relay_read_p95_ms: number;
  inprocess_read_p95_ms: number;
  /** relay p95 minus in-process p95: what the websocket hop costs (target ≤ 2 ms). */
  relay_overhead_p95_ms: number;
  /** `lithos_retrieve` through the real tool catalog, over the relay and in-process. */
  relay_retrieve_p95_ms: number;
  inprocess_retrieve_p95_ms: number;
}

const CALLER: ToolCaller = { kind: 'agent', agent_id: 'bench' };

/** `bench_read`, shaped like `lithos_read`; every other name goes to the real catalog (lithos_retrieve). */
class BenchDispatcher implements ToolDispatcher {
  private readonly real: ToolDispatcher;

  constructor(private readonly engine: MemoryEngine) {
    this.real = createDispatcher(TOOL_CATALOG, () => ({ gateway: engine }));
  }

  list(): readonly ToolDef[] {
    return [];
  }

  async call(name: string, args: unknown, caller: ToolCaller = CALLER): Promise<unknown> {
    if (name !== 'bench_read') return this.real.call(name, args, caller);
    const path = (args as { path?: unknown } | null)?.path;
    if (name !== 'bench_read' || typeof path !== 'string') throw new LithosError('invalid_argument', 'bench_read takes {path}.');
    if (!this.engine.services.notes.note(path)) throw new LithosError('not_found', `No note at "${path}".`, { path });
    const parsed = await this.engine.services.notes.parse(path);
    return { path, title: parsed.meta.title, body: parsed.body };
  }
}

/** A loopback websocket server speaking the bridge protocol through HostSession; announces itself in bridge.json. */
async function serve(dispatcher: ToolDispatcher, root: string): Promise<{ close(): Promise<void> }> {
  const token = randomBytes(32).toString('hex');
  const wss = new WebSocketServer({ noServer: true, maxPayload: HARD_FRAME_BYTES, perMessageDeflate: false });
  const server = createServer((_req, res) => res.writeHead(426).end());
  server.on('upgrade', (req, socket, head) => {
    if (req.headers.authorization !== `Bearer ${token}`) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const session = new HostSession({ dispatcher, pluginVersion: 'bench', vaultName: 'bench', send: (t) => ws.send(t), close: (c, r) => ws.close(c, r) });
      ws.on('message', (data, isBinary) => session.receive(isBinary ? new Uint8Array(data as Buffer) : (data as Buffer).toString('utf8')));
      ws.on('close', () => session.dispose());
    });
  });
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  const port = (server.address() as { port: number }).port;
  const info = { port, token, pid: process.pid, protocol_version: PROTOCOL_VERSION, plugin_version: 'bench' };
  await writeFile(join(root, '.lithos', BRIDGE_FILE), JSON.stringify(info), { mode: 0o600 });
  return {
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      wss.close();
      await closed;
    },
  };
}

/**
 * `samples` reads of random notes, each made once in-process and once over the relay (interleaved, so
 * disk cache and GC affect both alike), after a warm-up of each.
 */
export async function measureRelayRead(
  engine: MemoryEngine,
  root: string,
  paths: readonly string[],
  samples = 1000,
  seed = 7,
  retrieveQueries: readonly string[] = [],
): Promise<RelayFigures> {
  if (paths.length === 0) throw new LithosError('invalid_argument', 'The relay bench needs at least one note.');
  const dispatcher = new BenchDispatcher(engine);
  const server = await serve(dispatcher, root);
  const client = new RelayClient({ vaultRoot: root, agentId: 'bench', bridgeVersion: 'bench', pingIntervalMs: 0 });
  client.start();
  try {
    await client.waitConnected();
    const rng = new Rng(seed);
    const pick = (): string => paths[rng.int(0, paths.length - 1)];
    for (let i = 0; i < 50; i++) {
      const args = { path: pick() };
      await dispatcher.call('bench_read', args);
      await client.call('bench_read', args, CALLER);
    }
    const local: number[] = [];
    const relay: number[] = [];
    for (let i = 0; i < samples; i++) {
      const args = { path: pick() };
      let t = performance.now();
      await dispatcher.call('bench_read', args);
      local.push(performance.now() - t);
      t = performance.now();
      await client.call('bench_read', args, CALLER);
      relay.push(performance.now() - t);
    }
    const inprocessP95 = percentile(local, 95);
    const relayP95 = percentile(relay, 95);
    // A full retrieval (receipt written) per query, interleaved the same way.
    const localR: number[] = [];
    const relayR: number[] = [];
    for (const q of retrieveQueries) {
      const args = { query_text: q, query_class: 'debug' };
      let t = performance.now();
      await dispatcher.call('lithos_retrieve', args, CALLER);
      localR.push(performance.now() - t);
      t = performance.now();
      await client.call('lithos_retrieve', args, CALLER);
      relayR.push(performance.now() - t);
    }
    return {
      relay_read_p50_ms: percentile(relay, 50),
      relay_read_p95_ms: relayP95,
      inprocess_read_p95_ms: inprocessP95,
      relay_overhead_p95_ms: relayP95 - inprocessP95,
      relay_retrieve_p95_ms: relayR.length ? percentile(relayR, 95) : NaN,
      inprocess_retrieve_p95_ms: localR.length ? percentile(localR, 95) : NaN,
    };
  } finally {
    await client.close();
    await server.close();
  }
}
