import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import { LithosError } from '../../shared/errors';
import { silentLogger, type Logger } from '../../shared/ports';
import { CLOSE_CODES, type Hello } from '../../shared/protocol/handshake';
import { HostSession } from '../../shared/protocol/host-session';
import { DEFAULT_CALL_DEADLINE_MS, HARD_FRAME_BYTES, utf8ByteLength } from '../../shared/protocol/limits';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';
import type { ToolDispatcher } from '../../shared/tools/types';
import { removeBridgeFile, writeBridgeFile } from './bridge-file-writer';
import { loadHostRuntime, type HostRuntime } from './host-runtime';
import { loadOrCreateToken, newToken, saveToken, tokenDigest } from './token';
import { checkUpgrade, type Refusal } from './upgrade-check';

/** Tried first; when taken, the OS picks a free port (bridge.json always names the real one). */
export const DEFAULT_BRIDGE_PORT = 27_183;
/**
 * Open sockets at most (admitted or not). Loopback is reachable by every local user, token or not: without
 * a bound, a flood of idle sockets exhausts the file descriptors of the whole Obsidian process.
 */
export const MAX_SOCKETS = 64;
/** A connection whose reader falls this far behind (unsent bytes) is closed rather than buffered without end. */
export const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;
/** Refused connections are logged at most this often (each refusal would otherwise be a console line). */
const REFUSAL_LOG_MS = 10_000;
const LOOPBACK = '127.0.0.1';

export interface BridgeHostOptions {
  /** `<vault>/.lithos`: holds bridge.json and the token; must already exist (the engine creates it). */
  lithosDir: string;
  vaultName: string;
  pluginVersion: string;
  dispatcher: ToolDispatcher;
  /** Preferred port; 0 asks the OS for any free one. Default DEFAULT_BRIDGE_PORT. */
  port?: number;
  logger?: Logger;
  /** Ceiling on each call's deadline. Default 45 s. */
  maxDeadlineMs?: number;
  /** A connection must say hello within this. Default 10 s. */
  handshakeTimeoutMs?: number;
  /** A connection that misses a websocket pong for this long is dropped (frees its agent id). Default 15 s. */
  heartbeatMs?: number;
  /** After an agent connects or disconnects, with the connected agent ids (the plugin's status bar). */
  onAgentsChanged?: (agentIds: string[]) => void;
}

interface Connection {
  ws: WebSocket;
  session: HostSession;
  agentId: string | null;
  since: string;
  alive: boolean;
  handshakeTimer: ReturnType<typeof setTimeout>;
}

/**
 * The plugin's websocket server: agents' bridges reach the vault's engine through it. Loopback only,
 * bearer token checked at the upgrade, browser origins refused, one connection per agent id (a second
 * one for a connected agent is refused, so a live connection is never hijacked), each call served by
 * the host-free HostSession. Node modules load in start(), so constructing this costs nothing on mobile.
 */
export class BridgeHost {
  private rt: HostRuntime | null = null;
  private server: Server | null = null;
  private wss: WebSocketServer | null = null;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private digest: Buffer | null = null;
  private token = '';
  private boundPort: number | null = null;
  private readonly connections = new Set<Connection>();
  private readonly sockets = new Set<Duplex>();
  private readonly agents = new Map<string, Connection>();
  private readonly logger: Logger;
  private refusals = { lastLogged: 0, unlogged: 0 };

  constructor(private readonly opts: BridgeHostOptions) {
    this.logger = opts.logger ?? silentLogger;
  }

  /** The port listened on, or null when stopped. */
  get port(): number | null {
    return this.boundPort;
  }

  /** Agent ids with an open, admitted connection. */
  get connectedAgents(): string[] {
    return [...this.agents.keys()].sort();
  }

