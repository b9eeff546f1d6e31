import { LithosError } from '../errors';

/**
 * The one agent a session acts for (an MCP session, a websocket connection), fixed once: when the session
 * starts (--agent, LITHOS_AGENT_ID, the hello), else by its first call that names an agent. A call naming
 * another agent afterwards is refused: one argument must not let an agent read another's agent_private
 * notes or write in its name.
 */
export class SessionIdentity {
  /**
   * `fixedBy`: how this kind of session fixes its agent, for the refusal's message. `key`: the agent's key, if
   * the session presented one (LITHOS_AGENT_KEY, the hello's agent_key); the tool dispatcher checks it.
   */
  constructor(
    private agent: string | null,
    private readonly fixedBy: string,
    readonly key: string | null = null,
  ) {}

  /** The agent of the session; null until one is named. */
  get agentId(): string | null {
    return this.agent;
  }

  /** The agent a call acts for: `given` (the call's agent) must be the session's, or binds a session that has none. */
  actAs(given: string | null | undefined, data: Record<string, unknown> = {}): string | null {
    if (given === undefined || given === null || given === this.agent) return this.agent;
    if (this.agent === null) return (this.agent = given);
    throw new LithosError('forbidden', `This session acts as agent "${this.agent}" (fixed ${this.fixedBy}); it cannot act as "${given}". Give each agent its own bridge.`, {
      ...data,
      session_agent: this.agent,
      agent_id: given,
    });
  }
}
