import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { reconstruct } from '../../../shared/ledger/graveyard';
import { buildBridge, connect } from './built-bridge';

/**
 * Issue 20's "Done when" for targets and intents, through the SDK's own MCP client and the BUILT bridge
 * (`lithos mcp --vault <tmp> --tools lithos_write,lithos_targets`, headless): two decisions on `Auth Service` and
 * `auth-service` → the second write fails with `conflict` naming the first's id; the same write with a
 * supersede intent succeeds and the first is superseded; lithos_targets suggests `auth-service` for `authsvc`.
 */

let build: ReturnType<typeof buildBridge>;
let root: string;
let vault: string;

beforeAll(() => {
  build = buildBridge();
}, 60_000);
afterAll(() => build?.cleanup());
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lithos-ledger-'));
  vault = join(root, 'vault');
  mkdirSync(vault, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function answer(r: unknown): { ok: boolean; body: any } { // eslint-disable-line @typescript-eslint/no-explicit-any -- tool results are JSON
  const res = r as CallToolResult;
  return { ok: !res.isError, body: JSON.parse((res.content[0] as { type: 'text'; text: string }).text) };
}

test('a second decision on a target conflicts, a supersede intent replaces the first, and lithos_targets suggests the target', async () => {
  const s = await connect(build.cli, vault, { agent: 'agent-a', tools: 'lithos_write,lithos_targets' });
  try {
    const call = async (name: string, args: Record<string, unknown>) => answer(await s.client.callTool({ name, arguments: args }));
    const decision = { namespace: 'decisions', note_type: 'decision' };
    const first = await call('lithos_write', { ...decision, title: 'Use JWT', target: 'Auth Service', content: 'Sign sessions as JWTs.\n' });
    expect(first.ok).toBe(true);

    const refused = await call('lithos_write', { ...decision, title: 'Use opaque tokens', target: 'auth-service', content: 'Opaque tokens in Redis.\n' });
    expect(refused.ok).toBe(false);
    expect(refused.body.code).toBe('conflict');
    // Named by the ID the engine gave it (D…-tag), as the issue asks.
    expect(first.body.ledger_id).toMatch(/^D\d{3,}-[a-z2-7]{4}$/);
    expect(refused.body.message).toContain(`${first.body.ledger_id} "Use JWT" (decisions/Use JWT.md)`);
    expect(refused.body.data.active).toEqual([expect.objectContaining({ id: first.body.id, ledger_id: first.body.ledger_id, title: 'Use JWT' })]);

    const second = await call('lithos_write', {
      ...decision,
      title: 'Use opaque tokens',
      target: 'auth-service',
      content: 'Opaque tokens in Redis.\n',
      intent: { type: 'supersede', replaces: [first.body.ledger_id] },
    });
    expect(second.ok).toBe(true);
    const old = readFileSync(join(vault, 'decisions/Use JWT.md'), 'utf8');
    expect(old).toMatch(/^state: superseded$/m);
    expect(old).toMatch(/^status: superseded$/m);
    expect(old).toContain(`superseded_by: ${second.body.ledger_id}`);
    expect(old).toContain('[!lithos-status] Superseded by [[decisions/Use opaque tokens|Use opaque tokens]]');
    // On disk too, the old decision is a stub and its full text is in the graveyard (docs/ledger.md → Graveyard).
    expect(old).toContain(`[[Lithos/Graveyard/Decisions#${first.body.ledger_id}]]`);
    const buried = await reconstruct(old, (n) => readFileSync(join(vault, `${n}.md`), 'utf8'));
    expect(buried).toMatch(/^state: superseded$/m);
    expect(buried).toContain('Sign sessions as JWTs.');
    expect(buried).toContain('%% lithos:begin status %%'); // the buried callout, untouched by the callout keeper

    const suggested = await call('lithos_targets', { suggest: 'authsvc' });
    expect(suggested.body.suggestions[0]).toMatchObject({ target: 'auth-service', active: 1 });
    const history = await call('lithos_targets', { history: 'Auth Service' });
    expect(history.body.decisions.map((d: { title: string; state: string }) => [d.title, d.state])).toEqual([
      ['Use JWT', 'superseded'],
      ['Use opaque tokens', 'active'],
    ]);
  } finally {
    await s.client.close();
  }
}, 60_000);
