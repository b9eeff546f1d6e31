import type { Logger } from '../../shared/ports';
import type { ToolCaller, ToolDispatcher } from '../../shared/tools/types';

/** What the MCP client said it is in initialize (clientInfo); null before it did. */
export type ClientInfo = { name: string; version: string } | null;

/** A client's name or version as recorded: one line, bounded (it is the client's own text). */
const INFO_CHARS = 100;
/** How long the end of a session may take to record before the bridge closes anyway. */
const END_WAIT_MS = 5_000;

/**
 * An MCP session as episodic events (issue 21 item 1): one `session` event when the agent's session starts and
 * one when it ends, naming the MCP client (its clientInfo name and version) and, at the end, how many tool calls
 * the client made and how long the session lasted. Nothing else: no arguments, no key, no environment.
 *
 * Recorded through the dispatcher as the agent's own `lithos_event_record` (so in the agent's private namespace,
 * under its scope and key, relayed to Obsidian or headless alike, audited `event.record`), marked as the
 * bridge's own record so it is not also a `tool_call` of the agent (CallOptions.sessionRecord).
 *
 * The start is recorded at the first tool call, once the session's agent is known (--agent, or the call's
 * agent_id) and just before that call runs, so the vault is never opened only to say a session began; a
 * session that calls no tool leaves no record. A record that fails (the vault is read-only here, the policy
 * denies lithos_event_record to agents) is logged and never fails the agent's call.
 */
export class SessionRecorder {
  private startedAt: number | null = null;
  private caller: ToolCaller | null = null;
  private calls = 0;
  private start: Promise<void> | null = null;

  constructor(
    private readonly dispatcher: ToolDispatcher,
    private readonly client: () => ClientInfo,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Before each tool call the client makes, with the caller it runs as: counts it; the first one records the start. */
  beforeCall(caller: ToolCaller): Promise<void> {
    this.calls++;
    if (this.start === null && caller.kind === 'agent' && caller.agent_id !== null) {
      this.caller = caller;
      this.startedAt = this.now();
      const c = this.clientText();
      this.start = this.record(`session started: ${c.label}`, { client: c.info, started_at: new Date(this.startedAt).toISOString() });
    }
    return this.start ?? Promise.resolve();
  }

  /** When the session ends (the client hung up, a signal): the end, with the count, if the start was recorded. */
  async end(why: string): Promise<void> {
    if (this.start === null || this.startedAt === null) return;
    await this.start;
    const c = this.clientText();
    const calls = this.calls;
    const ended = this.record(`session ended: ${c.label}, ${calls} tool call${calls === 1 ? '' : 's'}`, {
      client: c.info,
      tool_calls: calls,
      started_at: new Date(this.startedAt).toISOString(),
      duration_ms: Math.max(0, this.now() - this.startedAt),
      reason: why,
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([ended, new Promise((r) => (timer = setTimeout(r, END_WAIT_MS)))]);
    clearTimeout(timer);
  }

  private clientText(): { label: string; info: { name: string; version: string } | null } {
    const c = this.client();
    if (!c) return { label: 'an MCP client', info: null };
    const clip = (s: unknown) => (typeof s === 'string' ? s.replace(/\s+/g, ' ').trim().slice(0, INFO_CHARS) : '');
    const info = { name: clip(c.name) || 'unnamed client', version: clip(c.version) };
    return { label: info.version ? `${info.name} ${info.version}` : info.name, info };
  }

  private async record(summary: string, data: Record<string, unknown>): Promise<void> {
    const caller = this.caller;
    if (!caller) return;
    try {
      await this.dispatcher.call('lithos_event_record', { kind: 'session', summary, data }, caller, { sessionRecord: true });
    } catch (err) {
      this.logger.info(`the session was not recorded as an event: ${(err as Error).message}`);
    }
  }
}
