import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BoundedStdioTransport } from '../../../bridge/mcp/bounded-stdio';

/** A transport over in-memory pipes: what it hands the server, what it answers, what it reports. */
async function open(maxBytes: number) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const t = new BoundedStdioTransport(stdin, stdout, maxBytes);
  const received: JSONRPCMessage[] = [];
  const errors: string[] = [];
  let written = '';
  stdout.on('data', (d: Buffer) => (written += d.toString('utf8')));
  t.onmessage = (m) => received.push(m);
  t.onerror = (e) => errors.push(e.message);
  await t.start();
  /** Writes chunks and waits until the transport has taken them (PassThrough delivers on a later tick). */
  const feed = async (...chunks: string[]) => {
    for (const c of chunks) stdin.write(c);
    await new Promise((r) => setImmediate(r));
  };
  const answers = () => written.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: unknown; error?: { code: number; data?: Record<string, unknown> } });
  return { t, feed, received, errors, answers };
}

const call = (id: number, text: string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'lithos_write', arguments: { content: text } } });

describe('BoundedStdioTransport', () => {
  it('hands over whole lines, however the stream cuts them', async () => {
    const s = await open(1000);
    const a = call(1, 'first');
    await s.feed(a.slice(0, 10), a.slice(10) + '\n' + call(2, 'second').slice(0, 5));
    await s.feed(call(2, 'second').slice(5) + '\r\n');
    expect(s.received.map((m) => (m as { id: number }).id)).toEqual([1, 2]);
    expect(s.answers()).toEqual([]);
  });

  it('skips a line over the limit, answers its id with payload_too_large, and reads the next message', async () => {
    const s = await open(200);
    const big = call(7, 'x'.repeat(1000));
    // In pieces, as a pipe delivers it: the limit is crossed in the middle of a chunk.
    await s.feed(big.slice(0, 150), big.slice(150, 600), big.slice(600) + '\n' + call(8, 'small') + '\n');
    expect(s.received.map((m) => (m as { id: number }).id)).toEqual([8]);
    const [answer] = s.answers();
    expect(answer).toMatchObject({ id: 7, error: { code: -32600, data: { code: 'payload_too_large', max_bytes: 200 } } });
    expect(answer.error?.data?.bytes).toBe(Buffer.byteLength(big));
    expect(s.errors).toEqual([expect.stringMatching(/skipped \(limit 200\)/)]);
  });

  it('finds the id of an oversized request at its start or its end, never one nested in the params', async () => {
    const s = await open(100);
    const first = JSON.stringify({ jsonrpc: '2.0', id: 'a-1', method: 'tools/call', params: { arguments: { id: 'nested', content: 'y'.repeat(300) } } });
    const last = JSON.stringify({ method: 'tools/call', params: { arguments: { id: 'nested', content: 'y'.repeat(300) } }, jsonrpc: '2.0', id: 42 });
    const none = JSON.stringify({ method: 'notifications/x', params: { id: 'nested', content: 'y'.repeat(300) } });
    await s.feed(`${first}\n${last}\n${none}\n`);
    expect(s.answers().map((a) => a.id)).toEqual(['a-1', 42, null]);
  });

  it('answers a line that is not JSON with a parse error, and one that is not JSON-RPC with invalid request', async () => {
    const s = await open(1000);
    await s.feed('{not json\n', JSON.stringify({ id: 3, hello: 'world' }) + '\n', '\n', call(4, 'ok') + '\n');
    expect(s.answers()).toEqual([
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32700 }) }),
      expect.objectContaining({ id: 3, error: expect.objectContaining({ code: -32600 }) }),
    ]);
    expect(s.received.map((m) => (m as { id: number }).id)).toEqual([4]);
  });

  it('stops reading when closed', async () => {
    const s = await open(1000);
    let closed = 0;
    s.t.onclose = () => closed++;
    await s.t.close();
    await s.feed(call(5, 'late') + '\n');
    expect(s.received).toEqual([]);
    expect(closed).toBe(1);
  });
});
