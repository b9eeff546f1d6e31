import type { LithosError } from '../../shared/errors';
import { HostSession } from '../../shared/protocol/host-session';
import { INTERPRET_DEADLINE_MS } from '../../shared/protocol/limits';
import { decodeMessage, encodeMessage, type Message } from '../../shared/protocol/messages';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';
import type { InterpretRequest, Interpretation } from '../../shared/retrieval/terrace2';
import type { CallOptions, ToolCaller, ToolDispatcher } from '../../shared/tools/types';
import { FakeClock } from '../twins/fake-clock';

/**
 * Terrace 2 over the relay: a bridge whose MCP client samples says so in its hello, and the host asks it to
 * interpret (`interpret` → `interpreted`) on behalf of one of its calls. Messages, then the host's side.
 */

const REQUEST: InterpretRequest = {
  query: 'connection pool',
  query_class: 'design',
  temperature: 0.4,
  candidates: [
    { id: 'n1', title: 'Pool sizing', path: 'project/Pool sizing.md', note_type: 'observation', score: 0.9, excerpt: 'The pool was too small.' },
    { id: 'n2', title: 'Index', path: 'project/Index.md', note_type: 'concept', score: 0.7, excerpt: 'A missing index.' },
  ],
  min: 2,
  max: 15,
};
const ANSWER: Interpretation = { selected: ['n2', 'n1'], bridges: [{ a: 'n2', b: 'n1', why: 'the index drained the pool' }], confidence: 0.8, follow_up_queries: [] };

describe('interpret messages', () => {
  const samples: Message[] = [
    { type: 'hello', protocol_version: 1, bridge_version: '0.1.0', agent_id: 'a1', sampling: true },
    { type: 'interpret', id: 'i1', call_id: '7', request: REQUEST },
    { type: 'interpreted', id: 'i1', ok: true, interpretation: ANSWER },
    { type: 'interpreted', id: 'i1', ok: false, error: { code: 'timeout', message: 'the MCP client did not answer', data: { retryable: true } } },
  ];

  it.each(samples.map((m) => [`${m.type}${'ok' in m ? ` ok=${m.ok}` : ''}`, m]))('a %s message survives encode and decode unchanged', (_name, msg) => {
    expect(decodeMessage(encodeMessage(msg))).toEqual({ ok: true, message: msg });
  });

  it('a hello without `sampling` (an older bridge) still decodes, and declares no sampling', () => {
    const d = decodeMessage(JSON.stringify({ type: 'hello', protocol_version: 1, bridge_version: '0.0.9', agent_id: null }));
    expect(d.ok && d.message.type === 'hello' && d.message.sampling).toBeFalsy();
  });

  it.each([
    ['an interpret without its call', { type: 'interpret', id: 'i1', request: REQUEST }, /call_id/],
    ['an interpretation with confidence above 1', { type: 'interpreted', id: 'i1', ok: true, interpretation: { ...ANSWER, confidence: 2 } }, /confidence/],
    ['an interpretation without its selection', { type: 'interpreted', id: 'i1', ok: true, interpretation: { confidence: 0.5, bridges: [], follow_up_queries: [] } }, /selected/],
  ])('%s is a protocol_error', (_name, raw, message) => {
    const d = decodeMessage(JSON.stringify(raw));
    expect(d.ok).toBe(false);
    if (!d.ok) {
      expect(d.error.code).toBe('protocol_error');
      expect(d.error.message).toMatch(message);
    }
  });
});

/** One tool, `think`, that interprets through whatever interpreter its call carries. */
class InterpretingTools implements ToolDispatcher {
  readonly opts: (CallOptions | undefined)[] = [];
  list() {
    return [];
  }
  async call(_name: string, _args: unknown, _caller: ToolCaller, opts?: CallOptions): Promise<unknown> {
    this.opts.push(opts);
    if (!opts?.interpreter) return { interpreted: null };
    try {
      return { interpreted: await opts.interpreter.interpret(REQUEST) };
    } catch (err) {
      const e = err as LithosError;
      return { failed: { code: e.code, message: e.message } };
    }
  }
}

const flush = () => new Promise((r) => setImmediate(r));
const caller = { kind: 'agent' as const, agent_id: 'a1' };

