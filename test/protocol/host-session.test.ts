import { LithosError } from '../../shared/errors';
import { CLOSE_CODES } from '../../shared/protocol/handshake';
import { HostSession, MAX_IN_FLIGHT, type HostSessionOptions } from '../../shared/protocol/host-session';
import { MAX_MESSAGE_BYTES } from '../../shared/protocol/limits';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';
import type { ToolCaller, ToolDispatcher } from '../../shared/tools/types';
import { FakeClock } from '../twins/fake-clock';

/** A dispatcher of a few tools, with calls to `hold` parked until the test releases them. */
class TestTools implements ToolDispatcher {
  readonly held = new Map<string, (v: unknown) => void>();
  readonly callers: ToolCaller[] = [];
  list() {
    return [];
  }
  async call(name: string, args: unknown, caller: ToolCaller): Promise<unknown> {
    this.callers.push(caller);
    const a = (args ?? {}) as Record<string, unknown>;
    switch (name) {
      case 'echo':
        return a;
      case 'hold':
        return new Promise((resolve) => this.held.set(String(a.key), resolve));
      case 'fail':
        throw new LithosError('not_found', `No note "${String(a.path)}".`, { path: a.path });
      case 'big':
        return 'x'.repeat(Number(a.bytes));
      case 'cyclic': {
        const o: Record<string, unknown> = {};
        o.self = o;
        return o;
      }
      default:
        throw new LithosError('invalid_argument', `Unknown tool "${name}".`);
    }
  }
}

const flush = () => new Promise((r) => setImmediate(r));
const caller = { kind: 'agent' as const, agent_id: 'a1' };
const hello = (over: Record<string, unknown> = {}) => JSON.stringify({ type: 'hello', protocol_version: PROTOCOL_VERSION, bridge_version: '9.9.9', agent_id: 'a1', ...over });
const call = (id: string, tool: string, args: unknown = {}, deadline_ms = 45_000) => JSON.stringify({ type: 'call', id, tool, args, caller, deadline_ms });

function session(over: Partial<HostSessionOptions> = {}) {
  const sent: Record<string, unknown>[] = [];
  const closed: { code: number; reason: string }[] = [];
  const tools = new TestTools();
  const clock = new FakeClock();
  const s = new HostSession({
    dispatcher: tools,
    pluginVersion: '0.1.0',
    vaultName: 'Work',
    send: (t) => sent.push(JSON.parse(t) as Record<string, unknown>),
    close: (code, reason) => closed.push({ code, reason }),
    timers: clock,
    ...over,
  });
  const open = () => {
    s.receive(hello());
    sent.length = 0;
  };
  return { s, sent, closed, tools, clock, open };
}

