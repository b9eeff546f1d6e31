/**
 * A Node stand-in for the plugin: a real MemoryEngine over a vault folder (NodeVault + NodeBlobStore)
 * served by the plugin's own BridgeHost, with a few test tools (the real catalog is built elsewhere).
 * test-host-main.ts runs the same thing in a child process, for tests that kill the host.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { NodeBlobStore } from '../../../bridge/node-blob-store';
import { NodeVault } from '../../../bridge/node-vault';
import { loadSqlJs } from '../../../bridge/sql';
import { BridgeHost, type BridgeHostOptions } from '../../../plugin/bridge-host/bridge-host';
import { MemoryEngine } from '../../../shared/engine';
import { LithosError } from '../../../shared/errors';
import type { ToolCaller, ToolDef, ToolDispatcher } from '../../../shared/tools/types';

const annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

function tool<S extends z.ZodType>(name: string, input: S, handler: (args: z.infer<S>, caller: ToolCaller) => Promise<unknown>): ToolDef {
  return { name, title: name, description: `test tool ${name}`, input, annotations, handler: (args, ctx) => handler(args as z.infer<S>, ctx.caller) };
}

/** Test tools over an engine. `hold` parks until release(key) (or forever), reporting itself through onHold. */
export class TestTools implements ToolDispatcher {
  private readonly held = new Map<string, (v: unknown) => void>();
  private readonly tools: ToolDef[];

  constructor(
    private readonly engine: MemoryEngine,
    onHold: (key: string) => void = () => undefined,
  ) {
    this.tools = [
      tool('echo', z.object({}).passthrough(), async (args, caller) => ({ args, caller })),
      tool('note_count', z.object({}), async () => this.engine.services.notes.notes().length),
      tool('read', z.object({ path: z.string() }), async ({ path }) => {
        if (!this.engine.services.notes.note(path)) throw new LithosError('not_found', `No note at "${path}".`, { path });
        const parsed = await this.engine.services.notes.parse(path);
        return { path, title: parsed.meta.title, body: parsed.body };
      }),
      tool('fail', z.object({ message: z.string() }), async ({ message }) => {
        throw new LithosError('conflict', message, { current_version: 7 });
      }),
      tool('big', z.object({ bytes: z.number().int() }), async ({ bytes }) => 'x'.repeat(bytes)),
      tool('hold', z.object({ key: z.string() }), ({ key }) => {
        onHold(key);
        return new Promise((resolve) => this.held.set(key, resolve));
      }),
    ];
  }

  list(): readonly ToolDef[] {
    return this.tools;
  }

  async call(name: string, args: unknown, caller: ToolCaller): Promise<unknown> {
    const def = this.tools.find((t) => t.name === name);
    if (!def) throw new LithosError('not_found', `Unknown tool "${name}".`, { tool: name });
    const parsed = def.input.safeParse(args);
    if (!parsed.success) throw new LithosError('invalid_argument', `Bad arguments for "${name}": ${parsed.error.issues[0]?.message ?? ''}`);
    const memory = await this.engine.as(caller);
    memory.checkTool(def);
    return def.handler(parsed.data, { memory, caller: memory.caller });
  }

  release(key: string, value: unknown = 'released'): void {
    this.held.get(key)?.(value);
    this.held.delete(key);
  }
}

export interface TestHost {
  root: string;
  host: BridgeHost;
  engine: MemoryEngine;
  tools: TestTools;
  port: number;
  stop(): Promise<void>;
}

/** A temp vault with `count` small notes (`notes/n<i>.md`). */
export async function makeVault(count = 3, prefix = 'lithos-relay-'): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  for (let i = 0; i < count; i++) {
    const path = join(root, 'notes', `n${i}.md`);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, `---\ntitle: Note ${i}\n---\nBody of note ${i}, about topic ${i % 5}.\n`);
  }
  return root;
}

export async function startTestHost(
  root: string,
  over: Partial<Omit<BridgeHostOptions, 'dispatcher' | 'lithosDir'>> & { onHold?: (key: string) => void } = {},
): Promise<TestHost> {
  const engine = await MemoryEngine.open({
    vault: new NodeVault(root),
    blobs: new NodeBlobStore(join(root, '.lithos')),
    sql: await loadSqlJs(),
    debounceMs: 0,
  });
  await engine.reconcile();
  const tools = new TestTools(engine, over.onHold);
  const host = new BridgeHost({ lithosDir: join(root, '.lithos'), vaultName: 'test-vault', pluginVersion: '0.1.0-test', dispatcher: tools, port: 0, ...over });
  try {
    const { port } = await host.start();
    return {
      root,
      host,
      engine,
      tools,
      port,
      stop: async () => {
        await host.stop();
        await engine.close();
      },
    };
  } catch (err) {
    await engine.close();
    throw err;
  }
}
