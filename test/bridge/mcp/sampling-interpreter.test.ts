import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CreateMessageRequestSchema, McpError, type CreateMessageRequest, type CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import { LithosError } from '../../../shared/errors';
import { silentLogger } from '../../../shared/ports';
import type { InterpretRequest, Interpreter } from '../../../shared/retrieval/terrace2';
import { SamplingInterpreter, parseInterpretation, samplingPrompt, wireSampling } from '../../../bridge/mcp/sampling-interpreter';
import { failure } from '../../twins/error-code';

/**
 * The MCP-sampling interpreter against the SDK's real Server and Client, linked in memory: what it asks the
 * client's model, and how every kind of answer becomes an Interpretation or a LithosError.
 */

const REQ: InterpretRequest = {
  query: 'how should we size the connection pool',
  query_class: 'design',
  temperature: 0.42,
  candidates: [
    { id: 'n-pool', title: 'Pool sizing', path: 'atlas/Pool sizing.md', note_type: 'observation', score: 0.9, excerpt: 'The pool was  too small\nfor the nightly batch.' },
    { id: 'n-index', title: 'Index', path: 'atlas/Index.md', note_type: 'concept', score: 0.7, excerpt: '' },
    { id: 'n-adr', title: 'ADR 7', path: 'adr/ADR 7.md', note_type: 'summary', score: 0.5, excerpt: 'x'.repeat(1000) },
  ],
  min: 3,
  max: 15,
};

const ANSWER = { selected: ['n-index', 'n-pool'], bridges: [{ a: 'n-pool', b: 'n-index', why: 'both about pool exhaustion' }], confidence: 0.8, follow_up_queries: [] };

const text = (t: string): CreateMessageResult => ({ model: 'canned', role: 'assistant', content: { type: 'text', text: t } });

interface Pair {
  server: Server;
  client: Client;
  asked: CreateMessageRequest['params'][];
  close(): Promise<void>;
}

/** A Server and a Client linked in memory; the client declares sampling when it is given an answerer. */
async function pair(answer?: (req: CreateMessageRequest['params']) => Promise<CreateMessageResult> | CreateMessageResult): Promise<Pair> {
  const server = new Server({ name: 'lithos-test', version: '0' }, { capabilities: { tools: {} } });
  const client = new Client({ name: 'sampling-client', version: '0' }, answer ? { capabilities: { sampling: {} } } : {});
  const asked: CreateMessageRequest['params'][] = [];
  if (answer) {
    client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      asked.push(req.params);
      return answer(req.params);
    });
  }
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  return { server, client, asked, close: async () => { await client.close(); await server.close(); } };
}

function interpreterOf(p: Pair, timeoutMs?: number): SamplingInterpreter {
  return new SamplingInterpreter((params, options) => p.server.createMessage(params, options), { timeoutMs });
}

describe('over a client that samples', () => {
  test('asks once with a compact prompt (query, class, temperature, candidates with id, title, type and excerpt) and returns the validated selection', async () => {
    const p = await pair(() => text(JSON.stringify(ANSWER)));
    try {
      expect(await interpreterOf(p).interpret(REQ)).toEqual(ANSWER);
      expect(p.asked).toHaveLength(1);
      const params = p.asked[0];
      expect(params).toMatchObject({ includeContext: 'none', maxTokens: expect.any(Number), systemPrompt: expect.stringContaining('JSON') });
      const prompt = (params.messages[0].content as { type: 'text'; text: string }).text;
      expect(prompt).toBe(samplingPrompt(REQ));
      expect(prompt).toContain('Query (design): how should we size the connection pool');
      expect(prompt).toContain('temperature 0.42');
      expect(prompt).toContain('1. id=n-pool | Pool sizing | observation\n   The pool was too small for the nightly batch.');
      expect(prompt).toContain('2. id=n-index | Index | concept\n3. id=n-adr');
      expect(prompt).not.toContain('x'.repeat(281));
      expect(prompt).toContain('Select the 3 to 15 candidates');
      expect(prompt).toContain('"follow_up_queries"');
    } finally {
      await p.close();
    }
  });

  test('garbage text is a protocol_error quoting the start of the answer', async () => {
    const p = await pair(() => text('Sure! Here are the notes I would pick: Pool sizing and Index, because they are both about the pool and more…'));
    try {
      const err = await failure(interpreterOf(p).interpret(REQ));
      expect(err.code).toBe('protocol_error');
      expect(err.message).toMatch(/^the MCP client's sampling answer is not JSON: "Sure! Here are the notes/);
      expect(err.message.length).toBeLessThan(200);
    } finally {
      await p.close();
    }
  });

  test('an answer without text content is a protocol_error', async () => {
    const p = await pair(() => ({ model: 'canned', role: 'assistant', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } }));
    try {
      const err = await failure(interpreterOf(p).interpret(REQ));
      expect(err.toJSON()).toMatchObject({ code: 'protocol_error', message: "the MCP client's sampling answer has no text content (got image)" });
    } finally {
      await p.close();
    }
  });

  test('a client that refuses (an error answer) is unavailable, with its message', async () => {
    const p = await pair(() => {
      throw new McpError(-1, 'User rejected sampling request');
    });
    try {
      const err = await failure(interpreterOf(p).interpret(REQ));
      expect(err.code).toBe('unavailable');
      expect(err.message).toContain('User rejected sampling request');
    } finally {
      await p.close();
    }
  });

  test('a client that never answers is a timeout, not a hang', async () => {
    let release!: () => void;
    const never = new Promise<CreateMessageResult>((resolve) => (release = () => resolve(text('{}'))));
    const p = await pair(() => never);
    try {
      const err = await failure(interpreterOf(p, 30).interpret(REQ));
      expect(err.code).toBe('timeout');
      expect(err.message).toBe('the MCP client did not answer sampling/createMessage within 30 ms');
      expect(err.data).toEqual({ retryable: true });
    } finally {
      release();
      await p.close();
    }
  });
});

