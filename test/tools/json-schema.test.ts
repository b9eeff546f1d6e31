import { TOOL_CATALOG } from '../../shared/tools/catalog';
import { compactJsonSchema, inputJsonSchema } from '../../shared/tools/json-schema';

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

describe('compactJsonSchema (what tools/list carries)', () => {
  test('drops what says nothing to a model and spells a "one or a list" argument as the list', () => {
    const search = TOOL_CATALOG.find((d) => d.name === 'lithos_search')!;
    const compact = compactJsonSchema(inputJsonSchema(search));
    expect(compact.properties?.note_type).toEqual({ description: expect.any(String), type: 'array', items: { type: 'string' } });
    expect(compact.properties?.query).toEqual({ type: 'string', maxLength: 2000, description: expect.any(String) });
    expect(compact.required).toEqual(['query']);
  });

  test('keeps a union that is not "one or a list", and every bound that says something', () => {
    expect(compactJsonSchema({ anyOf: [{ type: 'string', minLength: 1 }, { type: 'null' }] })).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    expect(compactJsonSchema({ type: 'integer', minimum: 1, maximum: 100 })).toEqual({ type: 'integer', minimum: 1, maximum: 100 });
    expect(compactJsonSchema({ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER })).toEqual({ type: 'integer', minimum: 0 });
  });

  test('every schema the catalog lists stays valid for the dispatcher: a list is accepted where one value was', () => {
    const list = TOOL_CATALOG.find((d) => d.name === 'lithos_list')!;
    expect(list.input.safeParse({ note_type: ['concept'], status: ['active'], namespace: ['project'] }).success).toBe(true);
  });
});

test('a filter value outside the note types or statuses is refused naming them (the schema lists them only on lithos_write)', async () => {
  const { openTools } = await import('./fixture');
  const t = await openTools();
  try {
    const e = await t.call('lithos_list', { note_type: ['claim', 'nonsense'] }).catch((err: { code: string; message: string }) => err);
    expect(e).toMatchObject({ code: 'invalid_argument', message: expect.stringContaining('each must be one of observation') });
    const s = await t.call('lithos_search', { query: 'pool', status: 'gone' }).catch((err: { code: string; message: string }) => err);
    expect(s).toMatchObject({ code: 'invalid_argument', message: expect.stringContaining('superseded') });
    expect((await t.call('lithos_list', { note_type: 'concept' })).notes.length).toBeGreaterThan(0);
  } finally {
    await t.engine.close();
  }
});
