import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import type { Logger, VaultEvent, VaultFileStat, VaultPort } from '../shared/ports';
import { silentLogger } from '../shared/ports';
import { LithosError } from '../shared/errors';
import { isMarkdownPath, normalizeVaultPath } from '../shared/model/paths';
import { caseProbeFs, probeIgnoresCase } from '../shared/vault/case-probe';
import { errnoOf, fsError } from './fs-errors';
import { removeIfStale, tempSuffix, writeFileAtomic } from './atomic-file';
import { verifyInside, withVaultDir } from './confined-dir';
import { editFrontMatter } from './frontmatter-edit';
import { walkNotes, type WalkedNote } from './vault-walk';
import { startWatch, type Unwatch, type WatchMode } from './node-vault-watch';

export interface NodeVaultOptions {
  /** Vault-relative '/' paths (files and folders) to leave out of listings and events. */
  ignore?: (path: string) => boolean;
  /** 'auto' (default): recursive fs.watch, polling if the platform lacks it. */
  watchMode?: WatchMode;
  /** Polling period when polling; default 1000 ms. */
  pollMs?: number;
  /** Whether the disk ignores case in names; detected on the vault folder when not given. */
  caseInsensitive?: boolean;
  /** Runs before every change to a note (write, rename, delete, frontmatter): the writer lock's fence. */
  beforeChange?: (what: string) => Promise<void>;
  /**
   * Delete temp files of interrupted writes (older than an hour) that listings come across: only for the
   * writer (a read-only command changes nothing), and an hour since no write takes that long.
   */
  sweepTemps?: boolean;
  logger?: Logger;
}

/** How often processFrontMatter retries when the note changes under it between read and write. */
const FRONTMATTER_ATTEMPTS = 3;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * VaultPort over a folder on disk, for the headless CLI/bridge. Every path is normalised, mapped to
 * its on-disk spelling (NFC in the API, whatever the disk holds) and checked with realpath so that
 * neither `..` nor a symlink can reach outside the vault.
 */
export class NodeVault implements VaultPort {
  readonly root: string;
  private readonly opts: NodeVaultOptions;
  private readonly logger: Logger;
  /** Last seen realpath of the root, for resolve()'s fast path; refreshed by every realRoot(). */
  private knownRealRoot: string | undefined;

  readonly caseInsensitive: boolean;

  constructor(root: string, opts: NodeVaultOptions = {}) {
    this.root = nodePath.resolve(root);
    this.opts = opts;
    this.logger = opts.logger ?? silentLogger;
    this.caseInsensitive = opts.caseInsensitive ?? ignoresCase(this.root);
  }

  async listMarkdown(): Promise<VaultFileStat[]> {
    const notes = await this.scan();
    return notes.map((n) => ({ path: n.path, mtime: Math.trunc(n.mtimeMs), size: n.size }));
  }

  async stat(path: string): Promise<VaultFileStat | null> {
    const { rel, abs, ownPath } = await this.resolve(path);
    // A path through a symlink is not a note of the vault (the listing never walks one): the file is
    // known by its real path, and this one must not keep a second copy of it in the index.
    if (!ownPath && (await this.realPlace(abs)) !== null) return null;
    try {
      const st = await fsp.stat(abs);
      return st.isFile() ? { path: rel, mtime: Math.trunc(st.mtimeMs), size: st.size } : null;
    } catch (err) {
      if (errnoOf(err) === 'ENOENT' || errnoOf(err) === 'ENOTDIR') return null;
      throw await this.failure(err, `stat note "${rel}"`, rel);
    }
  }

  async readBytes(path: string): Promise<Uint8Array> {
    const { rel, abs } = await this.resolve(path);
    try {
      const buf = await fsp.readFile(abs);
      return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    } catch (err) {
      throw await this.failure(err, `read note "${rel}"`, rel);
    }
  }

