import { z } from 'zod';
import type { ToolDef } from './types';

export type JsonSchemaObject = { type: 'object'; properties?: Record<string, object>; required?: string[]; [k: string]: unknown };

/** A tool's input as JSON Schema (what MCP's tools/list carries): the schema of what a caller may send. */
export function inputJsonSchema(def: ToolDef): JsonSchemaObject {
  const schema = withoutStringKeyNames(z.toJSONSchema(def.input, { io: 'input', unrepresentable: 'any' })) as Record<string, unknown>;
  delete schema.$schema;
  return { ...schema, type: 'object' };
}

/**
 * zod spells a record's string keys as `propertyNames: {type: "string"}`, which says nothing (JSON keys are
 * strings) and which Gemini / Vertex AI refuse (400 "Unknown name propertyNames"): dropped, at any depth.
 */
function withoutStringKeyNames(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutStringKeyNames);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'propertyNames' && JSON.stringify(v) === '{"type":"string"}') continue;
    out[k] = withoutStringKeyNames(v);
  }
  return out;
}

/**
 * The schema as tools/list carries it, where every byte sits in the agent's context before its first call:
 * what says nothing to a model is left out. The tool's own validation is unchanged (it still accepts what
 * the full schema says), so this only drops noise:
 * - `minLength: 1` on strings (an empty id or query is refused with a clear error anyway);
 * - zod's `maximum` of 2^53-1 on integers (no bound at all);
 * - "one or a list" unions (`anyOf: [X, {type: array, items: X}]`) become the list: a model that sends a
 *   list is always right, and the enum of X is not spelled twice.
 */
export function compactJsonSchema<T>(node: T): T {
  if (Array.isArray(node)) return node.map(compactJsonSchema) as T;
  if (node === null || typeof node !== 'object') return node;
  const src = node as Record<string, unknown>;
  const one = oneOrList(src.anyOf);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(src)) {
    if (k === 'minLength' && v === 1) continue;
    if (k === 'maximum' && v === Number.MAX_SAFE_INTEGER) continue;
    if (k === 'anyOf' && one) continue;
    out[k] = compactJsonSchema(v);
  }
  return (one ? { ...out, ...compactJsonSchema(one) } : out) as T;
}

/** `[X, {type: "array", items: X}]` → the array schema; anything else → null. */
function oneOrList(anyOf: unknown): Record<string, unknown> | null {
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return null;
  const [single, list] = anyOf as Record<string, unknown>[];
  if (list?.type !== 'array' || JSON.stringify(list.items) !== JSON.stringify(single)) return null;
  return list;
}
