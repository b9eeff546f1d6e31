import { LithosError } from '../errors';
import { DEFAULT_CLAIM_TTL_MINUTES, MAX_CLAIM_TTL_MINUTES } from './coordination-types';

/**
 * Argument checks for CoordinationStore: bad input is refused before anything is written. The tools'
 * zod schemas use the same limits, so an agent gets the same answer from either layer.
 */
export const LIMITS = {
  // The bridge protocol allows agent ids of up to 200 characters (shared/protocol).
  agentId: 200,
  name: 200,
  title: 300,
  description: 20_000,
  aspect: 200,
  tag: 100,
  tags: 50,
  summary: 4_000,
  outputText: 100_000,
  nodeRef: 500,
  nodes: 500,
  receiptId: 200,
  metadataBytes: 16_384,
} as const;

// C0 controls other than tab/newline/return, DEL and C1: never meaningful in ids or one-line text.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const LINE_BREAK = /[\t\n\r]/;

function bad(message: string, data: Record<string, unknown>): LithosError {
  return new LithosError('invalid_argument', message, data);
}

/**
 * A non-empty string of at most `max` characters without control characters. One-line values (ids,
 * aspects, titles, tags) may not start or end with whitespace: they are compared exactly.
 */
export function text(field: string, value: unknown, max: number, opts: { multiline?: boolean } = {}): string {
  if (typeof value !== 'string' || value.trim() === '') throw bad(`${field} must be a non-empty string.`, { field, value });
  if (value.length > max) throw bad(`${field} must be at most ${max} characters (got ${value.length}).`, { field, length: value.length, max });
  if (CONTROL.test(value) || (!opts.multiline && LINE_BREAK.test(value))) {
    throw bad(`${field} contains control characters${opts.multiline ? '' : ' or line breaks'}.`, { field });
  }
  if (!opts.multiline && value !== value.trim()) {
    throw bad(`${field} may not start or end with whitespace.`, { field, value });
  }
  return value;
}

export function optionalText(field: string, value: unknown, max: number, opts: { multiline?: boolean } = {}): string | null {
  return value === undefined || value === null ? null : text(field, value, max, opts);
}

export const agentId = (value: unknown, field = 'agent'): string => text(field, value, LIMITS.agentId);

/** Minutes → whole minutes in [1, MAX]; absent means the default. */
export function ttlMinutes(value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_CLAIM_TTL_MINUTES;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_CLAIM_TTL_MINUTES) {
    throw bad(`ttl_minutes must be a whole number of minutes from 1 to ${MAX_CLAIM_TTL_MINUTES} (got ${typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? typeof value)}).`, {
      field: 'ttl_minutes',
      value,
      min: 1,
      max: MAX_CLAIM_TTL_MINUTES,
    });
  }
  return value;
}

/** A list of distinct one-line strings (first occurrence kept). */
export function stringList(field: string, value: unknown, maxItems: number, maxEach: number): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw bad(`${field} must be a list of strings.`, { field, value });
  if (value.length > maxItems) throw bad(`${field} may hold at most ${maxItems} items (got ${value.length}).`, { field, max: maxItems });
  const out: string[] = [];
  for (const [i, item] of value.entries()) {
    const s = text(`${field}[${i}]`, item, maxEach);
    if (!out.includes(s)) out.push(s);
  }
  return out;
}

/** A JSON object (not an array), at most LIMITS.metadataBytes once serialised. */
export function metadata(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw bad('metadata must be a JSON object.', { field: 'metadata' });
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  if (json === undefined) throw bad('metadata must be JSON-serialisable.', { field: 'metadata' });
  if (json.length > LIMITS.metadataBytes) {
    throw bad(`metadata must be at most ${LIMITS.metadataBytes} characters as JSON (got ${json.length}).`, { field: 'metadata', length: json.length });
  }
  return JSON.parse(json) as Record<string, unknown>;
}

export function timestamp(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw bad(`${field} must be a time in ms since the epoch.`, { field, value });
  return value;
}
