import { asLithosError, LithosError } from '../errors';
import { silentLogger, systemTimers, type Logger, type Timers } from '../ports';
import type { InterpretRequest, Interpretation, Interpreter } from '../retrieval/terrace2';
import type { CallOptions, ToolCaller, ToolDispatcher } from '../tools/types';
import type { Call } from './call';
import { CLOSE_CODES, HelloVersionProbe, protocolMismatch, type Hello } from './handshake';
import type { Interpreted } from './interpret';
import type { Sampled } from './sample';
import type { Sampler } from '../learning/reflection-wording';
import { DEFAULT_CALL_DEADLINE_MS, INTERPRET_DEADLINE_MS } from './limits';
import { decodeMessage, encodeMessage, type Message } from './messages';
import { fromWireError, toWireError } from './wire-error';
import { PROTOCOL_VERSION } from './version';
import { SessionIdentity } from '../governance/session-identity';

export interface HostSessionOptions {
  dispatcher: ToolDispatcher;
  pluginVersion: string;
  vaultName: string;
  /** Sends one text frame; may throw once the socket is gone (ignored). */
  send(text: string): void;
  /** Closes the connection after a refused handshake. */
  close(code: number, reason: string): void;
  /** Admission control at the handshake (one connection per agent id): a refusal is sent, then the socket closed. */
  admit?(hello: Hello): { closeCode: number; error: LithosError } | null;
  /** Ceiling on a call's deadline, whatever the bridge asks for. Default 45 s. */
  maxDeadlineMs?: number;
  /** How long one `interpret` may wait for the bridge. Default INTERPRET_DEADLINE_MS (21 s). */
  interpretDeadlineMs?: number;
  timers?: Timers;
  logger?: Logger;
}

interface InFlight {
  tool: string;
  timer: unknown;
}

/** An `interpret` or a `sample` request sent to the bridge, waiting for its answer. */
interface AskedInterpret {
  callId: string;
  /** The answer's message type: an `interpreted` never answers a `sample`, nor the reverse. */
  answer: 'interpreted' | 'sampled';
  resolve(answer: unknown): void;
  reject(err: LithosError): void;
  timer: unknown;
}

/** Calls one connection may have running at once (an MCP client runs a handful; more is a runaway or an attack). */
export const MAX_IN_FLIGHT = 256;

/**
 * One bridge connection as the host sees it, without the socket: frames in through receive(), frames
 * out through send(). Handshake first, then calls dispatched concurrently, each answered exactly once
 * (result, error, or `timeout` at its deadline) unless cancelled. Host-free, so the plugin's BridgeHost
 * and any other server serve the same protocol code.
 */
export class HostSession {
  private state: 'awaiting_hello' | 'open' | 'closed' = 'awaiting_hello';
  private readonly inFlight = new Map<string, InFlight>();
  /** Dispatches not yet returned, answered or not: a call past its deadline keeps running in the engine. */
  private running = 0;
  /** `interpret` requests sent to the bridge and not yet answered, by the host's own id. */
  private readonly asked = new Map<string, AskedInterpret>();
  private interpretSeq = 0;
  private readonly timers: Timers;
  private readonly logger: Logger;
  private readonly maxDeadlineMs: number;
  /** Known once the handshake is admitted. */
  hello: Hello | null = null;
  /** The agent every call on this connection acts for (boundCaller), made from the hello. */
  private identity: SessionIdentity | null = null;

  constructor(private readonly opts: HostSessionOptions) {
    this.timers = opts.timers ?? systemTimers;
    this.logger = opts.logger ?? silentLogger;
    this.maxDeadlineMs = opts.maxDeadlineMs ?? DEFAULT_CALL_DEADLINE_MS;
  }

  get isOpen(): boolean {
    return this.state === 'open';
  }

  /** Calls started and not yet answered, cancelled or timed out. */
  get pendingCalls(): number {
    return this.inFlight.size;
  }