  async write(path: string, content: string): Promise<void> {
    const { rel, abs, ownPath } = await this.resolve(path);
    await this.opts.beforeChange?.(`note "${rel}"`);
    if (!ownPath && (await this.realPlace(abs)) !== null) {
      // Writing here would index the note twice (here and at its real path) or replace a symlinked note
      // with a copy, leaving its target as it was.
      // The real place is not named: it may lie in a folder hidden from the caller.
      throw new LithosError('invalid_argument', `Path "${rel}" is not the file's own spelling in the vault (it goes through a symbolic link, or a folder spelled in another case): write to the file's own path.`, { path: rel });
    }
    try {
      await this.replace(rel, abs, content);
    } catch (err) {
      throw await this.failure(err, `write note "${rel}"`, rel);
    }
  }

  async rename(from: string, to: string): Promise<void> {
    const a = await this.resolve(from);
    const b = await this.resolve(to);
    await this.opts.beforeChange?.(`the rename of note "${a.rel}"`);
    try {
      const src = await fsp.lstat(a.abs);
      const dst = await fsp.lstat(b.abs).catch(() => null);
      // Same inode = a case-only rename on a case-insensitive disk, not a clash.
      if (dst && !(dst.ino === src.ino && dst.dev === src.dev)) {
        throw new LithosError('conflict', `Cannot rename "${a.rel}" to "${b.rel}": a file already exists there.`, { path: b.rel });
      }
      const realRoot = await this.realRoot();
      const what = `Cannot rename "${a.rel}" to "${b.rel}"`;
      await withVaultDir(realRoot, this.rawDirOf(a.abs), { create: false, what }, (from) =>
        withVaultDir(realRoot, this.rawDirOf(b.abs), { create: true, what }, (to) => fsp.rename(nodePath.join(from, nodePath.basename(a.abs)), nodePath.join(to, nodePath.basename(b.abs)))),
      );
      await verifyInside(b.abs, realRoot, what);
    } catch (err) {
      throw await this.failure(err, `rename "${a.rel}" to "${b.rel}"`, a.rel);
    }
  }

  async delete(path: string): Promise<void> {
    const { rel, abs } = await this.resolve(path);
    await this.opts.beforeChange?.(`the deletion of note "${rel}"`);
    try {
      const what = `Cannot delete "${rel}"`;
      await withVaultDir(await this.realRoot(), this.rawDirOf(abs), { create: false, what }, (dir) => fsp.unlink(nodePath.join(dir, nodePath.basename(abs))));
    } catch (err) {
      throw await this.failure(err, `delete note "${rel}"`, rel);
    }
  }

  async processFrontMatter(path: string, fn: (frontmatter: Record<string, unknown>) => void): Promise<void> {
    const { rel, abs } = await this.resolve(path);
    for (let attempt = 0; attempt < FRONTMATTER_ATTEMPTS; attempt++) {
      const before = await this.readBytes(rel);
      let text: string;
      try {
        text = utf8.decode(before);
      } catch {
        throw new LithosError('invalid_argument', `Refusing to rewrite "${rel}": it is not valid UTF-8 text.`, { path: rel });
      }
      const next = editFrontMatter(text, rel, fn);
      if (next === null) return;
      // Someone (Obsidian, a sync client) wrote in between: start over from their version.
      if (!sameBytes(before, await this.readBytes(rel))) continue;
      await this.opts.beforeChange?.(`note "${rel}"`);
      try {
        await this.replace(rel, abs, next);
        return;
      } catch (err) {
        throw await this.failure(err, `write note "${rel}"`, rel);
      }
    }
    throw new LithosError('conflict', `"${rel}" kept changing while its frontmatter was being updated; try again.`, { path: rel });
  }

  watch(listener: (event: VaultEvent) => void): Unwatch {
    const host = {
      root: this.root,
      ignore: this.opts.ignore,
      logger: this.logger,
      scan: (underRaw?: string) => this.scan(underRaw),
      probe: (raw: string) => this.probe(raw),
      isAvailable: () => this.isAvailable(),
    };
    return startWatch(host, listener, this.opts.watchMode ?? 'auto', this.opts.pollMs ?? 1000);
  }

  async isAvailable(): Promise<boolean> {
    try {
      await this.realRoot();
      return true;
    } catch {
      return false;
    }
  }

