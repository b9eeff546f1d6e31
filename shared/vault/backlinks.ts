import type { LinkResolver, Resolution } from '../model/resolve';
import { folderOf } from '../model/paths';
import type { LiveNote } from './note-indexer';
import { peekLinks } from './cached-note';

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
  /** Notes present when the graph was made, not yet resolved: from `next` on. */
  private backlog: string[];
  private next = 0;
  /** Notes changed since, or touched by a change, to (re)resolve. */
  private dirty = new Set<string>();
  /**
   * Link target → its resolution where it holds for every folder (not `local`), else folder → resolution:
   * valid until the resolver next changes (then dropped), so 10k notes' 50k links take ~9k resolutions.
   */
  private memo = new Map<string, Resolution>();
  private memoByFolder = new Map<string, Map<string, Resolution>>();

  constructor(
    private readonly notes: ReadonlyMap<string, LiveNote>,
    private readonly resolver: LinkResolver,
  ) {
    this.backlog = [...notes.keys()];
    resolver.watch((path, keys) => {
      if (this.memo.size > 0 || this.memoByFolder.size > 0) this.dropMemo();
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
  async build(yieldFn: () => Promise<void>, slice = 2500): Promise<void> {
    while (this.next < this.backlog.length) {
      if (this.next > 0) await yieldFn();
      // A read during a yield may have finished the backlog (update).
      const end = Math.min(this.next + slice, this.backlog.length);
      for (; this.next < end; this.next++) this.refresh(this.backlog[this.next]);
    }
    this.update();
    this.settled();
  }

  private update(): void {
    if (this.next >= this.backlog.length && this.dirty.size === 0) return;
    for (; this.next < this.backlog.length; this.next++) this.refresh(this.backlog[this.next]);
    for (const path of this.dirty) this.refresh(path);
    this.dirty.clear();
    this.settled();
  }

  /** Nothing queued: the backlog and the memo are let go (a read after a change resolves few notes). */
  private settled(): void {
    this.backlog = [];
    this.next = 0;
    this.dropMemo();
  }

  private dropMemo(): void {
    this.memo = new Map();
    this.memoByFolder = new Map();
  }

  private refresh(path: string): void {
    this.forget(path);
    const note = this.notes.get(path);
    if (note) this.learn(path, note);
  }

  private learn(path: string, note: LiveNote): void {
    const links = peekLinks(note.cached);
    if (links.length === 0) return;
    const folder = folderOf(path);
    const targets: string[] = [];
    const keys: string[] = [];
    for (let i = 0; i < links.length; i++) {
      const r = this.resolve(links[i].target, path, folder);
      // No keys: an empty target (the linking note itself) or a path above the vault root, never a backlink.
      if (r.keys.length === 0) continue;
      for (const k of r.keys) if (!keys.includes(k)) keys.push(k);
      if (r.path !== null && r.path !== path && !targets.includes(r.path)) targets.push(r.path);
    }
    for (const t of targets) add(this.byTarget, t, path);
    for (const k of keys) add(this.readers, k, path);
    // Copies sized to fit: a list grown by push keeps room for 17 (~2 MB over 10k notes).
    if (keys.length > 0) this.sources.set(path, { targets: targets.slice(), keys: keys.slice() });
  }

  private resolve(target: string, from: string, folder: string): Resolution {
    let r = this.memo.get(target);
    if (r) return r;
    let inFolders = this.memoByFolder.get(target);
    r = inFolders?.get(folder);
    if (r) return r;
    r = this.resolver.resolveWithKeys(target, from);
    if (!r.local) this.memo.set(target, r);
    else {
      if (!inFolders) this.memoByFolder.set(target, (inFolders = new Map<string, Resolution>()));
      inFolders.set(folder, r);
    }
    return r;
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
