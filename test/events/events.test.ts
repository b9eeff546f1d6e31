import { openHarness } from '../engine/harness';
import { AGENT, HUMAN, OTHER, POOL_ID, SECRET_ID, openTools, type ToolHarness } from '../tools/fixture';
import { createDispatcher } from '../../shared/tools/dispatcher';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import { EXTERNAL_EDIT_EVERY_MS } from '../../shared/learning/external-edits';

/**
 * Episodic events (model/events.ts): recorded and listed within the caller's scope, aged by the learning pass
 * (archived after events.ttl_days, pruned events.archive_days later) unless linked to a note or of an immortal
 * kind, every agent tool call recorded without its secrets, and kept across a crash.
 */
const DAY = 24 * 3600 * 1000;

let h: ToolHarness;
beforeEach(async () => {
  h = await openTools();
});
afterEach(async () => {
  await h.engine.close();
});

const events = async (caller = AGENT, args: Record<string, unknown> = {}): Promise<Array<Record<string, any>>> => // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON results
  (await h.call('lithos_events', args, caller)).events;
const summaries = async (caller = AGENT, args: Record<string, unknown> = {}): Promise<string[]> => (await events(caller, { kinds: ['observation', 'milestone', 'error', 'session', 'trajectory'], ...args })).map((e) => e.summary);

