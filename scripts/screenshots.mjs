// Screenshots of the side panels in light and dark (docs/screenshots/*.png). Not part of `npm test`.
//   npm run screenshots              build the preview page and shoot every panel in both themes
//   npm run screenshots -- --serve   only build the page (dist/preview/index.html) to open by hand
// The page (test/preview/page.ts) runs the real panel code and a real engine over examples/vault in the
// browser; `obsidian` is the typed fake (test/plugin/fake-obsidian-dom.ts). Chromium is Debian's
// /usr/bin/chromium (apt-get install chromium), driven by playwright-core: no browser download.
import esbuild from 'esbuild';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, writeFile, copyFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist', 'preview');
const shots = path.join(root, 'docs', 'screenshots');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const PANELS = ['note-memory', 'retrieve', 'conflicts', 'receipts', 'agents', 'resolve-modal', 'callouts'];
const THEMES = ['light', 'dark'];

async function vaultFiles(dir, rel = '', acc = {}) {
  for (const name of (await readdir(dir)).sort()) {
    if (name.startsWith('.')) continue;
    const abs = path.join(dir, name);
    const r = rel ? `${rel}/${name}` : name;
    if ((await stat(abs)).isDirectory()) await vaultFiles(abs, r, acc);
    else acc[r] = await readFile(abs, 'utf8');
  }
  return acc;
}

/** `virtual:example-vault`: examples/vault as a JSON module, read at build time. */
const exampleVault = {
  name: 'example-vault',
  setup(build) {
    build.onResolve({ filter: /^virtual:example-vault$/ }, () => ({ path: 'example-vault', namespace: 'virtual' }));
    build.onLoad({ filter: /.*/, namespace: 'virtual' }, async () => ({ contents: JSON.stringify(await vaultFiles(path.join(root, 'examples', 'vault'))), loader: 'json' }));
  },
};

async function build() {
  await mkdir(out, { recursive: true });
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['test/preview/page.ts'],
    outfile: path.join(out, 'page.js'),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    loader: { '.wasm': 'binary' },
    alias: { obsidian: './test/plugin/fake-obsidian-dom.ts' },
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [exampleVault],
    logLevel: 'warning',
  });
  await copyFile(path.join(root, 'styles.css'), path.join(out, 'styles.css'));
  await copyFile(path.join(root, 'test', 'preview', 'obsidian-theme.css'), path.join(out, 'obsidian-theme.css'));
  await writeFile(
    path.join(out, 'index.html'),
    `<!doctype html><html><head><meta charset="utf-8"><title>Lithos panels preview</title>
<link rel="stylesheet" href="obsidian-theme.css"><link rel="stylesheet" href="styles.css"></head>
<body><div class="preview-sidebar"></div><script src="page.js"></script></body></html>\n`,
  );
  return path.join(out, 'index.html');
}

async function shoot(page) {
  const { chromium } = await import('playwright-core');
  if (!existsSync(CHROMIUM)) {
    console.error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM=/path/to/chrome).`);
    process.exit(2);
  }
  await mkdir(shots, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const tab = await browser.newPage({ viewport: { width: 720, height: 900 }, deviceScaleFactor: 1.5 });
    const errors = [];
    tab.on('pageerror', (e) => errors.push(String(e)));
    for (const panel of PANELS) {
      for (const theme of THEMES) {
        await tab.goto(`${pathToFileURL(page).href}?panel=${panel}&theme=${theme}`);
        await tab.waitForSelector('body[data-ready]', { timeout: 60_000 });
        const failed = await tab.getAttribute('body', 'data-error');
        if (failed || errors.length) throw new Error(`${panel}/${theme}: ${failed ?? errors.join('\n')}`);
        const file = path.join(shots, `${panel}-${theme}.png`);
        const target = panel === 'resolve-modal' ? tab.locator('.modal') : tab.locator('.preview-sidebar');
        await target.screenshot({ path: file });
        console.log(`[screenshots] ${path.relative(root, file)}`);
      }
    }
  } finally {
    await browser.close();
  }
}

const page = await build();
if (process.argv.includes('--serve')) console.log(`[screenshots] built ${path.relative(root, page)}`);
else await shoot(page);
