import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The build the specs run against: `node esbuild.config.mjs --outdir <temp>`, as `npm run build` does.
 * A whole-suite run builds once (test/global-build.ts) and every spec file reads that one; a spec run on
 * its own builds for itself. Thirteen spec files need a build; each build costs ~2 s of two busy cores.
 */

const ROOT = resolve(__dirname, '..');
/** The environment variable naming the run's shared build folder (set by the global set-up). */
export const SHARED_BUILD_ENV = 'LITHOS_TEST_BUILD';
/** Set beside it when the global set-up made the folder, so the teardown removes only its own. */
export const MADE_BUILD_ENV = 'LITHOS_TEST_BUILD_MADE';

export function buildTo(prefix: string, only?: 'plugin' | 'bridge'): string {
  const out = mkdtempSync(join(tmpdir(), prefix));
  execFileSync(process.execPath, ['esbuild.config.mjs', '--outdir', out, ...(only ? ['--only', only] : [])], { cwd: ROOT, stdio: 'pipe' });
  return out;
}

/** A folder holding plugin/ and bridge/ as built (or just the one asked for); cleanup removes only a build of its own. */
export function builtFolder(prefix: string, only?: 'plugin' | 'bridge'): { dir: string; cleanup: () => void } {
  const shared = process.env[SHARED_BUILD_ENV];
  if (shared) return { dir: shared, cleanup: () => undefined };
  const dir = buildTo(prefix, only);
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
