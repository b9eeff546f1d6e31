import { AGENT_KEYS_FILE, AgentKeys } from '../../shared/governance/agent-keys';
import { AuditLog } from '../../shared/governance/audit';
import { z } from 'zod';
import { createDispatcher } from '../../shared/tools/dispatcher';
import type { ToolCaller, ToolDef } from '../../shared/tools/types';
import { MemoryBlobStore } from '../twins/memory-blobs';
import { FakeClock } from '../twins/fake-clock';
import { failure } from '../twins/error-code';
import { FIXTURE, POOL_ID, SECRET_ID, openTools, type ToolHarness } from '../tools/fixture';

const dec = new TextDecoder();

async function keysOver(blobs = new MemoryBlobStore()) {
  const clock = new FakeClock();
  const audit = await AuditLog.open({ blobs, clock });
  return { blobs, audit, keys: await AgentKeys.open({ blobs, clock, audit }) };
}

describe('AgentKeys (.lithos/agent-keys.json)', () => {
  it('before any key is issued, every agent is who its bridge says', async () => {
    const { keys } = await keysOver();
    expect(keys.inUse()).toBe(false);
    await expect(keys.verify('bob', undefined)).resolves.toBe(true);
  });

  it('once a key is issued, only that agent with that key verifies', async () => {
    const { keys, blobs, audit } = await keysOver();
    const bob = await keys.issue('bob');
    expect(bob).toMatch(/^lk_[A-Za-z0-9_-]{43}$/);
    await expect(keys.verify('bob', bob)).resolves.toBe(true);
    await expect(keys.verify('bob', undefined)).resolves.toBe(false);
    await expect(keys.verify('bob', bob.slice(0, -1) + (bob.endsWith('A') ? 'B' : 'A'))).resolves.toBe(false);
    await expect(keys.verify('alice', bob)).resolves.toBe(false); // another agent's key is not yours
    await expect(keys.verify('carol', undefined)).resolves.toBe(false); // keys are in use: no key, no trust
    await expect(keys.verify(null, bob)).resolves.toBe(false);
    // Only a hash is kept: the file does not hand the key to whoever reads the vault.
    const file = dec.decode((await blobs.read(AGENT_KEYS_FILE))!);
    expect(file).not.toContain(bob);
    expect(keys.list()).toEqual([{ agent_id: 'bob', issued_at: expect.any(String), hint: bob.slice(0, 7) }]);
    expect((await audit.recent()).map((e) => [e.action, e.target])).toEqual([['agent.key_issue', 'bob']]);
    expect(JSON.stringify(await audit.recent())).not.toContain(bob);
  });

  it('a new key replaces the old one; a revoked key verifies no more', async () => {
    const { keys, audit } = await keysOver();
    const first = await keys.issue('bob');
    const second = await keys.issue('bob');
    await expect(keys.verify('bob', first)).resolves.toBe(false);
    await expect(keys.verify('bob', second)).resolves.toBe(true);
    await expect(keys.revoke('bob')).resolves.toBe(true);
    await expect(keys.revoke('bob')).resolves.toBe(false);
    expect(keys.inUse()).toBe(false);
    expect((await audit.recent()).map((e) => e.action).sort()).toEqual(['agent.key_issue', 'agent.key_issue', 'agent.key_revoke']);
  });

  it('a damaged key file fails closed: keys count as in use, none verifies, and it is not saved over', async () => {
    const { blobs, keys } = await keysOver();
    const bob = await keys.issue('bob');
    await blobs.writeAtomic(AGENT_KEYS_FILE, new TextEncoder().encode('{ "agents": '));
    const again = (await keysOver(blobs)).keys;
    expect(again.problem).toMatch(/agent-keys\.json is not valid JSON/);
    expect(again.inUse()).toBe(true);
    await expect(again.verify('bob', bob)).resolves.toBe(false);
    await expect(again.verify('carol', undefined)).resolves.toBe(false);
    expect((await failure(again.issue('carol'))).code).toBe('store_corrupt');
  });
});

describe('an unverified agent (keys issued, none presented) through the tools', () => {
  let t: ToolHarness;
  let bobKey: string;
  beforeAll(async () => {
    t = await openTools(FIXTURE);
    bobKey = await t.engine.services.governance.agentKeys.issue('agent-b');
  });
  afterAll(() => t.engine.close());

  const claims = (key?: string): ToolCaller => ({ kind: 'agent', agent_id: 'agent-b', ...(key ? { key } : {}) });
  const paths = async (caller: ToolCaller) => ((await t.call('lithos_list', { limit: 200 }, caller)) as { notes: { path: string }[] }).notes.map((n) => n.path).sort();

  // The fixture's notes without an access_scope are shared; agent-b's plan is agent_private.
  const SHARED = ['project/atlas/Index.md', 'project/atlas/Pool sizing.md', 'shared/concepts/Connection pooling.md'];

  it('sees only shared notes — not even its own private ones — and may only read', async () => {
    expect(await paths(claims())).toEqual(SHARED);
    expect((await failure(t.call('lithos_read', { id: SECRET_ID }, claims()))).code).toBe('not_found');
    const refused = await failure(t.call('lithos_write', { title: 'Unverified', content: 'x\n', namespace: 'shared' }, claims()));
    expect(refused).toMatchObject({ code: 'forbidden', data: { verified: false } });
    expect(refused.message).toMatch(/LITHOS_AGENT_KEY/);
  });

  it('with its key it is itself again: its private note and project notes', async () => {
    expect(await paths(claims(bobKey))).toEqual(['agent/agent-b/Secret plan.md', ...SHARED]);
    expect((await t.call('lithos_read', { id: SECRET_ID }, claims(bobKey))).id).toBe(SECRET_ID);
  });

  it('another agent’s key does not open it', async () => {
    const aliceKey = await t.engine.services.governance.agentKeys.issue('agent-a');
    expect(await paths(claims(aliceKey))).toEqual(SHARED);
    expect((await t.call('lithos_read', { id: POOL_ID }, { kind: 'agent', agent_id: 'agent-a', key: aliceKey })).id).toBe(POOL_ID);
  });

  it('the rule is each tool\'s own annotation: a tool that writes is refused before it runs, one that reads runs', async () => {
    let ran = 0;
    const mk = (name: string, readOnlyHint: boolean): ToolDef => ({
      name,
      title: name,
      description: name,
      input: z.strictObject({}),
      annotations: { readOnlyHint, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      handler: async () => ++ran,
    });
    const tools = createDispatcher([mk('x_reads', true), mk('x_writes', false)], () => ({ gateway: t.engine }));
    await expect(tools.call('x_reads', {}, claims())).resolves.toBe(1);
    expect((await failure(tools.call('x_writes', {}, claims()))).code).toBe('forbidden');
    await expect(tools.call('x_writes', {}, claims(bobKey))).resolves.toBe(2);
    expect(ran).toBe(2);
  });
});
