import { readFileSync } from 'fs';
import path from 'path';
import { builtPluginForSuite } from './plugin-harness';

/**
 * What the community plugin store checks (obsidianmd/obsidian-releases' validation): the shipped
 * manifest's fields and formats, and versions.json mapping the plugin version to its minimum app version.
 */

const ROOT = path.resolve(__dirname, '../..');
const SEMVER = /^\d+\.\d+\.\d+$/;

const built = builtPluginForSuite();

describe('dist/plugin/manifest.json and versions.json', () => {
  test('the shipped manifest has every field the store requires, in the formats it requires', () => {
    const m = built.manifest as Record<string, unknown>;
    expect(Object.keys(m).sort()).toEqual(['author', 'description', 'id', 'isDesktopOnly', 'minAppVersion', 'name', 'version']);
    expect(m.id).toBe('lithos-memory');
    expect(String(m.id)).toMatch(/^[a-z0-9-]+$/);
    expect(String(m.id)).not.toMatch(/obsidian/);
    expect(String(m.name)).not.toMatch(/obsidian/i);
    expect(String(m.version)).toMatch(SEMVER);
    expect(String(m.minAppVersion)).toMatch(SEMVER);
    expect(typeof m.author === 'string' && m.author.trim() !== '').toBe(true);
    const desc = String(m.description);
    expect(desc.length).toBeLessThanOrEqual(250);
    expect(desc).toMatch(/\.$/);
    expect(desc).not.toMatch(/^(this (is a )?plugin|obsidian)/i);
    // Works on mobile without Node (test/plugin/lifecycle.test.ts runs it so); only the bridge is desktop-only.
    expect(m.isDesktopOnly).toBe(false);
  });

  test('the version is the package version, and versions.json maps it to the manifest minAppVersion', () => {
    const m = built.manifest as { version: string; minAppVersion: string };
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const versions = JSON.parse(readFileSync(path.join(ROOT, 'versions.json'), 'utf8')) as Record<string, string>;
    expect(m.version).toBe(pkg.version);
    expect(versions[m.version]).toBe(m.minAppVersion);
    for (const [v, min] of Object.entries(versions)) {
      expect(v).toMatch(SEMVER);
      expect(min).toMatch(SEMVER);
    }
  });
});