  // ---- internals ----

  private async realRoot(): Promise<string> {
    try {
      const real = await fsp.realpath(this.root);
      if ((await fsp.stat(real)).isDirectory()) return (this.knownRealRoot = real);
    } catch {
      // reported below
    }
    throw this.unavailable();
  }

  private unavailable(): LithosError {
    return new LithosError('vault_unavailable', `The vault folder "${this.root}" is missing or is not a folder (moved, deleted, or an unmounted drive?).`, { root: this.root });
  }

  private async scan(underRaw?: string): Promise<WalkedNote[]> {
    await this.realRoot();
    const sweeps: Promise<boolean>[] = [];
    const notes = await walkNotes(this.root, {
      underRaw,
      ignore: this.opts.ignore,
      onSkip: (raw, errno) => this.logger.debug('vault listing skipped an entry', { path: raw, errno }),
      ...(this.opts.sweepTemps ? { onTemp: (raw: string) => void sweeps.push(removeIfStale(nodePath.join(this.root, raw))) } : {}),
    });
    await Promise.all(sweeps);
    // A listing taken while the folder vanished is partial; never pass it off as the truth.
    await this.realRoot();
    return notes;
  }

  private async probe(raw: string): Promise<{ kind: 'note'; note: WalkedNote } | { kind: 'dir' } | { kind: 'none' }> {
    try {
      const abs = nodePath.join(this.root, raw);
      const st = await fsp.lstat(abs);
      // realpath differing from the plain join means a symlink somewhere along the path: not walked, not reported.
      if ((await fsp.realpath(abs)) !== nodePath.join(await this.realRoot(), raw)) return { kind: 'none' };
      if (st.isDirectory()) return { kind: 'dir' };
      const path = raw.split(nodePath.sep).join('/').normalize('NFC');
      if (st.isFile() && isMarkdownPath(path)) return { kind: 'note', note: { path, raw, mtimeMs: st.mtimeMs, size: st.size } };
    } catch {
      // vanished: 'none'
    }
    return { kind: 'none' };
  }

  /** Validates a vault path and finds it on disk; refuses anything that resolves outside the vault. */
  private async resolve(path: string): Promise<{ rel: string; abs: string; ownPath?: boolean }> {
    const rel = normalizeVaultPath(path).normalize('NFC');
    // Fast path, one syscall: it exists under its NFC name and its real path is inside the vault. When that
    // real path is the plain one, no symlink is on the way (ownPath: realPlace need not look again).
    const direct = nodePath.join(this.root, ...rel.split('/'));
    const fast = await fsp.realpath(direct).catch(() => undefined);
    if (fast !== undefined && this.knownRealRoot !== undefined && isInside(fast, this.knownRealRoot)) {
      return { rel, abs: direct, ownPath: fast.normalize('NFC') === nodePath.join(this.knownRealRoot, ...rel.split('/')).normalize('NFC') };
    }
    const realRoot = await this.realRoot();
    const abs = nodePath.join(this.root, await this.locate(rel));
    // Check the deepest part of the path that exists: a new file's folder may itself be a symlink.
    let cur = abs;
    for (;;) {
      let real: string | undefined;
      try {
        real = await fsp.realpath(cur);
      } catch (err) {
        const errno = errnoOf(err);
        if (errno !== 'ENOENT' && errno !== 'ENOTDIR') throw fsError(err, `resolve "${rel}"`, { path: rel });
        if (await fsp.lstat(cur).then((s) => s.isSymbolicLink(), () => false)) {
          throw new LithosError('path_outside_vault', `Path "${rel}" goes through a symlink that points nowhere; refusing to follow it.`, { path: rel });
        }
      }
      if (real !== undefined) {
        if (!isInside(real, realRoot)) {
          throw new LithosError('path_outside_vault', `Path "${rel}" leads outside the vault through a symlink.`, { path: rel });
        }
        return { rel, abs };
      }
      cur = nodePath.dirname(cur);
    }
  }