  /** Listens on 127.0.0.1 and writes bridge.json. Throws `unavailable` if no port can be bound. */
  async start(): Promise<{ port: number }> {
    if (this.server) throw new LithosError('invalid_argument', 'The bridge host is already running.');
    const rt = (this.rt ??= loadHostRuntime());
    this.token = await loadOrCreateToken(rt, this.opts.lithosDir);
    this.digest = tokenDigest(rt, this.token);

    const wss = new rt.ws.WebSocketServer({ noServer: true, maxPayload: HARD_FRAME_BYTES, perMessageDeflate: false, clientTracking: false });
    // A request (or upgrade) must send its headers within 5 s; Node checks every second, not every 30 s.
    const server = rt.http.createServer({ headersTimeout: 5_000, requestTimeout: 10_000, connectionsCheckingInterval: 1_000 }, (_req, res) => {
      res.writeHead(426, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
      res.end('The Lithos bridge speaks websocket only.\n');
    });
    server.on('upgrade', (req, socket, head) => {
      socket.on('error', () => undefined); // a peer resetting mid-upgrade is not our crash
      const refusal = checkUpgrade(rt, req, this.digest as Buffer);
      if (refusal) {
        this.logRefusal(`${refusal.status}: ${refusal.message}`);
        refuseUpgrade(socket, refusal);
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
    });
    server.on('clientError', (_err, socket) => socket.destroy());
    server.on('connection', (socket) => {
      if (this.sockets.size >= MAX_SOCKETS) {
        this.logRefusal(`${MAX_SOCKETS} connections are open already`);
        socket.destroy();
        return;
      }
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });

    const preferred = this.opts.port ?? DEFAULT_BRIDGE_PORT;
    try {
      await listen(server, preferred);
    } catch (err) {
      const inUse = (err as NodeJS.ErrnoException).code === 'EADDRINUSE' && preferred !== 0;
      if (!inUse) throw unavailable(preferred, err);
      this.logger.info(`bridge host: port ${preferred} is taken; using a free one`);
      try {
        await listen(server, 0);
      } catch (err2) {
        throw unavailable(0, err2);
      }
    }
    this.server = server;
    this.wss = wss;
    this.boundPort = (server.address() as { port: number }).port;
    this.heartbeat = setInterval(() => this.beat(), this.opts.heartbeatMs ?? 15_000);
    this.heartbeat.unref?.();
    try {
      await this.publish();
    } catch (err) {
      await this.stop();
      throw new LithosError('vault_unavailable', `Could not write bridge.json in "${this.opts.lithosDir}": ${err instanceof Error ? err.message : String(err)}`);
    }
    this.logger.info(`bridge host: listening on ${LOOPBACK}:${this.boundPort}`);
    return { port: this.boundPort };
  }

  /** Removes bridge.json, closes every connection (their in-flight calls fail at the bridge as retryable), stops listening. */
  async stop(): Promise<void> {
    const server = this.server;
    const rt = this.rt;
    if (!server || !rt) return;
    this.server = null;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    const port = this.boundPort as number;
    this.boundPort = null;
    await removeBridgeFile(rt, this.opts.lithosDir, { pid: process.pid, port }).catch((err: unknown) =>
      this.logger.warn(`bridge host: could not remove bridge.json: ${err instanceof Error ? err.message : String(err)}`),
    );
    await Promise.all([...this.connections].map((c) => closeConnection(c.ws, CLOSE_CODES.goingAway, 'host stopping')));
    // Whatever is left (an upgrade refused mid-flight, an idle HTTP client) must not keep close() waiting.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
    this.wss?.close();
    this.wss = null;
  }

  /** A new token (the old one stops working at once): rewrites bridge.json and closes current connections. */
  async regenerateToken(): Promise<void> {
    const rt = (this.rt ??= loadHostRuntime());
    const token = newToken(rt);
    await saveToken(rt, this.opts.lithosDir, token);
    this.token = token;
    this.digest = tokenDigest(rt, token);
    if (!this.server) return;
    await this.publish();
    for (const c of this.connections) c.ws.close(CLOSE_CODES.tokenRevoked, 'token regenerated');
  }

  private async publish(): Promise<void> {
    await writeBridgeFile(this.rt as HostRuntime, this.opts.lithosDir, {
      port: this.boundPort as number,
      token: this.token,
      pid: process.pid,
      protocol_version: PROTOCOL_VERSION,
      plugin_version: this.opts.pluginVersion,
    });
  }

  private accept(ws: WebSocket): void {
    const conn: Connection = {
      ws,
      agentId: null,
      since: new Date().toISOString(),
      alive: true,
      handshakeTimer: setTimeout(() => {
        if (!conn.session.isOpen) ws.close(CLOSE_CODES.timedOut, 'no hello');
      }, this.opts.handshakeTimeoutMs ?? 10_000),
      session: new HostSession({
        dispatcher: this.opts.dispatcher,
        pluginVersion: this.opts.pluginVersion,
        vaultName: this.opts.vaultName,
        maxDeadlineMs: this.opts.maxDeadlineMs ?? DEFAULT_CALL_DEADLINE_MS,
        logger: this.logger,
        send: (text) => {
          // A peer that does not read its answers would have them buffered here without end: drop it.
          if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
            this.logger.warn(`bridge host: closing a connection that is not reading its answers (${ws.bufferedAmount} bytes waiting)`);
            ws.terminate();
            return;
          }
          ws.send(text);
        },
        close: (code, reason) => ws.close(code, reason),
        admit: (hello) => this.admit(conn, hello),
      }),
    };
    conn.handshakeTimer.unref?.();
    this.connections.add(conn);
    ws.on('message', (data, isBinary) => {
      conn.session.receive(isBinary ? toBytes(data) : new TextDecoder().decode(toBytes(data)));
    });
    ws.on('pong', () => {
      conn.alive = true;
    });
    ws.on('error', (err) => this.logger.debug(`bridge host: connection error: ${err.message}`));
    ws.on('close', () => {
      clearTimeout(conn.handshakeTimer);
      conn.session.dispose();
      this.connections.delete(conn);
      if (conn.agentId !== null && this.agents.get(conn.agentId) === conn) {
        this.agents.delete(conn.agentId);
        this.opts.onAgentsChanged?.(this.connectedAgents);
      }
    });
  }

  private admit(conn: Connection, hello: Hello): { closeCode: number; error: LithosError } | null {
    const id = hello.agent_id;
    if (id !== null) {
      const other = this.agents.get(id);
      if (other) {
        return {
          closeCode: CLOSE_CODES.agentConnected,
          error: new LithosError(
            'conflict',
            `Agent "${id}" already has a bridge connection to this vault (since ${other.since}). Several agents may connect, each with its own id (--agent or LITHOS_AGENT_ID).`,
            { agent_id: id, since: other.since, retryable: true },
          ),
        };
      }
      this.agents.set(id, conn);
      conn.agentId = id;
      this.opts.onAgentsChanged?.(this.connectedAgents);
    }
    clearTimeout(conn.handshakeTimer);
    this.logger.info(`bridge host: ${id ? `agent "${id}"` : 'an anonymous bridge'} connected (lithos ${hello.bridge_version})`);
    return null;
  }

  /** One warning per REFUSAL_LOG_MS at most, counting those not logged: anyone local can knock. */
  private logRefusal(why: string): void {
    const now = Date.now();
    if (now - this.refusals.lastLogged < REFUSAL_LOG_MS) {
      this.refusals.unlogged++;
      return;
    }
    const more = this.refusals.unlogged > 0 ? ` (and ${this.refusals.unlogged} more since the last warning)` : '';
    this.refusals = { lastLogged: now, unlogged: 0 };
    this.logger.warn(`bridge host: refused a connection (${why})${more}`);
  }

  /** Drops connections that did not answer the previous websocket ping (a frozen or vanished peer). */
  private beat(): void {
    for (const c of this.connections) {
      if (!c.alive) {
        c.ws.terminate();
        continue;
      }
      c.alive = false;
      c.ws.ping();
    }
  }
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    // Loopback only, never all interfaces: nothing off this machine may reach the vault.
    server.listen({ host: LOOPBACK, port, exclusive: true }, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

function unavailable(port: number, err: unknown): LithosError {
  return new LithosError('unavailable', `The bridge host could not listen on ${LOOPBACK}:${port}: ${err instanceof Error ? err.message : String(err)}`, { port, retryable: true });
}

function refuseUpgrade(socket: Duplex, refusal: Refusal): void {
  const body = `${refusal.message}\n`;
  const reason = refusal.status === 401 ? 'Unauthorized' : 'Forbidden';
  const auth = refusal.status === 401 ? 'WWW-Authenticate: Bearer realm="lithos"\r\n' : '';
  socket.end(
    `HTTP/1.1 ${refusal.status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n${auth}Content-Length: ${utf8ByteLength(body)}\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}

/** Waits for the closing handshake, but not for a peer that never answers it. */
function closeConnection(ws: WebSocket, code: number, reason: string): Promise<void> {
  return new Promise((resolve) => {
    if (ws.readyState === ws.CLOSED) {
      resolve();
      return;
    }
    const force = setTimeout(() => ws.terminate(), 1000);
    ws.once('close', () => {
      clearTimeout(force);
      resolve();
    });
    ws.close(code, reason);
  });
}

function toBytes(data: Buffer | ArrayBuffer | Buffer[]): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}
