/** Writes a synthetic vault to disk, a bounded number of files at a time, without holding it in memory. */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { SyntheticVault } from './synth-vault';

export interface WrittenVault {
  notes: number;
  bytes: number;
  words: number;
}

export async function writeSyntheticVault(vault: SyntheticVault, root: string): Promise<WrittenVault> {
  const made = new Set<string>();
  const stats: WrittenVault = { notes: 0, bytes: 0, words: 0 };
  let pending: Promise<void>[] = [];
  for (const note of vault.notes()) {
    const file = join(root, note.path);
    const dir = dirname(file);
    if (!made.has(dir)) {
      await mkdir(dir, { recursive: true });
      made.add(dir);
    }
    pending.push(writeFile(file, note.content, 'utf8'));
    stats.notes++;
    stats.bytes += Buffer.byteLength(note.content, 'utf8');
    stats.words += note.words;
    if (pending.length >= 64) {
      await Promise.all(pending);
      pending = [];
    }
  }
  await Promise.all(pending);
  return stats;
}
