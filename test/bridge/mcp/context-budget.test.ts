import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { buildBridge, connect } from './built-bridge';

/**
 * An agent's context is a budget (issue 16): the BUILT bridge, spawned and driven by the SDK's client. A read
 * of a 3 MB note fits in 25,000 characters with a way to read on, and the default tool profile is small.
 */

let build: ReturnType<typeof buildBridge>;
let root: string;
let vault: string;
let body: string;

beforeAll(() => {
  build = buildBridge();
  root = mkdtempSync(join(tmpdir(), 'lithos-budget-'));
  vault = join(root, 'vault');
  mkdirSync(join(vault, 'docs'), { recursive: true });
  const lines: string[] = [];
  for (let c = 0; lines.join('\n').length < 3_000_000 && c < 1000; c++) {
    lines.push(`# Chapter ${c}`);
    for (let l = 0; l < 300; l++) lines.push(`Line ${l} of chapter ${c}: the connection pool grew by ${l} — ${'lorem ipsum '.repeat(3)}`);
  }
  body = lines.join('\n') + '\n';
  writeFileSync(join(vault, 'docs/Big.md'), `---\ntitle: Big\n---\n${body}`);
}, 60_000);
afterAll(() => {
  build?.cleanup();
  rmSync(root, { recursive: true, force: true });
});

/** Every character of text a tool result puts before the model: its content blocks and any structuredContent. */
function textOf(r: CallToolResult): number {
  return r.content.reduce((n, c) => n + (c.type === 'text' ? c.text.length : 0), 0) + (r.structuredContent ? JSON.stringify(r.structuredContent).length : 0);
}

test('lithos_read of a 3 MB note answers with at most 25,000 characters in all, truncated, and next_offset reads on', async () => {
  expect(Buffer.byteLength(body)).toBeGreaterThan(3_000_000);
  const s = await connect(build.cli, vault, { agent: 'agent-a' }); // the default profile: core has lithos_read
  try {
    const first = (await s.client.callTool({ name: 'lithos_read', arguments: { path: 'docs/Big.md' } })) as CallToolResult;
    expect(first.isError).toBeFalsy();
    expect(textOf(first)).toBeLessThanOrEqual(25_000);
    const r = JSON.parse((first.content[0] as { text: string }).text);
    expect(r).toMatchObject({ truncated: true, total_chars: body.length, offset: 0, next_offset: r.content.length });
    process.stdout.write(`lithos_read of a ${Buffer.byteLength(body)}-byte note: ${textOf(first)} characters of text in the result\n`);
    const next = JSON.parse((((await s.client.callTool({ name: 'lithos_read', arguments: { path: 'docs/Big.md', offset: r.next_offset } })) as CallToolResult).content[0] as { text: string }).text);
    expect(r.content + next.content).toBe(body.slice(0, next.next_offset));
    // The last page: reaches the end of the body (past the 2 MB the index keeps), and says there is no more.
    const last = JSON.parse((((await s.client.callTool({ name: 'lithos_read', arguments: { path: 'docs/Big.md', offset: body.length - 500 } })) as CallToolResult).content[0] as { text: string }).text);
    expect(last).toMatchObject({ next_offset: null, content: body.slice(body.length - 500) });
  } finally {
    await s.client.close();
  }
});

test('lithos mcp --tools core lists at most 10 tools in at most 12 KB of tools/list JSON; a tool outside it is forbidden', async () => {
  const s = await connect(build.cli, vault, { agent: 'agent-a', tools: 'core' });
  try {
    const list = await s.client.listTools();
    expect(list.tools.length).toBeLessThanOrEqual(10);
    expect(Buffer.byteLength(JSON.stringify(list))).toBeLessThanOrEqual(12 * 1024);
    const r = (await s.client.callTool({ name: 'lithos_stats', arguments: {} })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect(JSON.parse((r.content[0] as { text: string }).text)).toMatchObject({ code: 'forbidden', data: { tool: 'lithos_stats', profile: 'core' } });
  } finally {
    await s.client.close();
  }
});

test('lithos mcp --tools with an unknown name does not start, and names the valid tools', () => {
  const r = spawnSync(process.execPath, [build.cli, 'mcp', '--vault', vault, '--tools', 'lithos_read,lithos_raed'], {
    env: { PATH: process.env.PATH ?? '', NODE_PATH: join(resolve(__dirname, '../../..'), 'node_modules') },
    input: '',
    encoding: 'utf8',
  });
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('lithos_raed');
  expect(r.stderr).toContain('lithos_search');
});
