import type { z } from 'zod';
import { LithosError, asLithosError, type ErrorCode } from '../errors';

/** What an MCP client sees for a failed call (as JSON text, with `isError: true`): one shape for every tool. */
export interface ToolErrorShape {
  code: ErrorCode;
  message: string;
  data: Record<string, unknown>;
}

/** Longest message, and longest string in `data`, an error carries out: errors quote what the caller sent. */
export const MAX_ERROR_MESSAGE = 2000;
export const MAX_ERROR_DATA_STRING = 500;

/**
 * Any thrown value as the edge shape; anything that is not a LithosError is an `internal` error. Long
 * strings are cut (an id of 1 MB came back twice, in message and data): an error never outweighs its call.
 */
export function toToolError(err: unknown): ToolErrorShape {
  const e = asLithosError(err, 'internal').toJSON();
  return { code: e.code, message: cut(e.message, MAX_ERROR_MESSAGE), data: capStrings(e.data, 0) as Record<string, unknown> };
}

function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}… (${s.length - max} more characters)`;
}

function capStrings(v: unknown, depth: number): unknown {
  if (typeof v === 'string') return cut(v, MAX_ERROR_DATA_STRING);
  if (depth > 6 || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.slice(0, 100).map((x) => capStrings(x, depth + 1));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, capStrings(x, depth + 1)]));
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
