import { createDispatcher } from '../../shared/tools/dispatcher';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import { MAX_ERROR_DATA_STRING, MAX_ERROR_MESSAGE, toToolError } from '../../shared/tools/errors';
import { LithosError } from '../../shared/errors';
import { openHarness } from '../engine/harness';

/** Errors quote what the caller sent; a huge argument must not come back twice over in the error. */

test('long strings in an error are cut, in the message and at any depth of data; short ones are kept as they are', () => {
  const huge = 'x'.repeat(1_000_000);
  const e = toToolError(new LithosError('not_found', `No note with id "${huge}".`, { id: huge, nested: { list: [huge, 'short'] }, n: 3 }));
  expect(e.code).toBe('not_found');
  expect(e.message.length).toBeLessThan(MAX_ERROR_MESSAGE + 50);
  expect(e.message).toMatch(/… \(\d+ more characters\)$/);
  expect((e.data.id as string).length).toBeLessThan(MAX_ERROR_DATA_STRING + 50);
  expect((e.data.nested as { list: string[] }).list[1]).toBe('short');
  expect(e.data.n).toBe(3);
  expect(toToolError(new LithosError('conflict', 'Short.', { path: 'a.md' }))).toEqual({ code: 'conflict', message: 'Short.', data: { path: 'a.md' } });
});

test('a 1 MB note id given to lithos_read answers with an error of a few KB', async () => {
  const h = await openHarness({});
  try {
    const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: h.engine }));
    const err = await tools.call('lithos_read', { id: 'y'.repeat(1_000_000) }, { kind: 'agent', agent_id: 'a' }).catch((x: unknown) => x);
    expect(JSON.stringify(toToolError(err)).length).toBeLessThan(5000);
  } finally {
    await h.engine.close();
  }
});