  /** Handles one frame. Never throws: a bad frame gets an error reply, never a crash. */
  receive(frame: string | Uint8Array): void {
    if (this.state === 'closed') return;
    if (typeof frame !== 'string') {
      const error = new LithosError('protocol_error', 'Binary frames are not part of the bridge protocol: send JSON text frames.', { retryable: false });
      if (this.state === 'awaiting_hello') this.refuse(CLOSE_CODES.handshakeRequired, error);
      else this.reply({ type: 'error', id: null, error: toWireError(error) });
      return;
    }
    const text = frame;
    if (this.state === 'awaiting_hello') {
      this.handshake(text);
      return;
    }
    const decoded = decodeMessage(text);
    if (!decoded.ok) {
      this.logger.debug(`bridge host: refused a frame: ${decoded.error.message}`);
      // A call we can put a name to fails at once rather than at the bridge's deadline.
      if (decoded.type === 'call' && decoded.id !== null) this.reply({ type: 'result', id: decoded.id, ok: false, error: toWireError(decoded.error) });
      else this.reply({ type: 'error', id: decoded.id, error: toWireError(decoded.error) });
      return;
    }
    const msg = decoded.message;
    switch (msg.type) {
      case 'call':
        this.start(msg);
        return;
      case 'cancel':
        this.forget(msg.id);
        return;
      case 'ping':
        this.reply({ type: 'pong', nonce: msg.nonce });
        return;
      case 'pong':
        return;
      case 'interpreted':
      case 'sampled':
        this.answered(msg);
        return;
      default:
        this.reply({ type: 'error', id: null, error: toWireError(new LithosError('protocol_error', `Unexpected "${msg.type}" message from the bridge after the handshake.`, { retryable: false })) });
    }
  }

  /** The connection is gone: pending calls still run to completion in the engine, but their answers are dropped. */
  dispose(): void {
    this.state = 'closed';
    for (const f of this.inFlight.values()) this.timers.clearTimeout(f.timer);
    this.inFlight.clear();
    this.failInterprets(() => true, 'the bridge disconnected');
  }

  private handshake(text: string): void {
    let raw: unknown = null;
    try {
      raw = JSON.parse(text);
    } catch {
      // decodeMessage below reports it
    }
    const probe = HelloVersionProbe.safeParse(raw);
    if (probe.success && probe.data.protocol_version !== PROTOCOL_VERSION) {
      const bridgeVersion = typeof (raw as Record<string, unknown>).bridge_version === 'string' ? ((raw as Record<string, unknown>).bridge_version as string) : undefined;
      const error = protocolMismatch({
        bridge_protocol: probe.data.protocol_version,
        plugin_protocol: PROTOCOL_VERSION,
        bridge_version: bridgeVersion?.slice(0, 100),
        plugin_version: this.opts.pluginVersion,
      });
      this.logger.warn(error.message);
      this.refuse(CLOSE_CODES.protocolMismatch, error);
      return;
    }
    const decoded = decodeMessage(text);
    if (!decoded.ok || decoded.message.type !== 'hello') {
      const why = decoded.ok ? `got "${decoded.message.type}"` : decoded.error.message;
      this.refuse(CLOSE_CODES.handshakeRequired, new LithosError('protocol_error', `The first message on a bridge connection must be a valid "hello"; ${why}`, { retryable: false }));
      return;
    }
    const hello = decoded.message;
    const refusal = this.opts.admit?.(hello) ?? null;
    if (refusal) {
      this.refuse(refusal.closeCode, refusal.error);
      return;
    }
    this.hello = hello;
    this.identity = new SessionIdentity(hello.agent_id, 'by its hello or first call', hello.agent_key ?? null);
    this.state = 'open';
    this.reply({ type: 'welcome', protocol_version: PROTOCOL_VERSION, plugin_version: this.opts.pluginVersion, vault: this.opts.vaultName });
  }

  private refuse(closeCode: number, error: LithosError): void {
    this.reply({ type: 'error', id: null, error: toWireError(error) });
    this.dispose();
    // Close reasons are capped at 123 bytes by the websocket spec; the full message went in the error frame.
    this.opts.close(closeCode, error.code);
  }

