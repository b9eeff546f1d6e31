// `npm run docs:tools`: regenerates the tool reference table in docs/tools.md from the tool catalog
// (shared/tools/catalog.ts), between the markers of shared/tools/reference.ts. test/tools/reference.test.ts
// fails when the page is out of date.
import esbuild from 'esbuild';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = `
import { TOOL_CATALOG } from './shared/tools/catalog';
import { toolReferenceTable, withToolReference } from './shared/tools/reference';
module.exports = (page) => withToolReference(page, toolReferenceTable(TOOL_CATALOG));
`;
const built = await esbuild.build({
  stdin: { contents: entry, resolveDir: root, loader: 'ts', sourcefile: 'docs-tools-entry.ts' },
  bundle: true,
  write: false,
  format: 'cjs',
  platform: 'node',
  packages: 'external',
  logLevel: 'error',
});
const mod = { exports: {} };
new Function('module', 'exports', 'require', built.outputFiles[0].text)(mod, mod.exports, createRequire(path.join(root, 'package.json')));
const pagePath = path.join(root, 'docs', 'tools.md');
const before = await readFile(pagePath, 'utf8');
const after = mod.exports(before);
if (after === before) console.log('docs/tools.md is up to date.');
else {
  await writeFile(pagePath, after);
  console.log('docs/tools.md regenerated.');
}