describe('recording and listing within scope', () => {
  test("an agent lists its own private events; another agent never sees them; the person sees all", async () => {
    const r = await h.call('lithos_event_record', { kind: 'observation', summary: 'pool saturates at 9pm' }, AGENT);
    expect(r.event).toMatchObject({ kind: 'observation', actor: 'agent-a', scope: 'agent_private', namespace: 'agent/agent-a', status: 'active' });
    await h.call('lithos_event_record', { kind: 'observation', summary: 'b thinks about zebras' }, OTHER);
    expect(await summaries(AGENT)).toEqual(['pool saturates at 9pm']);
    expect(await summaries(OTHER)).toEqual(['b thinks about zebras']);
    expect((await summaries(HUMAN)).sort()).toEqual(['b thinks about zebras', 'pool saturates at 9pm']);
  });

  test('a shared event is read by every agent; newest first, paged', async () => {
    for (const s of ['one', 'two', 'three']) {
      await h.call('lithos_event_record', { kind: 'trajectory', summary: s, scope: 'shared' }, AGENT);
      h.clock.advance(1000);
    }
    const first = await h.call('lithos_events', { kinds: ['trajectory'], limit: 2 }, OTHER);
    expect(first.events.map((e: { summary: string }) => e.summary)).toEqual(['three', 'two']);
    const second = await h.call('lithos_events', { kinds: ['trajectory'], limit: 2, cursor: first.next_cursor }, OTHER);
    expect(second.events.map((e: { summary: string }) => e.summary)).toEqual(['one']);
    expect(second.next_cursor).toBeNull();
  });

  test('an agent records only what it could read itself, of the kinds agents record', async () => {
    await h.engine.services.governance.policy.set({ default_namespaces: ['project/atlas'] });
    await expect(h.call('lithos_event_record', { kind: 'observation', summary: 'x', scope: 'project', namespace: 'project/other' }, AGENT)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(h.call('lithos_event_record', { kind: 'observation', summary: 'x', scope: 'user_private' }, AGENT)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(h.call('lithos_event_record', { kind: 'observation', summary: 'x', scope: 'task', task_id: 'someone-elses' }, AGENT)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(h.call('lithos_event_record', { kind: 'commit', summary: 'forged commit' }, AGENT)).rejects.toMatchObject({ code: 'invalid_argument' });
    const ok = await h.call('lithos_event_record', { kind: 'observation', summary: 'in my project', scope: 'project', namespace: 'project/atlas' }, AGENT);
    expect(ok.event.namespace).toBe('project/atlas');
    expect(await summaries(HUMAN)).toEqual(['in my project']);
  });

  test("a link to a note the agent may not see is not_found, naming nothing of it; links filter the list", async () => {
    const err = await h.call('lithos_event_record', { kind: 'observation', summary: 'peek', links: [SECRET_ID] }, AGENT).catch((e: Error) => e);
    expect(err).toMatchObject({ code: 'not_found' });
    expect(JSON.stringify(err)).not.toMatch(/zebra|Secret plan/);
    await h.call('lithos_event_record', { kind: 'observation', summary: 'about the pool', links: [POOL_ID] }, AGENT);
    await h.call('lithos_event_record', { kind: 'observation', summary: 'about nothing' }, AGENT);
    expect(await summaries(AGENT, { note: POOL_ID })).toEqual(['about the pool']);
    // The person links agent-b's private note; agent-b's own event links it too, and agent-a sees neither.
    await h.call('lithos_event_record', { kind: 'observation', summary: 'b on its plan', links: [SECRET_ID], scope: 'shared' }, OTHER);
    expect(await summaries(AGENT, { kinds: ['observation'] })).not.toContain('b on its plan');
    expect(await summaries(OTHER, { note: SECRET_ID })).toEqual(['b on its plan']);
  });

  test('bad input is refused with a clear error and writes nothing', async () => {
    await expect(h.call('lithos_event_record', { kind: 'observation', summary: '' }, AGENT)).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(h.call('lithos_event_record', { kind: 'observation', summary: 'big', data: { blob: 'x'.repeat(5000) } }, AGENT)).rejects.toMatchObject({ code: 'invalid_argument', message: expect.stringContaining('data') });
    await expect(h.call('lithos_event_record', { kind: 'observation', summary: 'x', scope: 'task' }, AGENT)).rejects.toMatchObject({ code: 'invalid_argument', message: expect.stringContaining('task_id') });
    await expect(h.call('lithos_events', { since: 'yesterday-ish' }, AGENT)).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(h.engine.services.learning.memory.events.count()).toBe(0);
  });
});

describe('the TTL lifecycle (learning pass, shifted clock)', () => {
  const statusOf = (summary: string): string | undefined =>
    h.engine.services.learning.memory.events.query({ limit: 100 }).find((e) => e.summary === summary)?.status;

  test('active → archived after ttl_days → pruned archive_days later; a linked event and an immortal kind stay', async () => {
    const k = h.engine.services.learning.tunables.get().events;
    await h.call('lithos_event_record', { kind: 'observation', summary: 'mortal' }, AGENT);
    await h.call('lithos_event_record', { kind: 'observation', summary: 'evidence', links: [POOL_ID] }, AGENT);
    await h.call('lithos_event_record', { kind: 'milestone', summary: 'shipped' }, AGENT);
    const learning = h.engine.services.learning;
    const t0 = h.clock.now();

    expect(await learning.decay(t0 + (k.ttl_days - 1) * DAY)).toMatchObject({ events_archived: 0, events_pruned: 0 });
    expect(statusOf('mortal')).toBe('active');

    const archivedAt = t0 + (k.ttl_days + 1) * DAY;
    expect(await learning.decay(archivedAt)).toMatchObject({ events_archived: 1, events_pruned: 0 });
    expect(statusOf('mortal')).toBe('archived');
    expect(await summaries(AGENT, { status: 'archived' })).toEqual(['mortal']);

    expect(await learning.decay(archivedAt + (k.archive_days - 1) * DAY)).toMatchObject({ events_pruned: 0 });
    expect(await learning.decay(archivedAt + (k.archive_days + 1) * DAY)).toMatchObject({ events_pruned: 1 });
    expect(statusOf('mortal')).toBeUndefined();
    expect(statusOf('evidence')).toBe('active');
    expect(statusOf('shipped')).toBe('active');
    const audit = await h.engine.services.governance.audit.recent({ action: 'events.age', limit: 10 });
    expect(audit.map((e) => e.data)).toEqual(expect.arrayContaining([expect.objectContaining({ archived: 1, pruned: 0 }), expect.objectContaining({ archived: 0, pruned: 1 })]));
  });

  test("the vault's learning.json sets the TTLs and the immortal kinds", async () => {
    await h.engine.services.learning.tunables.set({ events: { ttl_days: 2, archive_days: 1, immortal_kinds: ['error'] } });
    await h.call('lithos_event_record', { kind: 'error', summary: 'kept: immortal kind' }, AGENT);
    await h.call('lithos_event_record', { kind: 'milestone', summary: 'no longer immortal' }, AGENT);
    const t0 = h.clock.now();
    await h.engine.services.learning.decay(t0 + 3 * DAY);
    await h.engine.services.learning.decay(t0 + 5 * DAY);
    expect(statusOf('kept: immortal kind')).toBe('active');
    expect(statusOf('no longer immortal')).toBeUndefined();
    await expect(h.engine.services.learning.tunables.set({ events: { immortal_kinds: ['not-a-kind'] } })).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  test('a link to a note that no longer exists no longer keeps an event', async () => {
    await h.call('lithos_event_record', { kind: 'observation', summary: 'about a note deleted later', links: [POOL_ID] }, AGENT);
    await h.call('lithos_delete', { id: POOL_ID }, HUMAN);
    const memory = h.engine.services.learning.memory;
    await memory.nodes.purgeTombstones(h.clock.now() + 1);
    const t0 = h.clock.now();
    const k = h.engine.services.learning.tunables.get().events;
    await h.engine.services.learning.decay(t0 + (k.ttl_days + 1) * DAY);
    expect(statusOf('about a note deleted later')).toBe('archived');
  });
});

describe('tool calls as events', () => {
  const KEY = 'sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c';
  const TOKEN = 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z';

  test("every agent call is recorded in the agent's own scope, summarised, with no secret in it", async () => {
    await h.call('lithos_write', { title: `Deploy notes ${TOKEN}`, namespace: 'project/atlas', content: `Use the key ${KEY} to deploy.\n${'filler '.repeat(40)}` }, AGENT);
    const retrieved = await h.call('lithos_retrieve', { query_text: `connection pool Bearer ${TOKEN}` }, AGENT);
    await h.call('lithos_read', { id: 'no-such-note' }, AGENT).catch(() => undefined);
    await h.call('lithos_search', { query: 'pool' }, HUMAN);
    await h.engine.services.learning.events.flush();

    const calls = await events(AGENT, { kinds: ['tool_call'] });
    expect(calls.map((e) => e.summary)).toEqual(['lithos_read not_found', 'lithos_retrieve ok', 'lithos_write ok']);
    expect(calls.every((e) => e.scope === 'agent_private' && e.namespace === 'agent/agent-a' && e.actor === 'agent-a')).toBe(true);
    const retrieve = calls.find((e) => e.data.tool === 'lithos_retrieve');
    expect(retrieve?.data.receipt_id).toBe(retrieved.receipt_id); // a reference, not a copy
    expect(retrieve?.data).not.toHaveProperty('final_nodes');
    const write = calls.find((e) => e.data.tool === 'lithos_write');
    expect(write?.data.args.namespace).toBe('project/atlas');
    expect(write?.data.args.content).toMatch(/^<\d+ chars>$/);
    const stored = JSON.stringify(h.engine.services.learning.memory.events.query({ limit: 100 }));
    expect(stored).not.toContain(KEY);
    expect(stored).not.toContain(TOKEN);
    expect(stored).not.toContain('sk-live');
    // Another agent sees none of them; the person's own calls are not recorded.
    expect(await events(OTHER, { kinds: ['tool_call'] })).toEqual([]);
    expect((await events(HUMAN, { kinds: ['tool_call'] })).map((e) => e.actor)).toEqual(['agent-a', 'agent-a', 'agent-a']);
  });

  test("a verified agent's key is never recorded; an unverified caller's calls are the person's only", async () => {
    const key = await h.engine.services.governance.agentKeys.issue('agent-a');
    await h.call('lithos_search', { query: 'pool' }, { ...AGENT, key });
    await h.call('lithos_search', { query: 'pool' }, AGENT); // keys are issued now: without one, unverified
    await h.engine.services.learning.events.flush();
    const stored = h.engine.services.learning.memory.events.query({ kinds: ['tool_call'], limit: 10 });
    expect(JSON.stringify(stored)).not.toContain(key);
    expect(stored.map((e) => [e.actor, e.namespace])).toEqual([['agent-a (unverified)', ''], ['agent-a', 'agent/agent-a']]);
    // The verified agent-a sees its own call, not the impostor's filed under no namespace.
    expect((await events({ ...AGENT, key }, { kinds: ['tool_call'] })).map((e) => e.summary)).toEqual(['lithos_search ok']);
  });

  test('calls wait in memory and are written together, one batch per flush', async () => {
    const store = h.engine.services.learning.memory;
    const before = store.journalSize();
    for (let i = 0; i < 10; i++) await h.call('lithos_search', { query: `pool ${i}` }, AGENT);
    expect(h.engine.services.learning.events.queued).toBe(10);
    expect(store.events.count()).toBe(0);
    await h.engine.services.learning.events.flush();
    expect(store.events.count()).toBe(10);
    expect(store.journalSize() - before).toBe(1);
  });

  test('a queued call is written by its timer without a flush', async () => {
    await h.call('lithos_search', { query: 'pool' }, AGENT);
    h.clock.advance(1_000);
    await h.engine.services.learning.events.flush(); // waits for the timer's write in flight
    expect(h.engine.services.learning.memory.events.count()).toBe(1);
  });
});

describe('external edits as events', () => {
  const POOL = 'project/atlas/Pool sizing.md';
  const SECRET = 'agent/agent-b/Secret plan.md';

  test("an edit outside the tools is an external_edit with its note's scope, one per note per window; the tools' own writes are not", async () => {
    h.engine.startWatching();
    h.vault.put(POOL, `${h.vault.text(POOL)}\nEdited in Obsidian.\n`);
    h.vault.put(SECRET, `${h.vault.text(SECRET)}\nzebra again.\n`);
    await h.engine.settle();
    h.vault.put(POOL, `${h.vault.text(POOL)}\nAnd again, a second later.\n`); // coalesced into the first
    await h.engine.settle();
    h.clock.advance(EXTERNAL_EDIT_EVERY_MS + 1000); // past the window: a write recorded now would be a second event
    await h.call('lithos_write', { path: POOL, content: 'Rewritten by a tool.\n' }, HUMAN);
    await h.engine.settle();
    await h.engine.services.learning.events.flush();
    const edits = await events(HUMAN, { kinds: ['external_edit'] });
    expect(edits.map((e) => e.data.path).sort()).toEqual([SECRET, POOL].sort());
    // Each is in the audit trail too, with the same coalescing; the tool's write is a note.write of its own.
    const audited = await h.engine.services.governance.audit.recent({ action: 'external.edit', limit: 10 });
    expect(audited.map((e) => e.data.path).sort()).toEqual([SECRET, POOL].sort());
    expect(audited.every((e) => e.actor.kind === 'system' && e.actor.id === 'outside-the-tools')).toBe(true);
    expect(edits.find((e) => e.data.path === SECRET)).toMatchObject({ scope: 'agent_private', namespace: 'agent/agent-b', links: [], actor_kind: 'system' });
    // agent-a may see the pool note, not agent-b's plan; agent-b sees its own note's edit.
    expect((await events(AGENT, { kinds: ['external_edit'] })).map((e) => e.data.path)).toEqual([POOL]);
    expect((await events(OTHER, { kinds: ['external_edit'] })).map((e) => e.data.path)).toContain(SECRET);
  });

  test("an agent cannot name notes in data.about (it would tell a hidden note from a missing one)", async () => {
    await expect(h.call('lithos_event_record', { kind: 'observation', summary: 'probe', data: { about: [SECRET_ID] } }, AGENT)).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});

test('events survive a crash (journal replay) and a clean reopen', async () => {
  await h.call('lithos_event_record', { kind: 'milestone', summary: 'before the crash', links: [POOL_ID] }, AGENT);
  await h.call('lithos_search', { query: 'pool' }, AGENT);
  await h.engine.flush(); // the queued tool call too
  await h.call('lithos_event_record', { kind: 'observation', summary: 'journal only' }, AGENT);
  // The process dies here: the files as they are now, nothing closed.
  const crashed = await openHarness({}, { vault: h.vault, blobs: h.blobs.clone(), clock: h.clock });
  try {
    const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: crashed.engine }));
    const listed = (await tools.call('lithos_events', {}, AGENT)) as { events: { summary: string; links: string[] }[] };
    expect(listed.events.map((e) => e.summary)).toEqual(expect.arrayContaining(['before the crash', 'journal only', 'lithos_search ok']));
    expect(listed.events.find((e) => e.summary === 'before the crash')?.links).toEqual([POOL_ID]);
  } finally {
    await crashed.engine.close();
  }
});
