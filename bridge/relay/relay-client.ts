import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { WebSocket, type RawData } from 'ws';
import { asLithosError, LithosError } from '../../shared/errors';
import { silentLogger, type Logger } from '../../shared/ports';
import { protocolMismatch, type Welcome } from '../../shared/protocol/handshake';
import { DEFAULT_CALL_DEADLINE_MS, HARD_FRAME_BYTES } from '../../shared/protocol/limits';
import { decodeMessage, encodeMessage, type Message } from '../../shared/protocol/messages';
import type { Interpret } from '../../shared/protocol/interpret';
import type { Sample } from '../../shared/protocol/sample';
import { answerHostRequest, failedAnswer } from './host-requests';
import type { Sampler } from '../../shared/learning/reflection-wording';
import { fromWireError } from '../../shared/protocol/wire-error';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';
import type { Interpreter } from '../../shared/retrieval/terrace2';
import type { ToolCaller } from '../../shared/tools/types';
import { backoffDelay, type BackoffOptions } from './backoff';
import { discoverHost } from './host-discovery';
import { PendingCalls } from './pending-calls';

export interface RelayClientOptions {
  /** The vault folder; its `.lithos/bridge.json` says where the host listens. */
  vaultRoot: string;
  /** Sent in the hello (the host admits one connection per agent id) and the default caller of calls. */
  agentId: string | null;
  /** The agent's key (LITHOS_AGENT_KEY), sent in the hello; the host checks it where the vault issues keys. */
  agentKey?: string | null;
  /** This bridge's version, named in protocol-mismatch messages. */
  bridgeVersion: string;
  /** Per-call deadline sent to the host. Default 45 s. */
  deadlineMs?: number;
  backoff?: BackoffOptions;
  /** Upgrade plus handshake must finish within this. Default 5 s. */
  connectTimeoutMs?: number;
  /** A protocol ping this often; a ping unanswered by the next one drops the connection. 0 disables. Default 15 s. */
  pingIntervalMs?: number;
  logger?: Logger;
  /** For the backoff jitter. */
  random?: () => number;
  /**
   * Terrace 2's interpreter (the MCP client's sampling), read at each handshake: when there is one the hello
   * says `sampling: true` and the host's `interpret` requests during this bridge's calls are answered with it.
   */
  interpreter?: () => Interpreter | null;
  /** Reflection's wording with the same client's sampling: answers the host's `sample` during this bridge's calls. */
  sampler?: () => Sampler | null;
}

export type RelayState = 'idle' | 'connecting' | 'connected' | 'closed';

/** What the handshake told us about the host. */
export interface HostInfo {
  vault: string;
  plugin_version: string;
  protocol_version: number;
  port: number;
}

export interface RelayEvents {
  /** A handshake completed: calls are relayed from now on. */
  connected: [HostInfo];
  /** A live connection ended; in-flight calls have already failed with `unavailable`. Reconnecting follows. */
  disconnected: [LithosError];
  /** One connection attempt failed (no host, refused, mismatch); the next follows after a backoff. */
  connect_failed: [LithosError];
}

/** The local deadline waits a little past the host's, so the host's own `timeout` (naming the tool) normally wins. */
const LOCAL_DEADLINE_GRACE_MS = 250;

/**
 * The bridge's side of the websocket: finds the host through bridge.json, authenticates, handshakes, and
 * multiplexes calls by request id. Never hangs a call: each ends with its result, its error, a `timeout`
 * at its deadline, or (when the connection drops) a retryable `unavailable` at once. Reconnects by
 * itself with capped, jittered backoff until close().
 */
export class RelayClient extends EventEmitter<RelayEvents> {
  private stateNow: RelayState = 'idle';
  private ws: WebSocket | null = null;
  private hostInfo: HostInfo | null = null;
  private lastErr: LithosError | null = null;
  private attempt = 0;
  private seq = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private pendingPong: string | null = null;
  private readonly pending = new PendingCalls();
  private readonly waiters = new Set<{ resolve(h: HostInfo): void; reject(e: LithosError): void }>();
  private readonly logger: Logger;

  constructor(private readonly opts: RelayClientOptions) {
    super();
    this.logger = opts.logger ?? silentLogger;
  }

  get state(): RelayState {
    return this.stateNow;
  }

  /** The connected host, or null. */
  get host(): HostInfo | null {
    return this.hostInfo;
  }