function connected(sampling: boolean | undefined) {
  const sent: Record<string, any>[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any -- frames as JSON
  const tools = new InterpretingTools();
  const clock = new FakeClock();
  const s = new HostSession({ dispatcher: tools, pluginVersion: '0.1.0', vaultName: 'Work', send: (t) => sent.push(JSON.parse(t)), close: () => undefined, timers: clock });
  s.receive(JSON.stringify({ type: 'hello', protocol_version: PROTOCOL_VERSION, bridge_version: '9.9.9', agent_id: 'a1', ...(sampling === undefined ? {} : { sampling }) }));
  sent.length = 0;
  const call = (id: string) => s.receive(JSON.stringify({ type: 'call', id, tool: 'think', args: {}, caller, deadline_ms: 45_000 }));
  return { s, sent, tools, clock, call };
}

describe('HostSession: interpreting through the bridge', () => {
  it('a bridge with sampling is asked during its call, and its interpretation is what the tool gets', async () => {
    const { s, sent, call } = connected(true);
    call('c1');
    await flush();
    expect(sent).toEqual([{ type: 'interpret', id: expect.any(String), call_id: 'c1', request: REQUEST }]);
    s.receive(JSON.stringify({ type: 'interpreted', id: sent[0].id, ok: true, interpretation: ANSWER }));
    await flush();
    expect(sent[1]).toEqual({ type: 'result', id: 'c1', ok: true, result: { interpreted: ANSWER } });
  });

  it.each([
    ['says sampling: false', false],
    ['does not say (an older bridge)', undefined],
  ])('a bridge that %s gets no interpret: the call runs without an interpreter', async (_name, sampling) => {
    const { sent, tools, call } = connected(sampling);
    call('c1');
    await flush();
    expect(tools.opts).toEqual([undefined]);
    expect(sent).toEqual([{ type: 'result', id: 'c1', ok: true, result: { interpreted: null } }]);
  });

  it("the bridge's refusal reaches the tool as its own error", async () => {
    const { s, sent, call } = connected(true);
    call('c1');
    await flush();
    s.receive(JSON.stringify({ type: 'interpreted', id: sent[0].id, ok: false, error: { code: 'timeout', message: 'the MCP client did not answer sampling/createMessage within 20 s', data: {} } }));
    await flush();
    expect(sent[1].result).toEqual({ failed: { code: 'timeout', message: 'the MCP client did not answer sampling/createMessage within 20 s' } });
  });

  it('a bridge that never answers fails the interpret at its deadline, and the call still answers', async () => {
    const { s, sent, clock, call } = connected(true);
    call('c1');
    await flush();
    clock.advance(INTERPRET_DEADLINE_MS);
    await flush();
    expect(sent[1].result.failed).toMatchObject({ code: 'timeout', message: expect.stringContaining('did not answer the interpret request') });
    // A late answer has no taker: nothing more is sent.
    s.receive(JSON.stringify({ type: 'interpreted', id: sent[0].id, ok: true, interpretation: ANSWER }));
    await flush();
    expect(sent).toHaveLength(2);
  });

  it('a disconnect fails the interpret at once', async () => {
    const { s, sent, tools, call } = connected(true);
    const answered = new Promise<unknown>((resolve) => {
      const inner = tools.call.bind(tools);
      tools.call = (n, a, c, o) => inner(n, a, c, o).then((r) => (resolve(r), r));
    });
    call('c1');
    await flush();
    expect(sent).toHaveLength(1);
    s.dispose();
    expect(await answered).toEqual({ failed: { code: 'unavailable', message: 'no interpretation: the bridge disconnected' } });
  });

  it('a cancelled call takes its pending interpret with it', async () => {
    const { s, sent, tools, call } = connected(true);
    const answered = new Promise<unknown>((resolve) => {
      const inner = tools.call.bind(tools);
      tools.call = (n, a, c, o) => inner(n, a, c, o).then((r) => (resolve(r), r));
    });
    call('c1');
    await flush();
    s.receive(JSON.stringify({ type: 'cancel', id: 'c1' }));
    expect(await answered).toEqual({ failed: { code: 'unavailable', message: 'no interpretation: the bridge cancelled the call' } });
    expect(sent).toHaveLength(1); // no result for a cancelled call
  });
});
