import type { ToolCaller, ToolDef } from '../../shared/tools/types';
import type { JsonSchemaObject } from '../../shared/tools/json-schema';
import { LithosError } from '../../shared/errors';
import type { SessionIdentity } from '../../shared/governance/session-identity';

export { SessionIdentity } from '../../shared/governance/session-identity';

/** The per-call identity argument every tool accepts over MCP (on top of its own schema). */
export const AGENT_ARG = 'agent_id';

/** Listed with every tool, so without a description: the server's instructions say what it is (server.ts). */
const AGENT_SCHEMA = {
  type: 'string',
};

/** Whether the tool's own schema has this argument. */
export function declares(def: ToolDef, key: string): boolean {
  const shape = (def.input as { shape?: Record<string, unknown> }).shape;
  return !!shape && Object.prototype.hasOwnProperty.call(shape, key);
}

/** The listed schema gains the optional agent_id argument, unless the tool has its own. */
export function withAgentArg(def: ToolDef, schema: JsonSchemaObject): JsonSchemaObject {
  if (declares(def, AGENT_ARG)) return schema;
  return { ...schema, properties: { ...(schema.properties ?? {}), [AGENT_ARG]: AGENT_SCHEMA } };
}

/**
 * Who is calling and with which arguments: the session's agent, which a call's `agent_id` may name but
 * never change (SessionIdentity). It is taken out of the arguments unless the tool declares it itself.
 */
export function splitCaller(def: ToolDef | undefined, args: Record<string, unknown> | undefined, identity: SessionIdentity): { caller: ToolCaller; args: Record<string, unknown> } {
  const rest = { ...(args ?? {}) };
  const given = rest[AGENT_ARG];
  if (given !== undefined && (typeof given !== 'string' || given.trim() === '' || given.length > 200)) {
    throw new LithosError('invalid_argument', `${AGENT_ARG} must be a non-empty string of at most 200 characters.`, { field: AGENT_ARG });
  }
  if (!def || !declares(def, AGENT_ARG)) delete rest[AGENT_ARG];
  const agent = identity.actAs(typeof given === 'string' ? given.trim() : undefined, { field: AGENT_ARG });
  return { caller: { kind: 'agent', agent_id: agent, ...(identity.key ? { key: identity.key } : {}) }, args: rest };
}
