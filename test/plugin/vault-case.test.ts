import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vaultIgnoresCase } from '../../plugin/vault-case';

/** The plugin's answer to "does this vault's disk ignore case?": looked at on desktop, else the platform's default. */

test('on desktop the folder is looked at; without a folder path (mobile) the platform default stands', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lithos-case-'));
  try {
    writeFileSync(join(dir, 'Plan.md'), 'x');
    // This machine's temp folder is case-sensitive (Linux): the look beats a default of "ignores case".
    if (process.platform === 'linux') expect(vaultIgnoresCase(dir, true)).toBe(false);
    expect(vaultIgnoresCase(null, true)).toBe(true);
    expect(vaultIgnoresCase(null, false)).toBe(false);
    // Nothing to look at (an empty vault): the default.
    rmSync(join(dir, 'Plan.md'));
    expect(vaultIgnoresCase(dir, true)).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
