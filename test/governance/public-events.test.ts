import { createHmac } from 'crypto';
import { createDispatcher } from '../../shared/tools/dispatcher';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import type { LithosEvent } from '../../shared/governance/public-events';
import { WebhookSender, type HttpPost } from '../../shared/governance/webhooks';
import { failure } from '../twins/error-code';
import { note, openHarness, type Harness } from '../engine/harness';

/**
 * Events for other tools: the typed stream other plugins subscribe to, and the webhooks the policy lists —
 * signed, retried with backoff, bounded, audited when they fail, and only ever sent to loopback or to https
 * hosts the person allowed.
 */

const HUMAN = { kind: 'human', agent_id: null } as const;
const AGENT = { kind: 'agent', agent_id: 'agent-a' } as const;
const HOOK = 'http://127.0.0.1:8787/hook';
const SECRET = 'a-secret-of-sixteen-chars';

interface Sent {
  url: string;
  body: string;
  headers: Record<string, string>;
}

/** An endpoint twin: answers each POST with the next status of `answers` (then 200); 0 means a network error. */
function endpoint(answers: number[] = []): { post: HttpPost; sent: Sent[] } {
  const sent: Sent[] = [];
  const post: HttpPost = async (url, body, headers) => {
    sent.push({ url, body, headers });
    const status = answers.shift() ?? 200;
    if (status === 0) throw new TypeError('fetch failed: connection refused');
    return { status };
  };
  return { post, sent };
}

let h: Harness;
let call: (name: string, args: unknown, caller?: typeof HUMAN | typeof AGENT) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON results
async function open(post: HttpPost | null): Promise<void> {
  h = await openHarness({ 'notes/A.md': note({ title: 'A' }, 'The cache is warm.\n'), 'notes/B.md': note({ title: 'B' }, 'The cache is cold.\n') }, { deps: { post } });
  await h.engine.reconcile();
  const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: h.engine, deleteTo: 'trash_folder' }));
  call = (name, args, caller = HUMAN) => tools.call(name, args, caller);
}
afterEach(async () => {
  await h?.engine.close();
});

const webhooks = () => h.engine.services.governance.webhooks;
const audited = async (action: string) => (await h.engine.services.governance.audit.recent({ limit: 100, action })).map((e) => e.data);

describe('the event stream', () => {
  test('changes arrive as typed events, in order, with ids and paths but never a note\'s text', async () => {
    await open(null);
    const seen: LithosEvent[] = [];
    const off = h.engine.services.governance.events.on('*', (e) => seen.push(e));
    const written: LithosEvent[] = [];
    h.engine.services.governance.events.on('note.written', (e) => written.push(e));
    const w = await call('lithos_write', { title: 'C', content: 'Secret words in the body.\n' }, AGENT);
    await call('lithos_conflict_open', { a: 'notes/A.md', b: 'notes/B.md', evidence: 'warm vs cold' });
    // The conflict's callouts are written into both notes: those writes are events too, after the conflict.
    expect(seen.map((e) => e.type)).toEqual(['note.written', 'conflict.opened', 'note.written', 'note.written']);
    expect(written).toEqual(seen.filter((e) => e.type === 'note.written'));
    expect(seen[0]).toMatchObject({ target: w.id, actor: { kind: 'agent', id: 'agent-a' }, data: { path: 'C.md', created: true } });
    expect(seen[1].data).toMatchObject({ a_path: 'notes/A.md', b_path: 'notes/B.md' });
    expect(seen.slice(2).map((e) => e.data.path).sort()).toEqual(['notes/A.md', 'notes/B.md']);
    expect(seen.map((e) => e.seq)).toEqual([...seen.map((e) => e.seq)].sort((a, b) => a - b));
    expect(JSON.stringify(seen)).not.toContain('Secret words');
    off();
    await call('lithos_write', { title: 'D', content: 'x\n' }, AGENT);
    expect(seen).toHaveLength(4);
    expect(written).toHaveLength(4);
  });

  test('a listener that throws does not stop the others; an unknown type is refused', async () => {
    await open(null);
    const got: string[] = [];
    h.engine.services.governance.events.on('note.written', () => {
      throw new Error('a broken plugin');
    });
    h.engine.services.governance.events.on('note.written', (e) => got.push(String(e.data.path)));
    await call('lithos_write', { title: 'E', content: 'x\n' }, AGENT);
    expect(got).toEqual(['E.md']);
    expect(() => h.engine.services.governance.events.on('note.exploded' as never, () => undefined)).toThrow(/Unknown Lithos event "note.exploded"/);
  });
});

