import { LithosError } from '../errors';
import { isMarkdownPath, normalizeVaultPath } from './paths';

const MAX_PATH = 1024;

/**
 * A note path given by an agent (write, read, delete): vault-relative, '/'-separated, Markdown only, and
 * never anything that could reach outside the notes: `..`, absolute paths, URL-encoded separators or dots,
 * backslashes, control characters, or any dot-folder (`.obsidian/`, `.lithos/`, `.trash/`); composed to NFC. The vault
 * adapter additionally refuses symlinks that lead outside the vault. Returns the normalised path.
 */
export function checkNotePath(input: unknown): string {
  if (typeof input !== 'string' || input.trim() === '') {
    throw new LithosError('invalid_argument', 'path must be a non-empty vault-relative path such as "project/notes/Pool sizing.md".', { path: input });
  }
  const path = input.trim();
  const refuse = (code: 'invalid_argument' | 'path_outside_vault', why: string) =>
    new LithosError(code, `Path "${path.slice(0, 200)}" ${why}`, { path: path.slice(0, MAX_PATH) });
  if (path.length > MAX_PATH) throw refuse('invalid_argument', `is longer than ${MAX_PATH} characters.`);
  if (/[\u0000-\u001f\u007f]/.test(path)) throw refuse('path_outside_vault', 'contains control characters (NUL, newline, …).');
  if (path.includes('\\')) throw refuse('path_outside_vault', "contains a backslash; use '/' between folders.");
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(path)) throw refuse('invalid_argument', 'contains an unpaired surrogate: it is not valid Unicode text.');
  if (/%(2e|2f|5c|00)/i.test(path)) throw refuse('path_outside_vault', 'contains URL-encoded dots, slashes or NUL; give the plain path.');
  if (path.startsWith('/') || path.startsWith('~') || /^[a-zA-Z]:/.test(path) || /^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    throw refuse('path_outside_vault', 'is absolute; paths are relative to the vault root.');
  }
  if (path.split('/').includes('..')) throw refuse('path_outside_vault', "tries to leave the vault with '..'.");
  // NFC: the vault adapters list names composed; a decomposed spelling (macOS input) is the same note.
  const rel = normalizeVaultPath(path).normalize('NFC');
  if (rel.split('/').some((seg) => seg.startsWith('.'))) {
    throw refuse('path_outside_vault', 'is inside a hidden folder or names a hidden file (.obsidian, .lithos, .trash, …); notes live outside dot-folders.');
  }
  if (!isMarkdownPath(rel)) throw refuse('invalid_argument', 'is not a Markdown note; paths must end in .md.');
  return rel;
}

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i;

/**
 * Why a new note's path would not survive the vault being opened or synced on another system, or null.
 * Obsidian refuses these characters in names too (and # ^ [ ] make a name that links cannot reach);
 * Windows cannot hold reserved device names (CON, AUX…)
 * or names ending in a dot or space (`Foo:bar.md` on NTFS is even a hidden stream of a file `Foo`).
 * Checked only when a note is created: an existing note keeps whatever name it has.
 */
export function portabilityProblem(path: string): string | null {
  for (const seg of path.split('/')) {
    const bad = /[*"<>:|?#^[\]]/.exec(seg);
    if (bad) return `"${seg}" contains "${bad[0]}", which Windows or Obsidian do not allow in names (# ^ [ ] break links to the note)`;
    if (WINDOWS_RESERVED.test(seg)) return `"${seg}" is a name Windows reserves for a device`;
    if (/[. ]$/.test(seg.replace(/\.md$/i, ''))) return `"${seg}" ends in a dot or a space, which Windows drops`;
  }
  return null;
}