  /** Why the last attempt or connection failed; null once connected. */
  get lastError(): LithosError | null {
    return this.lastErr;
  }

  /** Calls sent and not yet answered. */
  get inFlight(): number {
    return this.pending.size;
  }

  /** Starts connecting (and reconnecting) in the background. */
  start(): void {
    if (this.stateNow !== 'idle') return;
    this.connect();
  }

  /**
   * Resolves once connected. Rejects at once when the last attempt failed for a reason waiting will not
   * fix (`protocol_mismatch`, `unauthorized`), else with `unavailable` after timeoutMs (naming the last failure).
   */
  waitConnected(timeoutMs = 10_000): Promise<HostInfo> {
    if (this.stateNow === 'connected' && this.hostInfo) return Promise.resolve(this.hostInfo);
    if (this.stateNow === 'closed') return Promise.reject(this.closedError());
    if (this.lastErr && this.lastErr.data.retryable === false) return Promise.reject(this.lastErr);
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: (h: HostInfo) => {
          clearTimeout(timer);
          resolve(h);
        },
        reject: (e: LithosError) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        const why = this.lastErr ? ` Last attempt: ${this.lastErr.message}` : '';
        reject(new LithosError('unavailable', `Not connected to the Lithos host after ${timeoutMs} ms.${why}`, { retryable: true }));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /**
   * Relays one tool call. Rejects with `unavailable` (retryable) when not connected or when the
   * connection drops mid-call, `timeout` at the deadline, `payload_too_large` for arguments over 1 MB
   * (nothing is sent), or the tool's own error.
   */
  call(tool: string, args: unknown, caller?: ToolCaller, opts: { deadlineMs?: number; sessionRecord?: boolean } = {}): Promise<unknown> {
    const ws = this.ws;
    if (this.stateNow !== 'connected' || !ws) {
      const why = this.lastErr ? `: ${this.lastErr.message}` : '.';
      return Promise.reject(new LithosError('unavailable', `Not connected to the Lithos host${why}`, { retryable: true, tool }));
    }
    const deadlineMs = opts.deadlineMs ?? this.opts.deadlineMs ?? DEFAULT_CALL_DEADLINE_MS;
    const id = (++this.seq).toString(36);
    let text: string;
    try {
      text = encodeMessage(
        { type: 'call', id, tool, args: args ?? {}, caller: caller ? { kind: caller.kind, agent_id: caller.agent_id } : { kind: 'agent', agent_id: this.opts.agentId }, deadline_ms: deadlineMs, ...(opts.sessionRecord ? { session_record: true } : {}) },
        `The call to "${tool}"`,
      );
    } catch (err) {
      return Promise.reject(asLithosError(err));
    }
    const answer = this.pending.add(id, tool, deadlineMs + LOCAL_DEADLINE_GRACE_MS, () => {
      this.send({ type: 'cancel', id });
      return new LithosError('timeout', `Tool "${tool}" did not answer within its ${deadlineMs} ms deadline. A write may still complete in the vault: check before retrying it.`, {
        tool,
        deadline_ms: deadlineMs,
        retryable: true,
      });
    });
    ws.send(text);
    return answer;
  }

  /** Stops reconnecting, fails in-flight calls and pending waits, closes the socket. */
  async close(): Promise<void> {
    if (this.stateNow === 'closed') return;
    const wasConnected = this.stateNow === 'connected';
    this.stateNow = 'closed';
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.stopPings();
    const err = this.closedError();
    this.pending.failAll(() => err);
    for (const w of this.waiters) w.reject(err);
    this.waiters.clear();
    const ws = this.ws;
    this.ws = null;
    this.hostInfo = null;
    if (ws && ws.readyState !== ws.CLOSED) {
      await new Promise<void>((resolve) => {
        ws.once('close', () => resolve());
        if (ws.readyState === ws.CONNECTING) ws.terminate();
        else ws.close(1000, 'bridge closing');
      });
    }
    if (wasConnected) this.emit('disconnected', err);
  }

  private closedError(): LithosError {
    return new LithosError('unavailable', 'The relay client was closed.', { retryable: false });
  }

  private connect(): void {
    this.stateNow = 'connecting';
    this.reconnectTimer = null;
    void this.attemptOnce().then(
      ({ ws, info }) => {
        if (this.stateNow === 'closed') {
          ws.terminate();
          return;
        }
        this.onConnected(ws, info);
      },
      (err: unknown) => {
        if (this.stateNow === 'closed') return;
        const e = err instanceof LithosError ? err : new LithosError('unavailable', String(err), { retryable: true });
        this.lastErr = e;
        this.logger.debug(`relay: connection attempt failed: ${e.message}`);
        this.emit('connect_failed', e);
        if (e.data.retryable === false) {
          for (const w of this.waiters) w.reject(e);
          this.waiters.clear();
        }
        this.scheduleReconnect(e.data.retryable === false);
      },
    );
  }

  private scheduleReconnect(slow: boolean): void {
    if (this.stateNow === 'closed') return;
    this.stateNow = 'connecting';
    // A refusal that retrying will not fix soon (mismatch, bad token) is retried at the slowest pace only.
    const delay = backoffDelay(slow ? 64 : this.attempt++, this.opts.backoff, this.opts.random);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
    this.reconnectTimer.unref?.();
  }

  /** One attempt: bridge.json, upgrade with the token, hello/welcome. Resolves with an open, admitted socket. */
  private async attemptOnce(): Promise<{ ws: WebSocket; info: HostInfo }> {
    const file = await discoverHost(this.opts.vaultRoot, this.opts.bridgeVersion);
    const timeoutMs = this.opts.connectTimeoutMs ?? 5_000;
    return new Promise((resolve, reject) => {
      let settled = false;
      const ws = new WebSocket(`ws://127.0.0.1:${file.port}/`, {
        headers: { Authorization: `Bearer ${file.token}` },
        maxPayload: HARD_FRAME_BYTES,
        perMessageDeflate: false,
        followRedirects: false,
        handshakeTimeout: timeoutMs,
      });
      const fail = (err: LithosError): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        ws.removeAllListeners('message');
        ws.on('error', () => undefined);
        ws.terminate();
        reject(err);
      };
      const timer = setTimeout(() => fail(new LithosError('unavailable', `The Lithos host on port ${file.port} did not complete the handshake within ${timeoutMs} ms.`, { retryable: true })), timeoutMs);
      ws.on('unexpected-response', (_req, res: IncomingMessage) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (body.length < 1000) body += chunk;
        });
        res.on('end', () => fail(refusedUpgrade(res.statusCode ?? 0, body.trim())));
        res.on('error', () => fail(refusedUpgrade(res.statusCode ?? 0, body.trim())));
      });
      ws.on('error', (err) => fail(new LithosError('unavailable', `Could not reach the Lithos host on 127.0.0.1:${file.port}: ${err.message}`, { retryable: true })));
      ws.on('close', (code) => fail(new LithosError('unavailable', `The Lithos host closed the connection during the handshake (code ${code}).`, { retryable: true })));
      ws.on('open', () => {
        const sampling = (this.opts.interpreter?.() ?? null) !== null;
        const sample = (this.opts.sampler?.() ?? null) !== null;
        ws.send(encodeMessage({ type: 'hello', protocol_version: PROTOCOL_VERSION, bridge_version: this.opts.bridgeVersion, agent_id: this.opts.agentId, ...(this.opts.agentKey ? { agent_key: this.opts.agentKey } : {}), sampling, ...(sample ? { sample } : {}) }));
      });
      ws.on('message', (data: RawData, isBinary: boolean) => {
        const decoded = isBinary ? null : decodeMessage(rawText(data));
        if (!decoded?.ok) {
          fail(new LithosError('protocol_error', `The Lithos host answered the hello with an unreadable frame${decoded ? `: ${decoded.error.message}` : ''}.`, { retryable: false }));
          return;
        }
        const msg = decoded.message;
        if (msg.type === 'error') {
          fail(fromWireError(msg.error));
          return;
        }
        if (msg.type !== 'welcome') {
          fail(new LithosError('protocol_error', `The Lithos host answered the hello with "${msg.type}" instead of "welcome".`, { retryable: false }));
          return;
        }
        if (msg.protocol_version !== PROTOCOL_VERSION) {
          fail(protocolMismatch({ bridge_protocol: PROTOCOL_VERSION, plugin_protocol: msg.protocol_version, bridge_version: this.opts.bridgeVersion, plugin_version: msg.plugin_version }));
          return;
        }
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        ws.removeAllListeners();
        resolve({ ws, info: hostInfoOf(msg, file.port) });
      });
    });
  }

  private onConnected(ws: WebSocket, info: HostInfo): void {
    this.ws = ws;
    this.hostInfo = info;
    this.lastErr = null;
    this.attempt = 0;
    this.stateNow = 'connected';
    ws.on('message', (data: RawData, isBinary: boolean) => this.onFrame(data, isBinary));
    ws.on('error', (err) => this.logger.debug(`relay: socket error: ${err.message}`));
    ws.on('close', (code, reason) => this.onClosed(ws, code, reason.toString()));
    this.startPings(ws);
    this.logger.info(`relay: connected to vault "${info.vault}" (plugin ${info.plugin_version}, port ${info.port})`);
    for (const w of this.waiters) w.resolve(info);
    this.waiters.clear();
    this.emit('connected', info);
  }

  private onFrame(data: RawData, isBinary: boolean): void {
    const decoded = isBinary ? null : decodeMessage(rawText(data));
    if (!decoded?.ok) {
      this.logger.warn(`relay: ignored an unreadable frame from the host${decoded ? `: ${decoded.error.message}` : ' (binary)'}`);
      if (decoded?.id) this.pending.fail(decoded.id, decoded.error);
      return;
    }
    const msg = decoded.message;
    switch (msg.type) {
      case 'result':
        if (msg.ok) this.pending.resolve(msg.id, msg.result);
        else this.pending.fail(msg.id, fromWireError(msg.error));
        return;
      case 'error':
        if (msg.id === null || !this.pending.fail(msg.id, fromWireError(msg.error))) this.logger.warn(`relay: the host reported: ${msg.error.message}`);
        return;
      case 'ping':
        this.send({ type: 'pong', nonce: msg.nonce });
        return;
      case 'pong':
        if (msg.nonce === this.pendingPong) this.pendingPong = null;
        return;
      case 'interpret':
      case 'sample':
        void this.answerHost(msg);
        return;
      default:
        this.logger.warn(`relay: ignored an unexpected "${msg.type}" message from the host`);
    }
  }

  /** Answers the host's `interpret` or `sample` with the MCP client's sampling (host-requests.ts). */
  private async answerHost(msg: Interpret | Sample): Promise<void> {
    const answer = await answerHostRequest(msg, { interpreter: this.opts.interpreter?.() ?? null, sampler: this.opts.sampler?.() ?? null, inFlight: (id) => this.pending.tool(id) !== undefined });
    try {
      this.send(answer);
    } catch (err) {
      this.send(failedAnswer(msg, err));
    }
  }

  private onClosed(ws: WebSocket, code: number, reason: string): void {
    if (this.ws !== ws) return;
    this.ws = null;
    this.hostInfo = null;
    this.stopPings();
    const why = reason ? `${reason}, code ${code}` : `code ${code}`;
    const err = new LithosError('unavailable', `The connection to the Lithos host closed (${why}).`, { retryable: true, close_code: code });
    this.pending.failAll(
      (tool) => new LithosError('unavailable', `The connection to the Lithos host closed (${why}) while "${tool}" was in flight; it may or may not have run. Retry.`, { retryable: true, tool, close_code: code }),
    );
    this.lastErr = err;
    if (this.stateNow === 'closed') return;
    this.logger.warn(`relay: ${err.message} Reconnecting.`);
    this.emit('disconnected', err);
    this.scheduleReconnect(false);
  }

  private startPings(ws: WebSocket): void {
    const every = this.opts.pingIntervalMs ?? 15_000;
    if (every <= 0) return;
    this.pingTimer = setInterval(() => {
      if (this.pendingPong !== null) {
        this.logger.warn('relay: the host did not answer a ping; dropping the connection');
        ws.terminate();
        return;
      }
      this.pendingPong = (++this.seq).toString(36);
      this.send({ type: 'ping', nonce: this.pendingPong });
    }, every);
    this.pingTimer.unref?.();
  }

  private stopPings(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
    this.pendingPong = null;
  }

  private send(msg: Message): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(encodeMessage(msg));
  }
}

function hostInfoOf(w: Welcome, port: number): HostInfo {
  return { vault: w.vault, plugin_version: w.plugin_version, protocol_version: w.protocol_version, port };
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}

function refusedUpgrade(status: number, body: string): LithosError {
  const detail = body ? `: ${body}` : '';
  if (status === 401 || status === 403) {
    return new LithosError('unauthorized', `The Lithos host refused this bridge (HTTP ${status})${detail}`, { status, retryable: false });
  }
  return new LithosError('unavailable', `The Lithos host answered the upgrade with HTTP ${status}${detail}`, { status, retryable: true });
}