describe('parseInterpretation', () => {
  const ok = (t: string) => parseInterpretation(text(t), REQ);
  const bad = (t: string): LithosError => {
    try {
      ok(t);
    } catch (err) {
      expect(err).toBeInstanceOf(LithosError);
      expect((err as LithosError).code).toBe('protocol_error');
      return err as LithosError;
    }
    throw new Error(`expected ${t} to be refused`);
  };

  test('a JSON object inside a Markdown code fence is accepted; missing lists default to empty', () => {
    expect(ok('```json\n{"selected":["n-pool"],"confidence":0.5}\n```')).toEqual({ selected: ['n-pool'], bridges: [], confidence: 0.5, follow_up_queries: [] });
    expect(ok('  {"selected":["n-pool"],"confidence":1,"bridges":[],"follow_up_queries":[]}\n')).toMatchObject({ selected: ['n-pool'], confidence: 1 });
  });

  test('ids that are not candidates are dropped, duplicates kept once, bridges only between candidates, at most 2 follow-ups', () => {
    const r = ok(
      JSON.stringify({
        selected: ['n-adr', 'made-up', 'n-adr', 'n-pool'],
        bridges: [{ a: 'n-adr', b: 'made-up', why: 'x' }, { a: 'n-adr', b: 'n-adr', why: 'self' }, { a: 'n-adr', b: 'n-pool', why: 'same decision' }],
        confidence: 0.3,
        follow_up_queries: ['pool metrics', 'batch schedule', 'third'],
      }),
    );
    expect(r).toEqual({ selected: ['n-adr', 'n-pool'], bridges: [{ a: 'n-adr', b: 'n-pool', why: 'same decision' }], confidence: 0.3, follow_up_queries: ['pool metrics', 'batch schedule'] });
  });

  test.each([
    ['', /is not JSON/],
    ['[1,2]', /shape asked for: the answer/],
    ['{"selected":["n-pool"]}', /confidence/],
    ['{"selected":["n-pool"],"confidence":1.5}', /confidence/],
    ['{"selected":["n-pool"],"confidence":"high"}', /confidence/],
    ['{"selected":[],"confidence":0.5}', /selected/],
    ['{"selected":"n-pool","confidence":0.5}', /selected/],
    ['{"selected":["n-pool"],"confidence":0.5,"bridges":[{"a":"n-pool"}]}', /bridges\.0\.b/],
    ['{"selected":["n-pool"],"confidence":0.5,"follow_up_queries":["a","b","c","d","e","f"]}', /follow_up_queries/],
    ['{"selected":["nope","nada"],"confidence":0.5}', /selected none of the 3 candidate ids \(got "nope, nada"\)/],
  ])('%j → protocol_error %s', (answer, message) => {
    expect(bad(answer).message).toMatch(message);
  });
});

describe('wireSampling', () => {
  /** Records what the tool host was given. */
  class Sink {
    given: (Interpreter | null)[] = [];
    setInterpreter(i: Interpreter | null): void {
      this.given.push(i);
    }
  }

  async function wired(answer?: () => CreateMessageResult): Promise<{ sink: Sink; p: Pair }> {
    const server = new Server({ name: 'lithos-test', version: '0' }, { capabilities: { tools: {} } });
    const sink = new Sink();
    wireSampling(server, sink, silentLogger);
    const client = new Client({ name: 'c', version: '0' }, answer ? { capabilities: { sampling: {} } } : {});
    if (answer) client.setRequestHandler(CreateMessageRequestSchema, answer);
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    await client.ping(); // the initialized notification has been handled once a later request is answered
    return { sink, p: { server, client, asked: [], close: async () => { await client.close(); await server.close(); } } };
  }

  test('a client that declared sampling gets a SamplingInterpreter that asks it', async () => {
    const { sink, p } = await wired(() => text(JSON.stringify(ANSWER)));
    try {
      expect(sink.given).toHaveLength(1);
      expect(sink.given[0]).toBeInstanceOf(SamplingInterpreter);
      expect(await sink.given[0]!.interpret(REQ)).toEqual(ANSWER);
    } finally {
      await p.close();
    }
  });

  test('a client without sampling gets none', async () => {
    const { sink, p } = await wired();
    try {
      expect(sink.given).toEqual([null]);
    } finally {
      await p.close();
    }
  });
});
