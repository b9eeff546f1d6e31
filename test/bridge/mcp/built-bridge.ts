import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, type CallToolResult, type CreateMessageRequest, type CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import { builtFolder } from '../../build-once';

const ROOT = resolve(__dirname, '../../..');

/** The bridge as `npm run build` makes it (the run's shared build, or one of its own): cli.js and a cleanup. */
export function buildBridge(): { cli: string; cleanup: () => void } {
  const { dir, cleanup } = builtFolder('lithos-mcp-build-', 'bridge');
  return { cli: join(dir, 'bridge', 'cli.js'), cleanup };
}

export interface Session {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
}

/** Starts `lithos mcp --vault <vault> [--agent a] [--tools t]` from the built file and connects the SDK's own client over stdio. */
export async function connect(cli: string, vault: string, opts: { agent?: string; tools?: string; env?: Record<string, string>; client?: Client } = {}): Promise<Session> {
  const args = [cli, 'mcp', '--vault', vault, ...(opts.agent ? ['--agent', opts.agent] : []), ...(opts.tools ? ['--tools', opts.tools] : [])];
  // The bundle keeps sql.js and a few others external: they load from this repo's node_modules.
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', NODE_PATH: join(ROOT, 'node_modules'), ...opts.env };
  const transport = new StdioClientTransport({ command: process.execPath, args, env, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
  // A caller's own client: e.g. one that declares sampling and answers sampling/createMessage.
  const client = opts.client ?? new Client({ name: 'lithos-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => err };
}

/** Every file under the vault except the engine's own `.lithos/`, with its bytes: "the vault unchanged". */
export function vaultFiles(vault: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const abs = join(dir, name);
      const rel = relative(vault, abs).split('\\').join('/');
      // Learned state, not notes: .lithos/ and the devices folder each device writes its learning to (docs/devices.md).
      if (rel === '.lithos' || rel === 'Lithos/Devices') continue;
      if (statSync(abs).isDirectory()) walk(abs);
      else out[rel] = readFileSync(abs, 'utf8');
    }
  };
  walk(vault);
  return out;
}

/** An SDK client that declares sampling and answers every sampling/createMessage with `answer`, recording the requests. */
export function samplingClient(answer: (params: CreateMessageRequest['params']) => string, asked: CreateMessageRequest['params'][]): Client {
  const client = new Client({ name: 'sampling-test', version: '1.0.0' }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, (req): CreateMessageResult => {
    asked.push(req.params);
    return { model: 'canned', role: 'assistant', content: { type: 'text', text: answer(req.params) } };
  });
  return client;
}

/** The JSON a tool call answered with; fails the test on isError. */
export function toolJson(r: unknown): any { // eslint-disable-line @typescript-eslint/no-explicit-any -- tool results are JSON
  const res = r as CallToolResult;
  const text = (res.content[0] as { type: 'text'; text: string }).text;
  if (res.isError) throw new Error(`tool failed: ${text}`);
  return JSON.parse(text);
}
