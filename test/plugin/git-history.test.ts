import * as fs from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import { FakeApp } from './fake-obsidian';
import { builtPluginForSuite, eventually, indexItem, pluginHost, settingsTab, type LoadedPlugin, type PluginHost } from './plugin-harness';

/**
 * Git history in the BUILT plugin (plugin/obsidian-git-log.ts): on desktop the vault's folder is a git
 * repository and its commits become `commit` events when the memory opens, read with isomorphic-git in the
 * renderer (no `git` process); Settings → Learning → Git history says what was indexed, names another
 * repository (git.repository) and says plainly when that folder is not a repository. On mobile it is skipped,
 * with the reason, and nothing Node-only is loaded.
 */
const built = builtPluginForSuite();
const ALPHA = '# Alpha\nThe quick brown fox.\n';
const author = { name: 'Ada Lovelace', email: 'ada@example.org' };

let dir = '';
let h: PluginHost | null = null;
let plugin: LoadedPlugin | null = null;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'lithos-plugin-git-'));
});
afterEach(() => {
  plugin?.unload();
  plugin = null;
  h?.dispose();
  h = null;
  rmSync(dir, { recursive: true, force: true });
});

async function start(desktop: boolean): Promise<LoadedPlugin> {
  const app = FakeApp.with({ 'alpha.md': ALPHA });
  if (desktop) app.adapter.onDisk(dir);
  app.metadataCache.resolved = true;
  app.workspace.finishLayout();
  // The agents bridge stays off: it would write .lithos/bridge.json into the folder each test removes.
  h = pluginHost(built.code, built.manifest, { app, desktop, store: { data: { settings: { bridge: { enabled: false } } }, saves: 0 } });
  plugin = await h.load();
  const p = plugin;
  await eventually(() => indexItem(p).textContent === 'Lithos: ready · 1 note', () => indexItem(p).textContent);
  return p;
}

/** The row as the tab shows it now (each display() adds a fresh set of rows to the fake container). */
const row = (p: LoadedPlugin, name: string) => settingsTab(p).settings.filter((x) => x.name === name).pop()!;
const gitLine = (p: LoadedPlugin): string => row(p, 'Git history').desc;

test('desktop: the vault\'s commits are indexed when the memory opens, and the settings say so', async () => {
  await git.init({ fs, dir, defaultBranch: 'main' });
  writeFileSync(path.join(dir, 'alpha.md'), ALPHA);
  await git.add({ fs, dir, filepath: 'alpha.md' });
  await git.commit({ fs, dir, message: 'Alpha, first words', author });

  const p = await start(true);
  await eventually(() => gitLine(p).includes('1 new commit indexed'), () => gitLine(p));
  expect(gitLine(p)).toContain(`Git history: ${dir} — 1 new commit indexed`);
  expect(h!.required).toContain('node:fs'); // loaded when the index ran, on desktop only

  // A second commit, indexed on demand: only what is new.
  writeFileSync(path.join(dir, 'alpha.md'), `${ALPHA}Jumps.\n`);
  await git.add({ fs, dir, filepath: 'alpha.md' });
  await git.commit({ fs, dir, message: 'Alpha jumps', author });
  await row(p, 'Index git history now').controls[0].change();
  await eventually(() => gitLine(p).includes('1 new commit indexed ('), () => gitLine(p));
  await row(p, 'Index git history now').controls[0].change();
  await eventually(() => gitLine(p).includes('up to date'), () => gitLine(p));
});

test('desktop: git.repository names another folder; one that is not a repository is said plainly', async () => {
  const p = await start(true);
  await eventually(() => gitLine(p).includes('the vault is in no git repository'), () => gitLine(p));

  const plain = mkdtempSync(path.join(os.tmpdir(), 'lithos-plain-'));
  try {
    await row(p, 'git.repository').controls[0].change(plain);
    await eventually(() => gitLine(p).startsWith('Git history not indexed'), () => gitLine(p));
    expect(gitLine(p)).toContain(`which is not a git repository`);

    await git.init({ fs, dir: plain, defaultBranch: 'main' });
    writeFileSync(path.join(plain, 'main.ts'), 'export {};\n');
    await git.add({ fs, dir: plain, filepath: 'main.ts' });
    await git.commit({ fs, dir: plain, message: 'Code', author });
    await row(p, 'Index git history now').controls[0].change();
    await eventually(() => gitLine(p).includes(`Git history: ${plain} — 1 new commit indexed`), () => gitLine(p));
    expect(row(p, 'git.repository').controls[0].value).toBe(plain);
  } finally {
    rmSync(plain, { recursive: true, force: true });
  }
});

test('mobile: git history is skipped, with the reason, and no Node module is required', async () => {
  const p = await start(false);
  await eventually(() => gitLine(p).includes('not indexed on Obsidian mobile'), () => gitLine(p));
  expect(h!.required.filter((id) => id !== 'obsidian')).toEqual([]);
});
