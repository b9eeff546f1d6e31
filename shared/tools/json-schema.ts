import { z } from 'zod';
import type { ToolDef } from './types';

export type JsonSchemaObject = { type: 'object'; properties?: Record<string, object>; required?: string[]; [k: string]: unknown };

/** A tool's input as JSON Schema (what MCP's tools/list carries): the schema of what a caller may send. */
export function inputJsonSchema(def: ToolDef): JsonSchemaObject {
  const schema = z.toJSONSchema(def.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return { ...schema, type: 'object' };
}
