// Builds the Obsidian plugin and the Node bridge/CLI.
//   node esbuild.config.mjs                 development build (inline source maps)
//   node esbuild.config.mjs --production    minified, no source maps
//   node esbuild.config.mjs --watch         rebuild on change
//   --outdir <dir>   write somewhere other than dist/ (the build test uses a temp dir)
//   --only plugin|bridge   build one target
import esbuild from 'esbuild';
import { builtinModules } from 'node:module';
import { chmod, copyFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { buildMiniLmWorker, onnxWebDefine, workerDefine } from './scripts/onnx-web-esbuild.mjs';

const root = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const option = (name) => {
  const i = args.indexOf(`--${name}`);
  if (i !== -1) return args[i + 1];
  const inline = args.find((a) => a.startsWith(`--${name}=`));
  return inline?.slice(name.length + 3);
};

const production = flag('production');
const watch = flag('watch');
const outdir = path.resolve(root, option('outdir') ?? 'dist');
const only = option('only');
if (only && only !== 'plugin' && only !== 'bridge') {
  console.error(`--only must be "plugin" or "bridge", not "${only}"`);
  process.exit(2);
}

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const common = {
  absWorkingDir: root,
  bundle: true,
  format: 'cjs',
  logLevel: 'info',
  minify: production,
  sourcemap: production ? false : 'inline',
  treeShaking: true,
  legalComments: 'none',
};

/** Obsidian loads main.js, manifest.json and styles.css from the plugin folder: copy the two static files beside it. */
const copyPluginStatics = {
  name: 'copy-plugin-statics',
  setup(build) {
    build.onEnd(async (result) => {
      if (result.errors.length) return;
      const dir = path.join(outdir, 'plugin');
      await mkdir(dir, { recursive: true });
      await copyFile(path.join(root, 'manifest.json'), path.join(dir, 'manifest.json'));
      await copyFile(path.join(root, 'styles.css'), path.join(dir, 'styles.css'));
    });
  },
};

/** The CLI runs as `./dist/bridge/cli.js` too, not only through npm's bin link. A production build drops an older build's map. */
const makeExecutable = {
  name: 'make-executable',
  setup(build) {
    build.onEnd(async (result) => {
      if (result.errors.length) return;
      await chmod(build.initialOptions.outfile, 0o755);
      if (!build.initialOptions.sourcemap) await rm(`${build.initialOptions.outfile}.map`, { force: true });
    });
  },
};

/**
 * The bridge host (desktop only) runs ws's Node server inside the plugin. The browser platform would pick
 * ws's browser stub (which only throws), so `ws` resolves to its Node entry; its requires of Node
 * built-ins stay external and run only when the host starts (Electron's renderer has them, mobile never
 * gets there). bufferutil/utf-8-validate are ws's optional native peers, tried in a try/catch.
 */
const wsForNode = {
  name: 'ws-for-node',
  setup(build) {
    const entry = createRequire(import.meta.url).resolve('ws');
    build.onResolve({ filter: /^ws$/ }, () => ({ path: entry }));
  },
};

// all-MiniLM-L6-v2 runs in a Web Worker (plugin/minilm/): its bundle, with transformers.js' browser build and
// onnxruntime-web's CPU bundle, is built first and carried in main.js as a string. Minified in both builds:
// an inline source map would double the string for no use (the worker's code is not debugged from main.js).
const workerCode = only === 'bridge' ? '' : await buildMiniLmWorker({ minify: true, nodeEnv: production ? 'production' : 'development' });

/** @type {import('esbuild').BuildOptions} */
const plugin = {
  ...common,
  entryPoints: ['plugin/main.ts'],
  outfile: path.join(outdir, 'plugin', 'main.js'),
  // Browser platform: resolves sql.js to its browser build (no Node code path at all), which is
  // what runs in Electron's renderer and on mobile. Obsidian provides the externals at run time.
  platform: 'browser',
  target: 'es2020',
  external: ['obsidian', 'electron', '@codemirror/*', '@lezer/*', 'bufferutil', 'utf-8-validate', ...nodeBuiltins],
  // The sql.js wasm is inlined as a Uint8Array and handed to initSqlJs as wasmBinary,
  // so the plugin never fetches or reads a .wasm file.
  loader: { '.wasm': 'binary' },
  // Mobile has no `process`; some libraries read process.env.NODE_ENV.
  define: { 'process.env.NODE_ENV': production ? '"production"' : '"development"', ...onnxWebDefine, ...workerDefine(workerCode) },
  plugins: [wsForNode, copyPluginStatics],
};

/** @type {import('esbuild').BuildOptions} */
const bridge = {
  ...common,
  entryPoints: ['bridge/cli.ts'],
  outfile: path.join(outdir, 'bridge', 'cli.js'),
  platform: 'node',
  target: 'node20',
  banner: { js: '#!/usr/bin/env node' },
  // Loaded from node_modules at run time: native code, ESM-only, or (sql.js) loads its own wasm
  // from its package folder. bufferutil/utf-8-validate are optional peers of ws.
  external: ['@huggingface/transformers', 'onnxruntime-node', 'sharp', 'sql.js', 'bufferutil', 'utf-8-validate'],
  // Beside the file, not inline: an inline map made cli.js 8.4 MB, and every bridge process (one per MCP
  // client, for the whole session) held it: 107 → 80 MB RSS for `--help`. `node --enable-source-maps`
  // still finds cli.js.map.
  sourcemap: production ? false : 'linked',
  plugins: [makeExecutable],
};

const targets = [];
if (only !== 'bridge') targets.push(plugin);
if (only !== 'plugin') targets.push(bridge);

try {
  if (watch) {
    for (const options of targets) {
      const ctx = await esbuild.context(options);
      await ctx.watch();
    }
    console.log('[lithos] watching for changes…');
  } else {
    const started = Date.now();
    await Promise.all(targets.map((options) => esbuild.build(options)));
    console.log(`[lithos] built ${targets.length} target(s) into ${path.relative(root, outdir) || '.'} in ${Date.now() - started} ms`);
  }
} catch {
  // esbuild has already printed the errors (logLevel info).
  process.exit(1);
}