  private start(call: Call): void {
    if (this.inFlight.has(call.id)) {
      this.reply({ type: 'error', id: null, error: toWireError(new LithosError('protocol_error', `Request id "${call.id}" is already in flight on this connection.`, { retryable: false })) });
      return;
    }
    if (call.caller.kind !== 'agent') {
      // A token opens the bridge, not the person's view: the person works in Obsidian itself. Taken from the
      // wire, kind 'human' would pass every scope, hidden folders included.
      const error = new LithosError('forbidden', 'Calls over the bridge are made for agents; the person works in Obsidian.', { retryable: false });
      this.reply({ type: 'result', id: call.id, ok: false, error: toWireError(error) });
      return;
    }
    const caller = this.boundCaller(call.caller.agent_id);
    if (caller instanceof LithosError) {
      this.reply({ type: 'result', id: call.id, ok: false, error: toWireError(caller) });
      return;
    }
    if (this.running >= MAX_IN_FLIGHT) {
      // Bounded, so one connection cannot queue unbounded work (and answers) on the host.
      const error = new LithosError('unavailable', `${MAX_IN_FLIGHT} calls are already running on this connection; retry when one has answered.`, { retryable: true });
      this.reply({ type: 'result', id: call.id, ok: false, error: toWireError(error) });
      return;
    }
    const deadline = Math.min(call.deadline_ms, this.maxDeadlineMs);
    const entry: InFlight = {
      tool: call.tool,
      timer: this.timers.setTimeout(() => {
        if (this.inFlight.get(call.id) !== entry) return;
        this.inFlight.delete(call.id);
        this.failInterprets((a) => a.callId === call.id, 'the call reached its deadline');
        const error = new LithosError(
          'timeout',
          `Tool "${call.tool}" did not answer within its ${deadline} ms deadline. A write may still complete in the vault: check before retrying it.`,
          { tool: call.tool, deadline_ms: deadline, retryable: true },
        );
        this.reply({ type: 'result', id: call.id, ok: false, error: toWireError(error) });
      }, deadline),
    };
    this.inFlight.set(call.id, entry);
    // Only a bridge whose MCP client samples can interpret, and only for its own call.
    const sampling = this.hello?.sampling ? { interpreter: this.interpreterFor(call.id), ...(this.hello.sample ? { sampler: this.samplerFor(call.id) } : {}) } : {};
    const opts: CallOptions | undefined = this.hello?.sampling || call.session_record ? { ...sampling, ...(call.session_record ? { sessionRecord: true } : {}) } : undefined;
    // Not awaited: calls on one connection run concurrently; each answers when it is done.
    this.running++;
    Promise.resolve()
      .then(() => this.opts.dispatcher.call(call.tool, call.args, caller, opts))
      .finally(() => this.running--)
      .then(
        (result) => this.finish(call, entry, { ok: true, result }),
        (err: unknown) => this.finish(call, entry, { ok: false, err }),
      );
  }

  /**
   * The agent a call acts for: the connection's, fixed by its hello (or, when the hello named none, by its
   * first call that names one). A caller field naming another agent is refused: the bridge fixed its
   * session's agent, and a frame must not switch it.
   */
  private boundCaller(asked: string | null): ToolCaller | LithosError {
    const identity = this.identity!; // calls are read only once the hello was admitted
    try {
      const agent = identity.actAs(asked, { retryable: false });
      return { kind: 'agent', agent_id: agent, ...(identity.key ? { key: identity.key } : {}) };
    } catch (err) {
      return asLithosError(err);
    }
  }

  private finish(call: Call, entry: InFlight, outcome: { ok: true; result: unknown } | { ok: false; err: unknown }): void {
    if (this.inFlight.get(call.id) !== entry) return; // timed out, cancelled, or the connection closed
    this.inFlight.delete(call.id);
    this.timers.clearTimeout(entry.timer);
    if (!outcome.ok) {
      this.reply({ type: 'result', id: call.id, ok: false, error: toWireError(outcome.err) });
      return;
    }
    try {
      this.opts.send(encodeMessage({ type: 'result', id: call.id, ok: true, result: outcome.result ?? null }, `The result of tool "${call.tool}"`));
    } catch (err) {
      if (!(err instanceof LithosError)) return; // the socket is gone
      this.reply({ type: 'result', id: call.id, ok: false, error: toWireError(err) });
    }
  }

