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
