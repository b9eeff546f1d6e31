import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import { REFERENCE_BEGIN, REFERENCE_END, toolReferenceTable, withToolReference } from '../../shared/tools/reference';

/** docs/tools.md's tool reference is generated from the catalog; this fails when someone forgot `npm run docs:tools`. */

const page = readFileSync(join(__dirname, '../../docs/tools.md'), 'utf8');

test('docs/tools.md holds the current tool reference (run `npm run docs:tools` to regenerate it)', () => {
  expect(withToolReference(page, toolReferenceTable(TOOL_CATALOG))).toBe(page);
});

test('the reference has one row per tool, with required arguments in bold and the MCP hints', () => {
  const table = toolReferenceTable(TOOL_CATALOG);
  const rows = table.split('\n').slice(2);
  expect(rows.map((r) => /^\| `([a-z_]+)`/.exec(r)?.[1])).toEqual(TOOL_CATALOG.map((d) => d.name));
  expect(rows.find((r) => r.startsWith('| `lithos_search`'))).toMatch(/\*\*query\*\*.*\| yes \| {2}\| yes \|$/);
});

test('regenerating is refused, not guessed, when the markers are missing', () => {
  expect(() => withToolReference('# no markers', 'x')).toThrow(REFERENCE_BEGIN);
  expect(page.indexOf(REFERENCE_BEGIN)).toBeLessThan(page.indexOf(REFERENCE_END));
});
