import { LithosError } from '../errors';

/**
 * Normalises a vault-relative path and refuses anything that would leave the vault:
 * absolute paths, drive letters, `..` segments, NUL bytes. Returns '/'-separated, no leading './'.
 */
export function normalizeVaultPath(input: string): string {
  if (typeof input !== 'string' || input.trim() === '') {
    throw new LithosError('invalid_argument', 'A note path must be a non-empty string.', { path: input });
  }
  if (input.includes('\0')) {
    throw new LithosError('path_outside_vault', 'A note path may not contain NUL bytes.', { path: input });
  }
  const unified = input.replace(/\\/g, '/');
  if (unified.startsWith('/') || /^[a-zA-Z]:/.test(unified) || unified.startsWith('//')) {
    throw new LithosError('path_outside_vault', `Path "${input}" is absolute; paths are relative to the vault.`, { path: input });
  }
  const parts: string[] = [];
  for (const seg of unified.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      throw new LithosError('path_outside_vault', `Path "${input}" tries to leave the vault.`, { path: input });
    }
    parts.push(seg);
  }
  if (parts.length === 0) {
    throw new LithosError('invalid_argument', `Path "${input}" names no file.`, { path: input });
  }
  return parts.join('/');
}

/** True for paths the engine never treats as notes: `.lithos/`, `.obsidian/`, `.trash/`, any dot-folder. */
export function isHiddenPath(path: string): boolean {
  return path.split('/').some((seg) => seg.startsWith('.'));
}

export function isMarkdownPath(path: string): boolean {
  return /\.md$/i.test(path);
}

/** `project/lithos/x.md` → `project/lithos/x`; basename without extension is the last segment. */
export function stripMd(path: string): string {
  return path.replace(/\.md$/i, '');
}

export function basenameNoExt(path: string): string {
  const stripped = stripMd(path);
  const i = stripped.lastIndexOf('/');
  return i === -1 ? stripped : stripped.slice(i + 1);
}

export function folderOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i === -1 ? '' : path.slice(0, i);
}