describe('webhooks', () => {
  test('each wanted event is POSTed as JSON, signed with HMAC-SHA256 over the exact body', async () => {
    const ep = endpoint();
    await open(ep.post);
    await h.engine.services.governance.policy.set({ webhooks: [{ url: HOOK, secret: SECRET, events: ['note.written'] }] });
    await call('lithos_write', { title: 'F', content: 'x\n' }, AGENT);
    await call('lithos_conflict_open', { a: 'notes/A.md', b: 'notes/B.md' }); // not wanted; its callouts' writes are
    await webhooks().settled();
    expect(ep.sent.map((x) => JSON.parse(x.body).data.path)).toEqual(['F.md', 'notes/A.md', 'notes/B.md']);
    const [s] = ep.sent;
    expect(s.url).toBe(HOOK);
    expect(JSON.parse(s.body)).toMatchObject({ type: 'note.written', data: { path: 'F.md' } });
    expect(s.headers).toMatchObject({ 'content-type': 'application/json', 'x-lithos-event': 'note.written', 'x-lithos-attempt': '1' });
    expect(s.headers['x-lithos-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(s.body).digest('hex')}`);
    expect(s.headers['x-lithos-delivery']).toBe(String(JSON.parse(s.body).seq));
  });

  test('a network error or 5xx is retried with growing delays; the same delivery id each time', async () => {
    const ep = endpoint([0, 503, 200]);
    await open(ep.post);
    await h.engine.services.governance.policy.set({ webhooks: [{ url: HOOK, events: ['note.written'] }] });
    await call('lithos_write', { title: 'G', content: 'x\n' }, AGENT);
    await webhooks().settled();
    expect(ep.sent).toHaveLength(1);
    h.clock.advance(999);
    await webhooks().settled();
    expect(ep.sent).toHaveLength(1); // not before the first delay (1 s)
    h.clock.advance(1);
    await webhooks().settled();
    expect(ep.sent).toHaveLength(2);
    h.clock.advance(2000); // the second delay doubles
    await webhooks().settled();
    expect(ep.sent.map((s) => s.headers['x-lithos-attempt'])).toEqual(['1', '2', '3']);
    expect(new Set(ep.sent.map((s) => s.headers['x-lithos-delivery'])).size).toBe(1);
    expect(webhooks().waiting()).toEqual({ [HOOK]: 0 });
    expect(await audited('webhook.failed')).toEqual([]);
  });

  test('a 4xx answer is not retried; the last failed attempt is audited, and the next event still goes', async () => {
    const ep = endpoint([404, 500, 500, 500, 500, 500, 500]);
    await open(ep.post);
    await h.engine.services.governance.policy.set({ webhooks: [{ url: `${HOOK}?token=abc`, events: ['note.written'] }] });
    await call('lithos_write', { title: 'H', content: 'x\n' }, AGENT);
    await call('lithos_write', { title: 'I', content: 'x\n' }, AGENT);
    await webhooks().settled();
    for (let i = 0; i < 6; i++) {
      h.clock.advance(5 * 60_000);
      await webhooks().settled();
    }
    expect(ep.sent.map((s) => JSON.parse(s.body).data.path)).toEqual(['H.md', 'I.md', 'I.md', 'I.md', 'I.md', 'I.md', 'I.md']);
    const failed = await audited('webhook.failed');
    expect(failed.reverse()).toEqual([
      expect.objectContaining({ event: 'note.written', attempts: 1, error: 'HTTP 404' }),
      expect.objectContaining({ event: 'note.written', attempts: 6, error: 'HTTP 500' }),
    ]);
    const entries = await h.engine.services.governance.audit.recent({ action: 'webhook.failed' });
    expect(entries.every((e) => e.target === HOOK)).toBe(true); // the query string (a token) is not kept
  });

  test('the queue is bounded: the oldest waiting events are dropped and the count audited once it drains', async () => {
    await open(null);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const sent: string[] = [];
    const post: HttpPost = async (_url, body) => {
      sent.push(JSON.parse(body).data.path);
      await gate; // the first delivery hangs while more events arrive
      return { status: 200 };
    };
    const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
    const sender = new WebhookSender({ post, timers: h.clock, clock: h.clock, audit: h.engine.services.governance.audit, logger: quiet, endpoints: () => [{ url: HOOK }] }, { maxQueue: 2 });
    const off = h.engine.services.governance.events.on('note.written', (e) => sender.send(e));
    for (const t of ['J', 'K', 'L', 'M']) await call('lithos_write', { title: t, content: 'x\n' }, AGENT);
    release();
    await sender.settled();
    off();
    expect(sent).toEqual(['J.md', 'M.md']); // J was in flight; K and L made way for M
    expect(await audited('webhook.dropped')).toEqual([{ dropped: 2, queue_limit: 2 }]);
  });

  test('the policy sends events only to loopback, or over https to hosts it names', async () => {
    await open(endpoint().post);
    const set = (p: Record<string, unknown>) => h.engine.services.governance.policy.set(p);
    expect((await failure(set({ webhooks: [{ url: 'https://hooks.example.com/x' }] }))).message).toMatch(/"hooks.example.com" is neither a loopback host nor listed in webhook_hosts/);
    expect((await failure(set({ webhooks: [{ url: 'http://hooks.example.com/x' }], webhook_hosts: ['hooks.example.com'] }))).message).toMatch(/must use https/);
    expect((await failure(set({ webhooks: [{ url: 'http://user:pw@127.0.0.1/x' }] }))).message).toMatch(/must not carry credentials/);
    expect((await failure(set({ webhooks: [{ url: HOOK, secret: 'short' }] }))).message).toMatch(/at least 16 characters/);
    await set({ webhooks: [{ url: 'https://hooks.example.com/x' }, { url: 'http://localhost:9/h' }, { url: 'http://[::1]:9/h' }], webhook_hosts: ['hooks.example.com'] });
    expect(h.engine.services.governance.policy.get().webhooks).toHaveLength(3);
  });

  test('a host that cannot POST says so once and sends nothing; failures never become events themselves', async () => {
    await open(null);
    await h.engine.services.governance.policy.set({ webhooks: [{ url: HOOK }] });
    const seen: string[] = [];
    h.engine.services.governance.events.on('*', (e) => seen.push(e.type));
    await call('lithos_write', { title: 'N', content: 'x\n' }, AGENT);
    expect(webhooks().waiting()).toEqual({});
    expect(seen).toEqual(['note.written']);
  });
});
