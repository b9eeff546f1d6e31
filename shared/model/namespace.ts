import { folderOf } from './paths';

/** Namespace of notes at the vault root. */
export const DEFAULT_NAMESPACE = 'default';

/** One or more segments of letters, digits, `_`, `-`, `.` separated by single '/'. */
const NAMESPACE_RE = /^[\p{L}\p{N}_\-.]+(?:\/[\p{L}\p{N}_\-.]+)*$/u;

/**
 * The namespace a note gets when its frontmatter names none: its folder path, verbatim
 * (`project/lithos/x.md` → `project/lithos`), or `default` at the vault root.
 */
export function namespaceFromPath(path: string): string {
  const folder = folderOf(path.replace(/\\/g, '/'));
  return folder === '' ? DEFAULT_NAMESPACE : folder;
}

/** Whether an explicit frontmatter `namespace` is acceptable. `.`/`..` segments are refused (they read as paths). */
export function isValidNamespace(value: string): boolean {
  if (!NAMESPACE_RE.test(value)) return false;
  return value.split('/').every((seg) => seg !== '.' && seg !== '..');
}
