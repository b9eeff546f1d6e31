import type { z } from 'zod';
import { LithosError, asLithosError, type ErrorCode } from '../errors';

/** What an MCP client sees for a failed call (as JSON text, with `isError: true`): one shape for every tool. */
export interface ToolErrorShape {
  code: ErrorCode;
  message: string;
  data: Record<string, unknown>;
}

/** Any thrown value as the edge shape; anything that is not a LithosError is an `internal` error. */
export function toToolError(err: unknown): ToolErrorShape {
  return asLithosError(err, 'internal').toJSON();
}

/** A zod failure as `invalid_argument`, naming each bad field so an agent can fix its call in one go. */
export function invalidArguments(tool: string, error: z.ZodError): LithosError {
  const issues = error.issues.map((i) => ({ field: fieldName(i.path), message: i.message }));
  const list = issues.map((i) => `${i.field}: ${i.message}`).join('; ');
  return new LithosError('invalid_argument', `Invalid arguments for ${tool}: ${list}.`, { tool, issues });
}

function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(arguments)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i > 0 ? '.' : ''}${String(p)}`)).join('');
}
