// `npm run docs:cli`: regenerates the per-command reference in docs/cli.md from the command declarations
// (bridge/commands/registry.ts), between the markers of bridge/commands/reference.ts.
// test/bridge/cli-reference.test.ts fails when docs/cli.md is out of date.
import esbuild from 'esbuild';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = `
import { COMMANDS } from './bridge/commands/registry';
import { cliReference, withCliReference } from './bridge/commands/reference';
module.exports = (doc) => withCliReference(doc, cliReference(COMMANDS));
`;
const built = await esbuild.build({
  stdin: { contents: entry, resolveDir: root, loader: 'ts', sourcefile: 'docs-cli-entry.ts' },
  bundle: true,
  write: false,
  format: 'cjs',
  platform: 'node',
  packages: 'external',
  logLevel: 'error',
});
const mod = { exports: {} };
new Function('module', 'exports', 'require', built.outputFiles[0].text)(mod, mod.exports, createRequire(path.join(root, 'package.json')));
const docPath = path.join(root, 'docs', 'cli.md');
const before = await readFile(docPath, 'utf8');
const after = mod.exports(before);
if (after === before) console.log('docs/cli.md CLI reference is up to date.');
else {
  await writeFile(docPath, after);
  console.log('docs/cli.md CLI reference regenerated.');
}
