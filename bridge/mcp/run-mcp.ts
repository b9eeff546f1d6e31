import { BoundedStdioTransport } from './bounded-stdio';
import type { Logger } from '../../shared/ports';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import { checkVaultFolder } from '../open-vault';
import { createMcpServer } from './server';
import type { ToolHost } from './headless';
import { modeHost } from './mode-host';
import { SessionRecorder } from './session-record';
import { wireSampling } from './sampling-interpreter';
import { vaultToolRules, watchToolRules } from './agent-tool-rules';
import { parseProfileSpec, resolveProfile } from '../../shared/governance/tool-profiles';
import { agentTools } from '../../shared/governance/tool-access';

/** How long a shutdown waits for tool calls in flight to finish and be answered. */
const DRAIN_MS = 10_000;

/** How soon a change of the vault policy's agent_tools reaches the client as notifications/tools/list_changed. */
const RULES_POLL_MS = 2000;

export interface McpOptions {
  vault: string;
  /** --agent, else LITHOS_AGENT_ID; null: the session's first call that names an agent_id fixes it. */
  agent: string | null;
  /** LITHOS_AGENT_KEY: the agent's key, checked where the vault issues keys (governance/agent-keys.ts). */
  agentKey?: string | null;
  /** --tools: core, full or a comma list of tool names; absent: the vault policy's agent_tools.profile, else core. */
  tools?: string;
  version: string;
  logger: Logger;
  stdin?: NodeJS.ReadableStream & { pause(): unknown };
  stdout?: NodeJS.WritableStream;
  /** Where tool calls go; default relay to the plugin when it runs, else headless over `vault` (mode-host.ts). */
  host?: ToolHost;
  /** How often the vault policy's agent_tools are checked for tools/list_changed. Default 2 s. */
  rulesPollMs?: number;
}

/**
 * `lithos mcp`: a stdio MCP server. Tool calls are relayed to the plugin when bridge.json names a live one,
 * else run headless (this process opens the vault on the first tool call); see mode-host.ts.
 * stdout carries only the protocol; logs go to stderr. Resolves with the exit code once the client
 * closes stdin or the process gets SIGTERM/SIGINT, after flushing the stores and releasing the lock.
 */
export async function runMcp(opts: McpOptions): Promise<number> {
  const { logger } = opts;
  // A bad --tools is the person's typo: refuse to start, naming the valid tools, before anything is opened.
  const profile = opts.tools === undefined ? undefined : parseProfileSpec(opts.tools);
  if (profile !== undefined) resolveProfile(profile, agentTools(TOOL_CATALOG).map((d) => d.name));
  // Not fatal: initialize and tools/list must work anyway; each tool call reports the problem.
  await checkVaultFolder(opts.vault).catch((err: Error) => logger.warn(`${err.message} Tool calls will fail until it exists.`));
  const host = opts.host ?? modeHost({ vault: opts.vault, catalog: TOOL_CATALOG, agent: opts.agent, agentKey: opts.agentKey ?? null, version: opts.version, logger });
  const rules = vaultToolRules(opts.vault, logger);
  // Calls still running when the client closes stdin (a script that pipes its requests and hangs up) are
  // let finish and answered before the vault closes: a write the client sent is never dropped unanswered.
  const inflight = new Set<Promise<unknown>>();
  const track = (call: Promise<unknown>): void => {
    inflight.add(call);
    void call.finally(() => inflight.delete(call));
  };
  // The session as episodic events: started at its first tool call, ended at shutdown (session-record.ts).
  const session = new SessionRecorder(host.dispatcher, () => server.getClientVersion() ?? null, logger);
  const server = createMcpServer(host.dispatcher, { version: opts.version, defaultAgent: opts.agent, agentKey: opts.agentKey ?? null, logger, rules, track, profile, beforeCall: (c) => session.beforeCall(c) });
  wireSampling(server, host, logger);
  const stdin = opts.stdin ?? process.stdin;
  const transport = new BoundedStdioTransport(stdin, opts.stdout ?? process.stdout);

  let stopRules = (): void => undefined;
  let done!: (code: number) => void;
  const finished = new Promise<number>((resolve) => (done = resolve));
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    stopRules();
    logger.info(`shutting down (${why})`);
    void (async () => {
      let code = 0;
      if (inflight.size > 0 && why !== 'client disconnected') {
        logger.info(`letting ${inflight.size} tool call(s) in flight finish (at most ${DRAIN_MS / 1000} s)`);
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([Promise.allSettled([...inflight]), new Promise((r) => (timer = setTimeout(r, DRAIN_MS)))]);
        clearTimeout(timer);
        await new Promise((r) => setImmediate(r)); // the SDK sends each answer a tick after its handler resolves
      }
      await session.end(why);
      try {
        await server.close();
      } catch {
        // the transport is gone already
      }
      try {
        await host.close();
      } catch (err) {
        logger.error(`could not close the vault cleanly: ${(err as Error).message}`);
        code = 1;
      }
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onInt);
      stdin.off('end', onEnd);
      stdin.off('close', onEnd);
      done(code);
    })();
  };
  const onTerm = () => stop('SIGTERM');
  const onInt = () => stop('SIGINT');
  const onEnd = () => stop('stdin closed');
  // `on`, not `once`: the lock's own signal handler re-raises the signal when it is the last listener.
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', onInt);
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  server.onclose = () => stop('client disconnected');
  server.onerror = (err) => logger.warn(`MCP: ${err.message}`);

  await server.connect(transport);
  // The tools agents may call are the vault policy's (agent_tools): tell the client when that set changes.
  stopRules = watchToolRules(rules, () => void server.sendToolListChanged().catch(() => undefined), opts.rulesPollMs ?? RULES_POLL_MS);
  logger.info(`MCP server ready on stdio (vault ${opts.vault}${opts.agent ? `, agent ${opts.agent}` : ''}); relay or headless is chosen at the first tool call`);
  return finished;
}
