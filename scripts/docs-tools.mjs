// `npm run docs:tools`: regenerates the tool reference table in docs/tools.md from the tool catalog
// (shared/tools/catalog.ts), between the markers of shared/tools/reference.ts. test/tools/reference.test.ts
// fails when the page is out of date.
import { regenerateDoc } from './regenerate-doc.mjs';

await regenerateDoc(
  'tools.md',
  `
import { TOOL_CATALOG } from './shared/tools/catalog';
import { toolReferenceTable, withToolReference } from './shared/tools/reference';
module.exports = (page) => withToolReference(page, toolReferenceTable(TOOL_CATALOG));
`,
  'tool reference',
);
