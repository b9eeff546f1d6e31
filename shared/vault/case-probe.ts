/**
 * Whether the disk holding a vault ignores case in names (VaultPort.caseInsensitive), found by looking:
 * an entry of the vault folder, asked for under its name in swapped case, is the same file. Looked at
 * inside the vault, whose folder may be a mount point or a share root on another disk than its parent.
 * Null when it cannot tell (no entry with letters, or the disk cannot be read): the caller's platform
 * default then applies. Hosts pass their own file-system calls (Node's fs, synchronous), so this stays
 * free of Node built-ins.
 */
export interface CaseProbeFs {
  realpath(path: string): string;
  readdir(path: string): string[];
  /** null when nothing is there. */
  identity(path: string): { ino: number | bigint; dev: number | bigint } | null;
  join(a: string, b: string): string;
}

export function probeIgnoresCase(fs: CaseProbeFs, root: string): boolean | null {
  try {
    const real = fs.realpath(root);
    const swap = (n: string): string => n.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
    const name = fs.readdir(real).find((n) => swap(n) !== n);
    if (name === undefined) return null;
    const self = fs.identity(fs.join(real, name));
    const other = fs.identity(fs.join(real, swap(name)));
    if (!self) return null;
    return !!other && other.ino === self.ino && other.dev === self.dev;
  } catch {
    return null;
  }
}

/** The subset of Node's fs the probe needs, typed structurally (shared/ imports no Node built-in). */
export interface NodeFsLike {
  realpathSync(path: string): string;
  readdirSync(path: string): string[];
  lstatSync(path: string, opts: { throwIfNoEntry: false }): { ino: number | bigint; dev: number | bigint } | undefined;
}

/** CaseProbeFs over Node's fs and path.join, for the hosts that have them (the bridge, the desktop plugin). */
export function caseProbeFs(fs: NodeFsLike, join: (a: string, b: string) => string): CaseProbeFs {
  return {
    realpath: (p) => fs.realpathSync(p),
    readdir: (p) => fs.readdirSync(p),
    identity: (p) => fs.lstatSync(p, { throwIfNoEntry: false }) ?? null,
    join,
  };
}
