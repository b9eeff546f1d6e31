// Shared by the docs:* scripts: bundles a small TypeScript entry that exports `(page) => newPage`, runs it
// over a docs page and writes the page back only when it changed.
import esbuild from 'esbuild';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Regenerates `docs/<page>` with the function `entry` (TypeScript source) exports; says whether it changed. */
export async function regenerateDoc(page, entry, what) {
  const built = await esbuild.build({
    stdin: { contents: entry, resolveDir: root, loader: 'ts', sourcefile: `${path.basename(page, '.md')}-entry.ts` },
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'node',
    packages: 'external',
    logLevel: 'error',
  });
  const mod = { exports: {} };
  new Function('module', 'exports', 'require', built.outputFiles[0].text)(mod, mod.exports, createRequire(path.join(root, 'package.json')));
  const file = path.join(root, 'docs', page);
  const before = await readFile(file, 'utf8');
  const after = mod.exports(before);
  if (after === before) console.log(`docs/${page} ${what} is up to date.`);
  else {
    await writeFile(file, after);
    console.log(`docs/${page} ${what} regenerated.`);
  }
}
