/* eslint-disable @typescript-eslint/no-require-imports -- desktop only, loaded on demand (see below) */
import type * as Fs from 'node:fs';
import type * as Path from 'node:path';
import { caseProbeFs, probeIgnoresCase } from '../shared/vault/case-probe';

/**
 * Whether the vault's disk ignores case (VaultPort.caseInsensitive). On desktop the folder is looked at
 * (a Linux vault on an exFAT or NTFS drive ignores case; a case-sensitive APFS volume does not); Node's
 * fs is required only then, since the same main.js runs on mobile. Otherwise, or when the look tells
 * nothing, the platform's default.
 */
export function vaultIgnoresCase(basePath: string | null, platformDefault: boolean): boolean {
  if (basePath === null) return platformDefault;
  try {
    const fs = require('node:fs') as typeof Fs;
    const path = require('node:path') as typeof Path;
    return probeIgnoresCase(caseProbeFs(fs, (a, b) => path.join(a, b)), basePath) ?? platformDefault;
  } catch {
    return platformDefault;
  }
}