  /**
   * Where a path through an in-vault symlink really is (vault-relative, '/'), or null when no part of it
   * is a symlink. A path that does not exist yet is judged by its deepest existing folder.
   */
  private async realPlace(abs: string): Promise<string | null> {
    const realRoot = await this.realRoot();
    let cur = abs;
    let rest = '';
    for (;;) {
      const real = await fsp.realpath(cur).catch(() => undefined);
      if (real !== undefined) {
        const plain = nodePath.join(realRoot, nodePath.relative(this.root, cur));
        // Unicode form aside: macOS may hand back a decomposed name for a composed one (same file).
        if (real.normalize('NFC') === plain.normalize('NFC')) return null;
        return nodePath.relative(realRoot, nodePath.join(real, rest)).split(nodePath.sep).join('/');
      }
      const parent = nodePath.dirname(cur);
      if (parent === cur) return null;
      rest = rest ? nodePath.join(nodePath.basename(cur), rest) : nodePath.basename(cur);
      cur = parent;
    }
  }

  /**
   * The on-disk spelling of an NFC path. Usually identical; differs for names written in NFD
   * (e.g. a vault synced from macOS), found by comparing each folder's entries after NFC.
   */
  private async locate(rel: string): Promise<string> {
    const direct = rel.split('/').join(nodePath.sep);
    if (await exists(nodePath.join(this.root, direct))) return direct;
    const segs = rel.split('/');
    let raw = '';
    for (let i = 0; i < segs.length; i++) {
      const next = nodePath.join(raw, segs[i]);
      if (await exists(nodePath.join(this.root, next))) {
        raw = next;
        continue;
      }
      const names = await fsp.readdir(nodePath.join(this.root, raw)).catch(() => [] as string[]);
      const hit = names.find((n) => n.normalize('NFC') === segs[i]);
      if (!hit) return nodePath.join(raw, ...segs.slice(i));
      raw = nodePath.join(raw, hit);
    }
    return raw;
  }

  /** Writes a note's whole text atomically, inside its held folder (confined-dir.ts). */
  private async replace(rel: string, abs: string, content: string): Promise<void> {
    const realRoot = await this.realRoot();
    const what = `Cannot write "${rel}"`;
    const name = nodePath.basename(abs);
    await withVaultDir(realRoot, this.rawDirOf(abs), { create: true, what }, (dir) => writeFileAtomic(nodePath.join(dir, name), nodePath.join(dir, tempName(name)), content));
    await verifyInside(abs, realRoot, what);
  }

  /** The folder of `abs` relative to the vault root, in its on-disk spelling. */
  private rawDirOf(abs: string): string {
    return nodePath.relative(this.root, nodePath.dirname(abs));
  }

  /** An fs error becomes vault_unavailable if the vault itself went away, else its mapped LithosError. */
  private async failure(err: unknown, what: string, rel: string): Promise<LithosError> {
    if (err instanceof LithosError) return err;
    return (await this.isAvailable()) ? fsError(err, what, { path: rel }) : this.unavailable();
  }
}

/** Hidden (dot) temp name for a note's name, in its folder, so listings and watchers skip it. */
function tempName(name: string): string {
  // The suffix adds about 27 bytes: a long note name is shortened here so its temp name still fits the
  // file system's 255 (a 245-byte name could be read and deleted, but never updated).
  let base = name;
  while (Buffer.byteLength(base) > 200) base = Array.from(base).slice(0, -1).join('');
  return `.${base}.${tempSuffix()}`;
}

function isInside(real: string, realRoot: string): boolean {
  return real === realRoot || real.startsWith(realRoot + nodePath.sep);
}

async function exists(abs: string): Promise<boolean> {
  return fsp.lstat(abs).then(
    () => true,
    () => false,
  );
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The vault's disk ignores case (shared/vault/case-probe.ts), else the platform's default (macOS, Windows: yes). */
function ignoresCase(root: string): boolean {
  return probeIgnoresCase(caseProbeFs(fs, (a, b) => nodePath.join(a, b)), root) ?? (process.platform === 'darwin' || process.platform === 'win32');
}
