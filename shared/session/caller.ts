/**
 * Who a memory session acts for. Every front door names one: the MCP bridge and the websocket host pass the
 * agent identity with each call, the CLI and the plugin's panels act as the person.
 */
export interface SessionCaller {
  kind: 'agent' | 'human';
  agent_id: string | null;
  /** The key the session presented for its agent (LITHOS_AGENT_KEY, or the websocket hello's agent_key). */
  key?: string;
  /**
   * Set when the session is opened, from `key`, never taken from outside: false for an agent whose key did
   * not verify while the vault issues keys (governance/agent-keys.ts): it sees only `shared` notes and may
   * only call tools that read. Absent: verified.
   */
  verified?: boolean;
}

/** The person: the CLI, the plugin's panels and commands. */
export const PERSON: SessionCaller = Object.freeze({ kind: 'human', agent_id: null });
