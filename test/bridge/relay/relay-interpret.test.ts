import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { RelayClient } from '../../../bridge/relay/relay-client';
import { LithosError } from '../../../shared/errors';
import { BRIDGE_FILE } from '../../../shared/protocol/bridge-file';
import { PROTOCOL_VERSION } from '../../../shared/protocol/version';
import type { InterpretRequest, Interpretation, Interpreter } from '../../../shared/retrieval/terrace2';
import { HANG_MS } from '../../eventually';

/**
 * The bridge's side of terrace 2 over the relay: its hello says whether its MCP client samples, and it answers
 * the host's `interpret` with that interpreter, only on behalf of a call it made and still waits for. The
 * host here is a bare websocket server speaking the protocol frame by frame.
 */

const REQUEST: InterpretRequest = { query: 'pool', query_class: 'design', temperature: 0.4, candidates: [], min: 0, max: 15 };
const ANSWER: Interpretation = { selected: ['n1'], bridges: [], confidence: 0.7, follow_up_queries: [] };

/** An interpreter that records what it was asked and answers (or fails) as told. */
class CannedInterpreter implements Interpreter {
  readonly asked: InterpretRequest[] = [];
  constructor(private readonly outcome: Interpretation | LithosError) {}
  async interpret(req: InterpretRequest): Promise<Interpretation> {
    this.asked.push(req);
    if (this.outcome instanceof LithosError) throw this.outcome;
    return this.outcome;
  }
}

interface BareHost {
  hellos: Record<string, unknown>[];
  /** Frames from the bridge after the hello. */
  frames: Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any -- frames as JSON
  send(msg: unknown): void;
  next(): Promise<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- frames as JSON
}

let root: string;
let wss: WebSocketServer;
let host: BareHost;
let relay: RelayClient | null = null;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'lithos-relay-interpret-'));
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  let socket: WebSocket | null = null;
  const waiting: ((f: Record<string, unknown>) => void)[] = [];
  host = {
    hellos: [],
    frames: [],
    send: (msg) => socket?.send(JSON.stringify(msg)),
    next: () => new Promise((r) => waiting.push(r)),
  };
  wss.on('connection', (ws) => {
    socket = ws;
    ws.on('message', (data) => {
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as Uint8Array).toString('utf8');
      const msg = JSON.parse(text) as Record<string, unknown>;
      if (msg.type === 'hello') {
        host.hellos.push(msg);
        ws.send(JSON.stringify({ type: 'welcome', protocol_version: PROTOCOL_VERSION, plugin_version: '0.1.0-test', vault: 'bare' }));
        return;
      }
      host.frames.push(msg);
      waiting.shift()?.(msg);
    });
  });
  const port = (wss.address() as { port: number }).port;
  await mkdir(join(root, '.lithos'), { recursive: true });
  await writeFile(join(root, '.lithos', BRIDGE_FILE), JSON.stringify({ port, token: 'a'.repeat(64), pid: process.pid, protocol_version: PROTOCOL_VERSION, plugin_version: '0.1.0-test' }));
});
afterEach(async () => {
  await relay?.close();
  relay = null;
  await new Promise<void>((r) => wss.close(() => r()));
  await rm(root, { recursive: true, force: true });
});

async function connected(interpreter: Interpreter | null): Promise<RelayClient> {
  relay = new RelayClient({ vaultRoot: root, agentId: 'agent-1', bridgeVersion: '0.1.0', pingIntervalMs: 0, interpreter: () => interpreter });
  relay.start();
  await relay.waitConnected(HANG_MS);
  return relay;
}

/** Starts a call and returns its request id as the host saw it. */
async function callInFlight(c: RelayClient): Promise<string> {
  void c.call('lithos_retrieve', { query_text: 'pool' }).catch(() => undefined);
  const frame = await host.next();
  expect(frame.type).toBe('call');
  return frame.id as string;
}

test('the hello declares sampling exactly when the bridge has an interpreter', async () => {
  await connected(new CannedInterpreter(ANSWER));
  await relay!.close();
  await connected(null);
  expect(host.hellos.map((h) => h.sampling)).toEqual([true, false]);
});

test("an interpret for one of the bridge's calls is answered with its interpreter's interpretation", async () => {
  const interpreter = new CannedInterpreter(ANSWER);
  const c = await connected(interpreter);
  const callId = await callInFlight(c);
  host.send({ type: 'interpret', id: 'i1', call_id: callId, request: REQUEST });
  expect(await host.next()).toEqual({ type: 'interpreted', id: 'i1', ok: true, interpretation: ANSWER });
  expect(interpreter.asked).toEqual([REQUEST]);
});

test("the interpreter's failure is an ok:false answer with its code and message", async () => {
  const c = await connected(new CannedInterpreter(new LithosError('timeout', 'the MCP client did not answer sampling/createMessage within 20 s', { retryable: true })));
  const callId = await callInFlight(c);
  host.send({ type: 'interpret', id: 'i1', call_id: callId, request: REQUEST });
  expect(await host.next()).toEqual({
    type: 'interpreted',
    id: 'i1',
    ok: false,
    error: { code: 'timeout', message: 'the MCP client did not answer sampling/createMessage within 20 s', data: { retryable: true } },
  });
});

test("an interpret for a call the bridge is not waiting for is refused without asking the client's model", async () => {
  const interpreter = new CannedInterpreter(ANSWER);
  await connected(interpreter);
  host.send({ type: 'interpret', id: 'i1', call_id: 'nope', request: REQUEST });
  expect(await host.next()).toMatchObject({ type: 'interpreted', id: 'i1', ok: false, error: { code: 'invalid_argument', message: 'no call "nope" of this bridge is in flight' } });
  expect(interpreter.asked).toEqual([]);
});

test('a bridge without sampling answers an interpret with ok:false, saying why', async () => {
  const c = await connected(null);
  const callId = await callInFlight(c);
  host.send({ type: 'interpret', id: 'i1', call_id: callId, request: REQUEST });
  expect(await host.next()).toMatchObject({ type: 'interpreted', id: 'i1', ok: false, error: { code: 'unavailable', message: "this bridge's MCP client does not support sampling" } });
});
