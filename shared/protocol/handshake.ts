import { z } from 'zod';
import { LithosError } from '../errors';

/** The first message on a connection, bridge → host. */
export const HelloSchema = z.object({
  type: z.literal('hello'),
  protocol_version: z.number().int(),
  bridge_version: z.string().max(100),
  /** The agent this bridge serves; the host admits one connection per agent id. */
  agent_id: z.string().min(1).max(200).nullable(),
  /** The agent's key, where the vault issues keys (governance/agent-keys.ts); checked on every call. */
  agent_key: z.string().min(1).max(200).optional(),
  /**
   * The bridge's MCP client declared sampling: the host may send `interpret` during this bridge's calls
   * (terrace 2 of retrieval). Absent (older bridges) means false.
   */
  sampling: z.boolean().optional(),
  /**
   * The bridge answers `sample` (reflection's wording, sample.ts) with that sampling. Absent (older bridges, which
   * would leave the request unanswered until its deadline) means false.
   */
  sample: z.boolean().optional(),
});
export type Hello = z.infer<typeof HelloSchema>;

/** The host's answer to an admitted hello. */
export const WelcomeSchema = z.object({
  type: z.literal('welcome'),
  protocol_version: z.number().int(),
  plugin_version: z.string().max(100),
  vault: z.string().max(1000),
});
export type Welcome = z.infer<typeof WelcomeSchema>;

/**
 * Only `type` and `protocol_version` of a hello are read before the versions are compared, so a
 * peer of another version whose hello has a different shape still gets a clear mismatch, not a schema error.
 */
export const HelloVersionProbe = z.object({ type: z.literal('hello'), protocol_version: z.number() });

/** Websocket close codes the host uses after a refused handshake (4000–4999 are the application's). */
export const CLOSE_CODES = {
  /** The host is stopping. */
  goingAway: 1001,
  /** The first message was not a valid hello. */
  handshakeRequired: 4000,
  protocolMismatch: 4001,
  /** The token was regenerated: reconnect with the one now in bridge.json. */
  tokenRevoked: 4003,
  /** No hello within the handshake timeout, or no heartbeat answer. */
  timedOut: 4008,
  /** Another connection already serves this agent id. */
  agentConnected: 4009,
} as const;

export interface VersionPair {
  bridge_protocol: number;
  plugin_protocol: number;
  bridge_version?: string;
  plugin_version?: string;
}

/** The same message on both sides, naming both protocol versions (and the software versions when known). */
export function protocolMismatch(v: VersionPair): LithosError {
  const bridge = v.bridge_version ? `the lithos bridge ${v.bridge_version}` : 'the lithos bridge';
  const plugin = v.plugin_version ? `the Lithos Memory plugin ${v.plugin_version}` : 'the Lithos Memory plugin';
  return new LithosError(
    'protocol_mismatch',
    `Bridge protocol mismatch: ${bridge} speaks protocol version ${v.bridge_protocol}, ${plugin} speaks version ${v.plugin_protocol}. ` +
      'Update the older of the two so both speak the same version.',
    { ...v, retryable: false },
  );
}
