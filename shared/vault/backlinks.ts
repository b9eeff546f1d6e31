import type { LinkResolver } from '../model/resolve';
import { folderOf } from './paths';
import type { LiveNote } from './note-indexer';
import { peekLinks } from './cached-note';

/** folder → link target → where it resolves from that folder, and the resolver keys it read */
type Memo = Map<string, Map<string, Resolved>>;
type Resolved = { path: string | null; keys: string[] };

/** What one linking note contributes: the notes its links resolve to, and the resolver keys they read. */
interface Source {
  targets: readonly string[];
  keys: readonly string[];
}

/**
 * Target path → the notes linking to it, kept up to date per changed note instead of rebuilt whenever any
 * note changes. A note is re-resolved when it changes itself, or when the resolver's candidates changed
 * under a key one of its links reads (a note named like a link target appears, moves or goes): the
 * resolver reports those keys (LinkResolver.watch). Work is queued and done when backlinks are next read,
 * or ahead of time by build().
 */
export class Backlinks {
  private readonly sources = new Map<string, Source>();
  /** Target path → the notes linking to it, each once, in no order. */
  private readonly byTarget = new Map<string, string[]>();
  /** Resolver key → notes with a link that reads it, each once, in no order. */
  private readonly readers = new Map<string, string[]>();
  /** Notes to (re)resolve; every note at first. */
  private readonly dirty: Set<string>;

  constructor(
    private readonly notes: ReadonlyMap<string, LiveNote>,
    private readonly resolver: LinkResolver,
  ) {
    this.dirty = new Set(notes.keys());
    resolver.watch((path, keys) => {
      this.dirty.add(path);
      for (const k of keys) for (const from of this.readers.get(k) ?? []) this.dirty.add(from);
    });
  }

  /** Notes linking to `path` (itself left out), sorted. */
  of(path: string): string[] {
    this.update();
    const from = this.byTarget.get(path);
    return from ? [...from].sort() : [];
  }

  /** Resolves what is queued, `slice` notes at a time with a turn of `yieldFn` between: at open, off the first read. */
  async build(yieldFn: () => Promise<void>, slice = 2000): Promise<void> {
    while (this.dirty.size > 0) {
      this.update(slice);
      if (this.dirty.size > 0) await yieldFn();
    }
  }

  private update(limit = Infinity): void {
    if (this.dirty.size === 0) return;
    // The resolver holds still during one update: a target resolves the same from every note of a folder.
    const memo: Memo = new Map();
    let done = 0;
    for (const path of this.dirty) {
      if (done++ >= limit) break;
      this.dirty.delete(path);
      this.forget(path);
      const note = this.notes.get(path);
      if (note) this.learn(path, note, memo);
    }
  }

  private learn(path: string, note: LiveNote, memo: Memo): void {
    const folder = folderOf(path);
    let inFolder = memo.get(folder);
    if (!inFolder) memo.set(folder, (inFolder = new Map<string, Resolved>()));
    const targets: string[] = [];
    const keys: string[] = [];
    for (const link of peekLinks(note.cached)) {
      let r = inFolder.get(link.target);
      if (!r) inFolder.set(link.target, (r = this.resolver.resolveWithKeys(link.target, path)));
      // An empty target is the linking note itself (its folder's first note, in the memo): never a backlink.
      if (r.keys.length === 0) continue;
      for (const k of r.keys) if (!keys.includes(k)) keys.push(k);
      if (r.path !== null && r.path !== path && !targets.includes(r.path)) targets.push(r.path);
    }
    for (const t of targets) add(this.byTarget, t, path);
    for (const k of keys) add(this.readers, k, path);
    if (keys.length > 0) this.sources.set(path, { targets, keys });
  }

  private forget(path: string): void {
    const s = this.sources.get(path);
    if (!s) return;
    this.sources.delete(path);
    for (const t of s.targets) drop(this.byTarget, t, path);
    for (const k of s.keys) drop(this.readers, k, path);
  }
}

// Lists rather than sets: a note is added to a key's list once per update of that note and taken out before
// the next, so no membership test is needed, and 100k set insertions at open cost twice these pushes.
function add(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function drop(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (!list) return;
  const i = list.indexOf(value);
  if (i === -1) return;
  if (list.length === 1) map.delete(key);
  else {
    list[i] = list[list.length - 1];
    list.pop();
  }
}