describe('HostSession (one bridge connection, host side)', () => {
  it('answers a valid hello with a welcome naming the plugin version and the vault', () => {
    const { s, sent, closed } = session();
    s.receive(hello());
    expect(sent).toEqual([{ type: 'welcome', protocol_version: PROTOCOL_VERSION, plugin_version: '0.1.0', vault: 'Work' }]);
    expect(s.isOpen).toBe(true);
    expect(s.hello?.agent_id).toBe('a1');
    expect(closed).toEqual([]);
  });

  it('refuses another protocol version with a message naming both versions, then closes', () => {
    const warned: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string) => warned.push(m), error() {} };
    const { s, sent, closed } = session({ logger });
    // A future hello may carry fields this version does not know: only the version is compared.
    s.receive(JSON.stringify({ type: 'hello', protocol_version: PROTOCOL_VERSION + 1, bridge_version: '2.0.0', agent: { id: 'x' } }));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ type: 'error', id: null, error: { code: 'protocol_mismatch' } });
    const message = (sent[0].error as { message: string }).message;
    expect(message).toContain(`lithos bridge 2.0.0 speaks protocol version ${PROTOCOL_VERSION + 1}`);
    expect(message).toContain(`Lithos Memory plugin 0.1.0 speaks version ${PROTOCOL_VERSION}`);
    expect(warned).toEqual([message]); // the host side says the same
    expect(closed).toEqual([{ code: CLOSE_CODES.protocolMismatch, reason: 'protocol_mismatch' }]);
  });

  it.each([
    ['a call before the hello', call('1', 'echo')],
    ['garbage', '\u0000\u0001not json'],
    ['a hello without its fields', JSON.stringify({ type: 'hello', protocol_version: PROTOCOL_VERSION })],
  ])('closes a connection that opens with %s, after saying why', (_name, frame) => {
    const { s, sent, closed, tools } = session();
    s.receive(frame);
    expect(sent[0]).toMatchObject({ type: 'error', error: { code: 'protocol_error', message: expect.stringContaining('must be a valid "hello"') } });
    expect(closed[0].code).toBe(CLOSE_CODES.handshakeRequired);
    expect(tools.callers).toEqual([]);
    s.receive(call('2', 'echo')); // ignored after close
    expect(sent).toHaveLength(1);
  });

  it('lets admission refuse a hello (the host uses this for one connection per agent)', () => {
    const { s, sent, closed } = session({
      admit: () => ({ closeCode: CLOSE_CODES.agentConnected, error: new LithosError('conflict', 'Agent "a1" already has a bridge connection.', { retryable: true }) }),
    });
    s.receive(hello());
    expect(sent).toEqual([{ type: 'error', id: null, error: { code: 'conflict', message: 'Agent "a1" already has a bridge connection.', data: { retryable: true } } }]);
    expect(closed).toEqual([{ code: CLOSE_CODES.agentConnected, reason: 'conflict' }]);
  });

  it('runs calls concurrently and answers each by its id, as the connection\'s agent', async () => {
    const { s, sent, tools, open } = session();
    open();
    s.receive(call('a', 'hold', { key: 'first' }));
    s.receive(JSON.stringify({ type: 'call', id: 'b', tool: 'echo', args: { n: 2 }, caller: { kind: 'agent', agent_id: null }, deadline_ms: 1000 }));
    await flush();
    // The held call did not block the second one.
    expect(sent).toEqual([{ type: 'result', id: 'b', ok: true, result: { n: 2 } }]);
    expect(s.pendingCalls).toBe(1);
    tools.held.get('first')?.('done');
    await flush();
    expect(sent[1]).toEqual({ type: 'result', id: 'a', ok: true, result: 'done' });
    expect(tools.callers).toEqual([caller, caller]); // a call that names no agent acts for the hello's
  });

  it('refuses a call whose caller names another agent than the hello did: identity is fixed per connection', async () => {
    const { s, sent, tools, open } = session();
    open();
    s.receive(JSON.stringify({ type: 'call', id: 'x', tool: 'echo', args: {}, caller: { kind: 'agent', agent_id: 'alice' }, deadline_ms: 1000 }));
    await flush();
    expect(sent).toEqual([{ type: 'result', id: 'x', ok: false, error: expect.objectContaining({ code: 'forbidden', data: expect.objectContaining({ session_agent: 'a1', agent_id: 'alice' }) }) }]);
    expect(tools.callers).toEqual([]);
  });

  it('a hello without an agent is bound by the first call that names one', async () => {
    const { s, sent, tools } = session();
    s.receive(hello({ agent_id: null }));
    sent.length = 0;
    const as = (id: string, agent: string | null) => JSON.stringify({ type: 'call', id, tool: 'echo', args: {}, caller: { kind: 'agent', agent_id: agent }, deadline_ms: 1000 });
    s.receive(as('1', null));
    s.receive(as('2', 'bob'));
    s.receive(as('3', 'alice'));
    s.receive(as('4', null));
    await flush();
    expect(tools.callers.map((c) => c.agent_id)).toEqual([null, 'bob', 'bob']);
    expect(sent.find((m) => m.id === '3')).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('refuses a call that claims to be made for the person: a token opens the bridge for agents only', async () => {
    const { s, sent, tools, open } = session();
    open();
    s.receive(JSON.stringify({ type: 'call', id: 'h1', tool: 'echo', args: {}, caller: { kind: 'human', agent_id: null }, deadline_ms: 1000 }));
    await flush();
    expect(sent).toEqual([{ type: 'result', id: 'h1', ok: false, error: expect.objectContaining({ code: 'forbidden', message: 'Calls over the bridge are made for agents; the person works in Obsidian.' }) }]);
    expect(tools.callers).toEqual([]);
  });

  it('bounds the calls running at once on one connection; the next is refused as retryable, and accepted once one answers', async () => {
    const { s, sent, tools, open } = session();
    open();
    for (let i = 0; i < MAX_IN_FLIGHT; i++) s.receive(call(`c${i}`, 'hold', { key: String(i) }));
    s.receive(call('over', 'echo'));
    await flush();
    expect(sent).toEqual([{ type: 'result', id: 'over', ok: false, error: expect.objectContaining({ code: 'unavailable', data: expect.objectContaining({ retryable: true }) }) }]);
    tools.held.get('0')!('done');
    await flush();
    s.receive(call('next', 'echo', { ok: 1 }));
    await flush();
    expect(sent.find((m) => m.id === 'next')).toMatchObject({ ok: true, result: { ok: 1 } });
  });

  it('a call past its deadline still counts against the bound until its tool returns (a 1 ms deadline is no way around it)', async () => {
    const { s, sent, tools, clock, open } = session();
    open();
    for (let i = 0; i < MAX_IN_FLIGHT; i++) s.receive(call(`t${i}`, 'hold', { key: String(i) }, 1));
    clock.advance(5); // every one of them answered `timeout`, and is still running in the engine
    await flush();
    sent.length = 0;
    s.receive(call('over', 'echo'));
    await flush();
    expect(sent).toEqual([{ type: 'result', id: 'over', ok: false, error: expect.objectContaining({ code: 'unavailable' }) }]);
    tools.held.get('0')!('late');
    await flush();
    s.receive(call('next', 'echo', { ok: 1 }));
    await flush();
    expect(sent.find((m) => m.id === 'next')).toMatchObject({ ok: true });
  });

  it("passes a tool's LithosError through as {code, message, data}", async () => {
    const { s, sent, open } = session();
    open();
    s.receive(call('1', 'fail', { path: 'gone.md' }));
    await flush();
    expect(sent).toEqual([{ type: 'result', id: '1', ok: false, error: { code: 'not_found', message: 'No note "gone.md".', data: { path: 'gone.md' } } }]);
  });

  it('answers `timeout` at the deadline, capped by the host ceiling, and drops the late result', async () => {
    const { s, sent, tools, clock, open } = session({ maxDeadlineMs: 5000 });
    open();
    s.receive(call('1', 'hold', { key: 'k' }, 60_000));
    await flush();
    clock.advance(4999);
    expect(sent).toEqual([]);
    clock.advance(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ type: 'result', id: '1', ok: false, error: { code: 'timeout', data: { tool: 'hold', deadline_ms: 5000, retryable: true } } });
    tools.held.get('k')?.('late');
    await flush();
    expect(sent).toHaveLength(1);
    expect(s.pendingCalls).toBe(0);
  });

  it('a cancelled call gets no answer', async () => {
    const { s, sent, tools, clock, open } = session();
    open();
    s.receive(call('1', 'hold', { key: 'k' }));
    await flush();
    s.receive(JSON.stringify({ type: 'cancel', id: '1' }));
    tools.held.get('k')?.('late');
    clock.advance(60_000);
    await flush();
    expect(sent).toEqual([]);
  });

  it('refuses a result over 1 MB with payload_too_large for that call, and the connection carries on', async () => {
    const { s, sent, open } = session();
    open();
    s.receive(call('1', 'big', { bytes: MAX_MESSAGE_BYTES + 10 }));
    s.receive(call('2', 'big', { bytes: 10 }));
    await flush();
    expect(sent).toHaveLength(2);
    const first = sent.find((m) => m.id === '1');
    expect(first).toMatchObject({ ok: false, error: { code: 'payload_too_large', message: expect.stringMatching(/^The result of tool "big" is \d+ bytes/) } });
    expect(sent.find((m) => m.id === '2')).toEqual({ type: 'result', id: '2', ok: true, result: 'x'.repeat(10) });
  });

  it('a result JSON cannot carry fails its call with invalid_argument', async () => {
    const { s, sent, open } = session();
    open();
    s.receive(call('1', 'cyclic'));
    await flush();
    expect(sent).toEqual([{ type: 'result', id: '1', ok: false, error: expect.objectContaining({ code: 'invalid_argument' }) }]);
  });

  it('after the handshake, garbage gets an error reply and a garbled call fails by its id; nothing throws', async () => {
    const { s, sent, open } = session();
    open();
    const frames = ['nope', '[]', '{"type":42}', '{"type":"launch"}', JSON.stringify({ type: 'call', id: '7', tool: 'echo' }), hello(), new Uint8Array([1, 2, 3])];
    for (const f of frames) expect(() => s.receive(f)).not.toThrow();
    expect(sent).toHaveLength(frames.length);
    expect(sent.filter((m) => m.type === 'error')).toHaveLength(frames.length - 1);
    expect(sent.find((m) => m.type === 'result')).toMatchObject({ id: '7', ok: false, error: { code: 'protocol_error' } });
    expect(JSON.stringify(sent.at(-1))).toContain('Binary frames are not part of the bridge protocol');
    s.receive(call('8', 'echo', { still: 'works' }));
    await flush();
    expect(sent.at(-1)).toEqual({ type: 'result', id: '8', ok: true, result: { still: 'works' } });
  });

  it('answers ping with pong', () => {
    const { s, sent, open } = session();
    open();
    s.receive(JSON.stringify({ type: 'ping', nonce: 'n7' }));
    expect(sent).toEqual([{ type: 'pong', nonce: 'n7' }]);
  });

  it('after dispose, running calls finish silently and their deadlines are cleared', async () => {
    const { s, sent, tools, clock, open } = session();
    open();
    s.receive(call('1', 'hold', { key: 'k' }));
    await flush();
    s.dispose();
    expect(clock.pendingCount()).toBe(0);
    tools.held.get('k')?.('late');
    await flush();
    expect(sent).toEqual([]);
  });

  it('an error reply too big to send still answers its call, without the data', async () => {
    const { s, sent, open } = session({
      dispatcher: {
        list: () => [],
        call: async () => {
          throw new LithosError('conflict', 'Changed meanwhile.', { current: 'y'.repeat(MAX_MESSAGE_BYTES) });
        },
      },
    });
    open();
    s.receive(call('1', 'write'));
    await flush();
    expect(sent).toEqual([{ type: 'result', id: '1', ok: false, error: { code: 'conflict', message: 'Changed meanwhile.', data: { dropped: expect.stringContaining('over the bridge') } } }]);
  });
});