  private forget(id: string): void {
    const entry = this.inFlight.get(id);
    if (!entry) return;
    this.timers.clearTimeout(entry.timer);
    this.inFlight.delete(id);
    this.failInterprets((a) => a.callId === id, 'the bridge cancelled the call');
  }

  /** An Interpreter that asks the bridge, on behalf of call `callId`. */
  private interpreterFor(callId: string): Interpreter {
    return { interpret: (request: InterpretRequest) => this.askBridge<Interpretation>(callId, 'interpret', (id) => ({ type: 'interpret', id, call_id: callId, request })) };
  }

  /** A Sampler that asks the bridge, on behalf of call `callId` (reflection's wording, during a completion). */
  private samplerFor(callId: string): Sampler {
    return {
      sample: (r) =>
        this.askBridge<string>(callId, 'sample', (id) => ({ type: 'sample', id, call_id: callId, request: { system: r.system, prompt: r.prompt, max_tokens: r.maxTokens, timeout_ms: r.timeoutMs } })),
    };
  }

  private askBridge<T>(callId: string, what: 'interpret' | 'sample', message: (id: string) => Message): Promise<T> {
    if (this.state !== 'open' || !this.inFlight.has(callId)) {
      return Promise.reject(new LithosError('unavailable', 'the bridge is no longer waiting for this call', { retryable: true }));
    }
    const id = `i${(++this.interpretSeq).toString(36)}`;
    let text: string;
    try {
      text = encodeMessage(message(id), `The ${what} request`);
    } catch (err) {
      return Promise.reject(asLithosError(err));
    }
    const deadline = this.opts.interpretDeadlineMs ?? INTERPRET_DEADLINE_MS;
    return new Promise<T>((resolve, reject) => {
      const timer = this.timers.setTimeout(() => {
        if (!this.asked.delete(id)) return;
        reject(new LithosError('timeout', `the bridge did not answer the ${what} request within ${deadline} ms`, { deadline_ms: deadline, retryable: true }));
      }, deadline);
      this.asked.set(id, { callId, answer: what === 'interpret' ? 'interpreted' : 'sampled', resolve: (v) => resolve(v as T), reject, timer });
      try {
        this.opts.send(text);
      } catch {
        this.failInterprets((a) => a === this.asked.get(id), 'the bridge disconnected');
      }
    });
  }

  private answered(msg: Interpreted | Sampled): void {
    const a = this.asked.get(msg.id);
    if (!a || a.answer !== msg.type) return; // timed out, its call ended, or not an answer to it: no taker
    this.asked.delete(msg.id);
    this.timers.clearTimeout(a.timer);
    if (msg.ok) a.resolve(msg.type === 'sampled' ? msg.text : msg.interpretation);
    else a.reject(fromWireError(msg.error));
  }

  private failInterprets(which: (a: AskedInterpret) => boolean, why: string): void {
    for (const [id, a] of [...this.asked]) {
      if (!which(a)) continue;
      this.asked.delete(id);
      this.timers.clearTimeout(a.timer);
      a.reject(new LithosError('unavailable', `no interpretation: ${why}`, { retryable: true }));
    }
  }

  private reply(msg: Message): void {
    let text: string;
    try {
      text = encodeMessage(msg);
    } catch (err) {
      // An error whose data is too big (or not JSON) still answers its call, without the data.
      if (msg.type !== 'result' || msg.ok) return;
      text = encodeMessage({ ...msg, error: { ...msg.error, data: { dropped: asLithosError(err).message } } });
    }
    try {
      this.opts.send(text);
    } catch {
      // the socket closed under us: nothing more to tell this peer
    }
  }
}
