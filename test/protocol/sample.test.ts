import type { LithosError } from '../../shared/errors';
import { HostSession } from '../../shared/protocol/host-session';
import { decodeMessage, encodeMessage, type Message } from '../../shared/protocol/messages';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';
import type { CallOptions, ToolCaller, ToolDispatcher } from '../../shared/tools/types';
import { answerHostRequest } from '../../bridge/relay/host-requests';
import { FakeClock } from '../twins/fake-clock';

/**
 * Reflection's wording over the relay (shared/protocol/sample.ts): a bridge whose MCP client samples says so in
 * its hello, and during one of its calls (the completion whose consolidation reflects) the host asks it for one
 * text answer (`sample` → `sampled`). Messages, the host's side, then the bridge's.
 */
const REQUEST = { system: 'Answer with JSON.', prompt: '3 completed tasks on "deploys" took the same 4 steps', max_tokens: 800, timeout_ms: 20_000 };

describe('sample messages', () => {
  const samples: Message[] = [
    { type: 'sample', id: 'i1', call_id: '7', request: REQUEST },
    { type: 'sampled', id: 'i1', ok: true, text: '{"accept": false, "why": "no"}' },
    { type: 'sampled', id: 'i1', ok: false, error: { code: 'timeout', message: 'no answer', data: {} } },
  ];
  it.each(samples.map((m) => [`${m.type}${'ok' in m ? ` ok=${m.ok}` : ''}`, m]))('a %s message survives encode and decode unchanged', (_name, msg) => {
    expect(decodeMessage(encodeMessage(msg))).toEqual({ ok: true, message: msg });
  });
  it('a prompt over its bound is a protocol_error', () => {
    const d = decodeMessage(JSON.stringify({ type: 'sample', id: 'i1', call_id: '7', request: { ...REQUEST, prompt: 'x'.repeat(8_001) } }));
    expect(d.ok).toBe(false);
  });
});

/** One tool, `reflect`, that asks whatever sampler its call carries. */
class SamplingTools implements ToolDispatcher {
  list() {
    return [];
  }
  async call(_name: string, _args: unknown, _caller: ToolCaller, opts?: CallOptions): Promise<unknown> {
    if (!opts?.sampler) return { sampled: null };
    try {
      return { sampled: await opts.sampler.sample({ system: REQUEST.system, prompt: REQUEST.prompt, maxTokens: REQUEST.max_tokens, timeoutMs: REQUEST.timeout_ms }) };
    } catch (err) {
      return { failed: (err as LithosError).code };
    }
  }
}

const flush = () => new Promise((r) => setImmediate(r));

function connected(hello: { sampling?: boolean; sample?: boolean }) {
  const sent: Record<string, any>[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any -- frames as JSON
  const s = new HostSession({ dispatcher: new SamplingTools(), pluginVersion: '0.1.0', vaultName: 'Work', send: (t) => sent.push(JSON.parse(t)), close: () => undefined, timers: new FakeClock() });
  s.receive(JSON.stringify({ type: 'hello', protocol_version: PROTOCOL_VERSION, bridge_version: '9.9.9', agent_id: 'a1', ...hello }));
  sent.length = 0;
  s.receive(JSON.stringify({ type: 'call', id: 'c1', tool: 'reflect', args: {}, caller: { kind: 'agent', agent_id: 'a1' }, deadline_ms: 45_000 }));
  return { s, sent };
}

test('the host asks the sampling bridge on behalf of the running call, and the text answers the call', async () => {
  const { s, sent } = connected({ sampling: true, sample: true });
  await flush();
  expect(sent).toEqual([{ type: 'sample', id: expect.any(String), call_id: 'c1', request: REQUEST }]);
  const id = sent[0].id as string;
  s.receive(JSON.stringify({ type: 'interpreted', id, ok: true, interpretation: { selected: ['x'], bridges: [], confidence: 1, follow_up_queries: [] } })); // not an answer to a sample
  await flush();
  expect(sent).toHaveLength(1);
  s.receive(JSON.stringify({ type: 'sampled', id, ok: true, text: 'worded' }));
  await flush();
  expect(sent[1]).toEqual({ type: 'result', id: 'c1', ok: true, result: { sampled: 'worded' } });
});

test.each([
  ['without sampling', { sampling: false }],
  ['older, sampling for terrace 2 but not saying it answers `sample`', { sampling: true }],
])('a bridge %s gets no sample request: the call has no sampler', async (_, hello) => {
  const { sent } = connected(hello);
  await flush();
  expect(sent).toEqual([{ type: 'result', id: 'c1', ok: true, result: { sampled: null } }]);
});

test('the bridge answers a sample only for a call of its own in flight, and only with a sampler', async () => {
  const sampler = { sample: async () => 'worded' };
  const msg = { type: 'sample' as const, id: 'i1', call_id: 'c1', request: REQUEST };
  expect(await answerHostRequest(msg, { interpreter: null, sampler, inFlight: (id) => id === 'c1' })).toEqual({ type: 'sampled', id: 'i1', ok: true, text: 'worded' });
  expect(await answerHostRequest({ ...msg, call_id: 'c9' }, { interpreter: null, sampler, inFlight: (id) => id === 'c1' })).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
  expect(await answerHostRequest(msg, { interpreter: null, sampler: null, inFlight: () => true })).toMatchObject({ ok: false, error: { code: 'unavailable' } });
});
