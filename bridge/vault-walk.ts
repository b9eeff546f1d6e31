import { lstatSync, promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { isMarkdownPath } from '../shared/model/paths';
import { errnoOf } from './fs-errors';
import { TEMP_SUFFIX_RE } from './atomic-file';

/** A note found on disk. `path` is NFC and '/'-separated (the API form); `raw` is the on-disk spelling. */
export interface WalkedNote {
  path: string;
  raw: string;
  mtimeMs: number;
  size: number;
}

/** Folders never walked besides dot-folders: they hold tooling, not notes. */
const SKIPPED_FOLDERS = new Set(['node_modules']);

/**
 * True when a vault-relative path (NFC, '/') lies in a dot-folder, node_modules, or anything the
 * user's `ignore` matches — checked on every ancestor, so an ignored folder hides its whole subtree.
 */
export function isExcludedPath(rel: string, ignore?: (path: string) => boolean): boolean {
  const segs = rel.split('/');
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i];
    if (seg.startsWith('.') || SKIPPED_FOLDERS.has(seg)) return true;
    if (ignore && ignore(segs.slice(0, i + 1).join('/'))) return true;
  }
  return false;
}

export function toApiPath(raw: string): string {
  return raw.split(nodePath.sep).join('/').normalize('NFC');
}

/**
 * How many of a folder's entries are looked at per turn of the event loop. Notes are lstat'ed
 * synchronously: on a local disk a warm lstat takes a few µs, so a slice holds the loop ~2 ms, while 10k
 * promise lstats cost 120-260 ms of thread-pool round trips and promise plumbing against 75-95 ms (10k-note
 * vault). Starting every lstat at once instead made their callbacks land in one turn (100-250 ms held).
 */
const SLICE = 256;

const nextTurn = (): Promise<void> => new Promise((r) => setImmediate(r));

/**
 * Lists Markdown notes under `root` (or under its sub-folder `underRaw`). Symlinks are not followed:
 * one pointing outside would leak files into the vault, one pointing inside would list a note twice.
 * Folders that vanish or can't be read mid-walk are skipped and reported through `onSkip`.
 */
export async function walkNotes(
  root: string,
  opts: {
    underRaw?: string;
    ignore?: (path: string) => boolean;
    onSkip?: (raw: string, errno: string | undefined) => void;
    /** Called for each temp file an interrupted atomic write left next to a note (`.<name>.tmp-<pid>-<hex>`). */
    onTemp?: (raw: string) => void;
  },
): Promise<WalkedNote[]> {
  const out: WalkedNote[] = [];
  const folders = [opts.underRaw ?? ''];
  let sliced = false;
  const note = (raw: string, rel: string): void => {
    try {
      const st = lstatSync(nodePath.join(root, raw), { throwIfNoEntry: false });
      if (!st) opts.onSkip?.(raw, 'ENOENT'); // deleted between readdir and lstat
      else if (st.isFile()) out.push({ path: rel, raw, mtimeMs: st.mtimeMs, size: st.size });
    } catch (err) {
      opts.onSkip?.(raw, errnoOf(err));
    }
  };
  for (let rawDir = folders.pop(); rawDir !== undefined; rawDir = folders.pop()) {
    let entries;
    try {
      entries = await fsp.readdir(nodePath.join(root, rawDir), { withFileTypes: true });
    } catch (err) {
      opts.onSkip?.(rawDir, errnoOf(err));
      continue;
    }
    for (let i = 0; i < entries.length; i += SLICE) {
      // Every slice on its own turn, the first of a folder too: a folder listing can land in the same turn.
      if (sliced) await nextTurn();
      sliced = true;
      for (const ent of entries.slice(i, i + SLICE)) {
        const raw = rawDir ? nodePath.join(rawDir, ent.name) : ent.name;
        const rel = toApiPath(raw);
        if (opts.onTemp && ent.isFile() && ent.name.startsWith('.') && TEMP_SUFFIX_RE.test(ent.name)) opts.onTemp(raw);
        if (isExcludedPath(rel, opts.ignore)) continue;
        if (ent.isDirectory()) folders.push(raw);
        else if (ent.isFile() && isMarkdownPath(rel)) note(raw, rel);
      }
    }
  }
  out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return out;
}
