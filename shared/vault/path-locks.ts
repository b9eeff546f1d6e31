/**
 * One queue per note path: every engine write, delete, rename and frontmatter edit of a note runs alone,
 * its version check included, so two callers holding the same expected_version cannot both succeed (in
 * relay mode several agents share one engine). Paths are keyed as the disk names them: NFC, and folded to
 * lower case on a case-insensitive disk, where `Diary.md` and `diary.md` are one file.
 */
export class PathLocks {
  private readonly tails = new Map<string, Promise<void>>();

  constructor(private readonly caseInsensitive: boolean) {}

  /** Runs `fn` once every earlier holder of any of `paths` is done; holds them all until `fn` settles. */
  async with<T>(paths: readonly string[], fn: () => Promise<T>): Promise<T> {
    // Sorted and unique, so two callers locking the same pair in opposite order cannot wait on each other.
    const keys = [...new Set(paths.map((p) => this.key(p)))].sort();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const before = keys.map((k) => this.tails.get(k) ?? Promise.resolve());
    for (const k of keys) this.tails.set(k, held);
    try {
      await Promise.all(before);
      return await fn();
    } finally {
      release();
      // The last holder of a key removes it, so the map holds only paths being written now.
      for (const k of keys) if (this.tails.get(k) === held) this.tails.delete(k);
    }
  }

  /** How many paths are held or waited on now (for tests: a finished write leaves nothing behind). */
  get size(): number {
    return this.tails.size;
  }

  private key(path: string): string {
    const p = path.normalize('NFC');
    return this.caseInsensitive ? p.toLowerCase() : p;
  }
}
