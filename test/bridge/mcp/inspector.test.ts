import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { TOOL_CATALOG } from '../../../shared/tools/catalog';
import { agentTools } from '../../../shared/governance/tool-access';
import { buildBridge, vaultFiles } from './built-bridge';

/**
 * The MCP Inspector's CLI (a third-party client) against the BUILT `lithos mcp`, as a developer would check a
 * server: it lists every tool and calls one. The devDependency is `@modelcontextprotocol/inspector-cli`, the
 * code behind `npx @modelcontextprotocol/inspector --cli`: the full Inspector (web UI) needs Node >= 22, its
 * CLI runs on the Node 20 this project supports, so `npm ci` prints no EBADENGINE.
 */

const ROOT = resolve(__dirname, '../../..');
const run = promisify(execFile);
let build: ReturnType<typeof buildBridge>;
let root: string;
let vault: string;

beforeAll(() => {
  build = buildBridge();
  root = mkdtempSync(join(tmpdir(), 'lithos-inspector-'));
  vault = join(root, 'vault');
  // The notes as shipped: a .lithos/ left by a local `npm start` is not part of the example.
  cpSync(join(ROOT, 'examples/vault'), vault, { recursive: true, filter: (src) => !src.includes('.lithos') });
}, 60_000);
afterAll(() => {
  build?.cleanup();
  rmSync(root, { recursive: true, force: true });
});

/** The Inspector CLI's own bin, `mcp-inspector-cli --cli <server> --method …`, run directly with node. */
const INSPECTOR_BIN = join(ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build/cli.js');

/**
 * The server finds sql.js through NODE_PATH. The working folder is the package's build/ folder because
 * inspector-cli 1.0.3 probes for its own package.json relative to the working folder, then imports it
 * relative to itself (modelcontextprotocol/inspector#1503): it needs a package.json one folder up.
 */
async function inspector(...method: string[]): Promise<unknown> {
  const args = [INSPECTOR_BIN, '--cli', '-e', `NODE_PATH=${join(ROOT, 'node_modules')}`, process.execPath, build.cli, 'mcp', '--vault', vault, '--agent', 'inspector', '--tools', 'full', ...method];
  const { stdout } = await run(process.execPath, args, { cwd: dirname(INSPECTOR_BIN), timeout: 90_000, maxBuffer: 16 * 1024 * 1024 });
  // The inspector may print a banner before the JSON result.
  return JSON.parse(stdout.slice(stdout.indexOf('{')));
}

test('tools/list names every tool of the catalog, each with an input schema and annotations', async () => {
  const r = (await inspector('--method', 'tools/list')) as { tools: { name: string; inputSchema: { type: string }; annotations?: Record<string, unknown> }[] };
  expect(r.tools.map((t) => t.name).sort()).toEqual(agentTools(TOOL_CATALOG).map((t) => t.name).sort());
  for (const t of r.tools) {
    expect(t.inputSchema.type).toBe('object');
    // A hint equal to the spec's default (readOnlyHint false) is left out of the listing; a reading tool says so.
    const def = TOOL_CATALOG.find((d) => d.name === t.name)!;
    expect(t.annotations?.readOnlyHint ?? false).toBe(def.annotations.readOnlyHint);
    expect(t.annotations).toEqual(expect.objectContaining({ destructiveHint: def.annotations.destructiveHint }));
  }
}, 120_000);

test('tools/call lithos_search answers with JSON results from the vault, which stays unchanged', async () => {
  const before = vaultFiles(vault);
  const r = (await inspector('--method', 'tools/call', '--tool-name', 'lithos_search', '--tool-arg', 'query=connection pool', '--tool-arg', 'k=3')) as { isError?: boolean; content: { type: string; text: string }[] };
  expect(r.isError).toBeFalsy();
  const body = JSON.parse(r.content[0].text) as { results: { path: string; title: string }[] };
  expect(body.results.length).toBeGreaterThan(0);
  expect(body.results.length).toBeLessThanOrEqual(3);
  expect(body.results.map((x) => `${x.path} ${x.title}`).join('\n')).toMatch(/pool/i);
  expect(vaultFiles(vault)).toEqual(before);
}, 120_000);
