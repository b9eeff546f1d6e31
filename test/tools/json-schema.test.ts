import { TOOL_CATALOG } from '../../shared/tools/catalog';
import { inputJsonSchema } from '../../shared/tools/json-schema';

/** What tools/list carries must be accepted by the clients agents run in, the strictest included. */

const keysAnywhere = (node: unknown, acc = new Set<string>()): Set<string> => {
  if (Array.isArray(node)) for (const v of node) keysAnywhere(v, acc);
  else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      acc.add(k);
      keysAnywhere(v, acc);
    }
  }
  return acc;
};

test.each(TOOL_CATALOG.map((d) => [d.name, d] as const))('%s: an object schema without keywords Gemini / Vertex AI refuse (propertyNames, $schema)', (_name, def) => {
  const schema = inputJsonSchema(def);
  expect(schema.type).toBe('object');
  const keys = keysAnywhere(schema);
  expect(keys.has('propertyNames')).toBe(false);
  expect(keys.has('$schema')).toBe(false);
});

test('a record argument still says its values may be anything, keyed by strings', () => {
  const create = TOOL_CATALOG.find((d) => d.name === 'lithos_task_create')!;
  expect(inputJsonSchema(create).properties?.metadata).toMatchObject({ type: 'object', additionalProperties: {} });
});
