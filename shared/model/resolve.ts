import { folderOf } from './paths';
import { isUuid } from './ids';
import { ledgerRefOfTarget, shortLedgerId } from './ledger-id';

/** resolveWithKeys' answer. */
export interface Resolution {
  path: string | null;
  keys: string[];
  local: boolean;
}

/** What the resolver needs to know about a note besides its path. */
export interface ResolvableNote {
  id?: string | null;
  aliases?: readonly string[];
  title?: string | null;
  /** The frontmatter `ledger_id` (model/ledger-id.ts): found by its full form, and by its short form while unique. */
  ledgerId?: string | null;
}

interface Entry {
  info: ResolvableNote;
  pathKey: string;
  baseKey: string;
  aliasKeys: string[];
  idKey: string | null;
  titleKey: string | null;
  /** `\0id:e007-k3xq` and `\0id:e007`: ID keys live apart from path keys (no path starts with NUL). */
  ledgerKeys: string[];
}

/**
 * Link target → note path, following Obsidian's `metadataCache.getFirstLinkpathDest`:
 *   1. exact vault path (with or without `.md`; then case-insensitively),
 *   2. the path relative to the linking note's folder (`../x.md`, `./x`, `sub/x`),
 *   3. basename (case-insensitive; a target with folders must match the end of the path). Several
 *      notes with that name: the one in the linking note's folder, else the shortest path, else
 *      alphabetical — so the answer never depends on insertion order,
 *   4. frontmatter alias, 5. frontmatter id,
 *   6. frontmatter title (Lithos addition, last: agents often link by title; Obsidian would not).
 * A target shaped like a ledger ID (`E007-k3xq`, `E007`) is looked up by `ledger_id` after the basename step:
 * the full form picks as the steps above do, the short form only when exactly one note holds an `E007-*`.
 * An empty target (`[[#heading]]`) is the linking note itself. Unresolved → null (a broken link).
 * Every step is a map lookup plus a walk over the few notes sharing one key: no scan of the vault.
 */
export class LinkResolver {
  private readonly notes = new Map<string, Entry>();
  private readonly byPath = new Map<string, string[]>();
  private readonly byBasename = new Map<string, string[]>();
  private readonly byAlias = new Map<string, string[]>();
  private readonly byId = new Map<string, string[]>();
  private readonly byTitle = new Map<string, string[]>();
  private readonly byLedger = new Map<string, string[]>();
  private readonly listeners = new Set<(path: string, keys: readonly string[]) => void>();

  get size(): number {
    return this.notes.size;
  }

  has(path: string): boolean {
    return this.notes.has(path);
  }

  /**
   * The note at `path` (a vault path with `.md`): the exact spelling, else its variant in another Unicode
   * form (macOS writes names decomposed) and, on a disk that ignores case, its one variant in another case —
   * the same file there. On a case-sensitive disk `PLAN.md` beside `plan.md` is another file. Null when
   * there is none, or several variants and none exact.
   */
  atPath(path: string, foldCase: boolean): string | null {
    const list = this.byPath.get(fold(stripMd(path)));
    if (!list) return null;
    const exact = list.find((c) => c === path);
    if (exact) return exact;
    const sameForm = list.filter((c) => c.normalize('NFC') === path.normalize('NFC'));
    if (sameForm.length === 1) return sameForm[0];
    return foldCase && list.length === 1 ? list[0] : null;
  }

  /**
   * Called after every change with the changed note's path and the keys whose candidate lists changed (see
   * resolveWithKeys): a link none of whose keys is among them resolves as before. Returns the unsubscribe.
   */
  watch(listener: (path: string, keys: readonly string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Registers or replaces a note. */
  upsert(path: string, info: ResolvableNote): void {
    const old = this.detach(path);
    const aliasKeys = [...new Set((info.aliases ?? []).map((a) => fold(a.trim())).filter((a) => a !== ''))];
    const title = typeof info.title === 'string' ? info.title.trim() : '';
    const entry: Entry = {
      info: { id: info.id ?? null, aliases: [...(info.aliases ?? [])], title: info.title ?? null, ledgerId: info.ledgerId ?? null },
      pathKey: fold(stripMd(path)),
      baseKey: fold(basename(stripMd(path))),
      aliasKeys,
      idKey: isUuid(info.id) ? info.id.toLowerCase() : null,
      titleKey: title === '' ? null : fold(title),
      ledgerKeys: ledgerKeysOf(info.ledgerId),
    };
    this.notes.set(path, entry);
    add(this.byPath, entry.pathKey, path);
    add(this.byBasename, entry.baseKey, path);
    for (const k of aliasKeys) add(this.byAlias, k, path);
    if (entry.idKey) add(this.byId, entry.idKey, path);
    if (entry.titleKey) add(this.byTitle, entry.titleKey, path);
    for (const k of entry.ledgerKeys) add(this.byLedger, k, path);
    // A list that loses the path and gets it back holds what it held: only keys the note gained or lost count.
    if (this.listeners.size > 0) this.emit(path, changedKeys(old, entry));
  }

  remove(path: string): void {
    const old = this.detach(path);
    if (old && this.listeners.size > 0) this.emit(path, changedKeys(old, null));
  }

  /** Moves a note, keeping its id/aliases/title. Unknown `from` is a no-op. */
  rename(from: string, to: string): void {
    const entry = this.notes.get(from);
    if (!entry || from === to) return;
    this.remove(from);
    this.upsert(to, entry.info);
  }

  private detach(path: string): Entry | null {
    const entry = this.notes.get(path);
    if (!entry) return null;
    this.notes.delete(path);
    drop(this.byPath, entry.pathKey, path);
    drop(this.byBasename, entry.baseKey, path);
    for (const k of entry.aliasKeys) drop(this.byAlias, k, path);
    if (entry.idKey) drop(this.byId, entry.idKey, path);
    if (entry.titleKey) drop(this.byTitle, entry.titleKey, path);
    for (const k of entry.ledgerKeys) drop(this.byLedger, k, path);
    return entry;
  }

  private emit(path: string, keys: readonly string[]): void {
    for (const l of this.listeners) l(path, keys);
  }

  resolve(target: string, fromPath: string): string | null {
    return this.lookup(target, fromPath, null);
  }

  /**
   * Every note whose `ledger_id` a ledger reference names, sorted: for a full ID the notes holding it (more
   * than one is a duplicate), for a short ID every `E007-*`. Empty for text that is not an ID.
   */
  ledgerCandidates(ref: string): readonly string[] {
    const k = ledgerRefKey(ref);
    return (k && this.byLedger.get(k)) || [];
  }

  /**
   * resolve() and every key it may read, from whichever map (path, basename, alias, id, title): the answer
   * can change only when one of these keys' candidate lists does (watch). An empty target is the linking
   * note itself and reads none. `local`: the answer may differ for a note in another folder (a target with
   * folders or `./`, or a step that chose among several notes by folder); otherwise it holds for every
   * linking note while the keys' lists stay as they are.
   */
  resolveWithKeys(target: string, fromPath: string): Resolution {
    const trace: Resolution = { path: null, keys: [], local: false };
    trace.path = this.lookup(target, fromPath, trace);
    return trace;
  }

  /** The resolution steps; with `trace`, every step's key is collected, past the step that answers. */
  private lookup(target: string, fromPath: string, trace: Resolution | null): string | null {
    let t = normalTarget(target);
    if (t === '') return this.notes.has(fromPath) ? fromPath : null;
    const keys = trace?.keys ?? null;
    let hit: string | null = null;
    const fromFolder = folderOf(fromPath);
    const explicitlyRelative = t.startsWith('./') || t.startsWith('../');
    let pathKey: string | null = null;
    if (!explicitlyRelative) {
      if (t.charCodeAt(0) === 47) t = t.replace(/^\/+/, ''); // `[[/folder/note]]` is vault-absolute in Obsidian
      const p = stripMd(t);
      pathKey = fold(p);
      if (keys) keys.push(pathKey);
      hit = this.byExactPath(p, pathKey);
      if (hit && !keys) return hit;
    }
    if (trace && (explicitlyRelative || t.indexOf('/') !== -1)) trace.local = true;
    // A bare name relative to the source folder is the basename step's same-folder preference.
    if (explicitlyRelative || (fromFolder !== '' && t.indexOf('/') !== -1)) {
      const joined = joinRelative(fromFolder, t);
      if (joined !== null) {
        const p = stripMd(joined);
        const k = fold(p);
        if (keys) addKey(keys, k);
        hit ??= this.byExactPath(p, k);
        if (hit && !keys) return hit;
      }
    }
    const clean = stripMd(explicitlyRelative ? t.replace(/^(?:\.\.?\/)+/, '') : t);
    if (clean === '') return hit;
    // Not explicitly relative, `clean` is the text the path step folded.
    const key = pathKey ?? fold(clean);
    const slash = key.lastIndexOf('/');
    const base = slash === -1 ? key : key.slice(slash + 1);
    if (keys) {
      addKey(keys, key);
      addKey(keys, base);
    }
    if (!hit) {
      const named = this.byBasename.get(base);
      if (named) hit = pick(slash === -1 ? named : named.filter((p) => endsWithPath(fold(stripMd(p)), key)), fromFolder, trace);
      if (hit && !keys) return hit;
    }
    const ledgerKey = ledgerRefKey(t);
    if (ledgerKey) {
      if (keys) addKey(keys, ledgerKey);
      const held = this.byLedger.get(ledgerKey);
      // A short ID names an entry only while it is unique; an ambiguous one stays unresolved (doctor lists it).
      if (!hit && held && (held.length === 1 || ledgerKey.includes('-'))) hit = pick(held, fromFolder, trace);
      if (hit && !keys) return hit;
    }
    const full = t === clean ? key : fold(t);
    const uuid = isUuid(t) ? t.toLowerCase() : null;
    if (keys) {
      addKey(keys, full);
      if (uuid) addKey(keys, uuid);
    }
    return (
      hit ??
      pick(this.byAlias.get(full) ?? this.byAlias.get(key), fromFolder, trace) ??
      (uuid ? pick(this.byId.get(uuid), fromFolder, trace) : null) ??
      pick(this.byTitle.get(full) ?? this.byTitle.get(key), fromFolder, trace)
    );
  }

  /** `p` is a vault path without `.md`, `key` its fold; the exact spelling wins over other case variants. */
  private byExactPath(p: string, key: string): string | null {
    const list = this.byPath.get(key);
    if (!list) return null;
    if (list.length === 1) return list[0];
    return list.find((c) => c.length === p.length + 3 && c.startsWith(p)) ?? list[0];
  }
}

function addKey(keys: string[], k: string): void {
  if (!keys.includes(k)) keys.push(k);
}

function normalTarget(target: string): string {
  const t = target.trim();
  return t.indexOf('\\') !== -1 ? t.replace(/\\/g, '/') : t;
}

/** Per map, the keys one entry has and the other lacks (all of them when one side is null). */
function changedKeys(a: Entry | null, b: Entry | null): string[] {
  const out: string[] = [];
  const diff = (x: readonly (string | null)[], y: readonly (string | null)[]): void => {
    for (const k of x) if (k !== null && !y.includes(k)) out.push(k);
    for (const k of y) if (k !== null && !x.includes(k)) out.push(k);
  };
  diff(a ? [a.pathKey] : [], b ? [b.pathKey] : []);
  diff(a ? [a.baseKey] : [], b ? [b.baseKey] : []);
  diff(a?.aliasKeys ?? [], b?.aliasKeys ?? []);
  diff(a ? [a.idKey] : [], b ? [b.idKey] : []);
  diff(a ? [a.titleKey] : [], b ? [b.titleKey] : []);
  diff(a?.ledgerKeys ?? [], b?.ledgerKeys ?? []);
  return out;
}

/** The resolver key of a ledger reference (`E007-k3xq` → `\0id:e007-k3xq`), or null when `ref` is no ID. */
function ledgerRefKey(ref: string): string | null {
  const canonical = ledgerRefOfTarget(ref);
  return canonical ? `\0id:${canonical.toLowerCase()}` : null;
}

/** A note's ID keys: its full ID and its short form; none for a missing or malformed ID. */
function ledgerKeysOf(id: string | null | undefined): string[] {
  if (typeof id !== 'string') return [];
  const full = ledgerRefKey(id);
  if (!full || !full.includes('-')) return [];
  return [full, ledgerRefKey(shortLedgerId(id.trim()))!];
}

/** Case- and Unicode-form-insensitive key (macOS stores names decomposed, others composed). */
export function fold(s: string): string {
  return s.normalize('NFC').toLowerCase();
}

function stripMd(p: string): string {
  return p.length > 3 && p.charCodeAt(p.length - 3) === 46 && p.slice(-2).toLowerCase() === 'md' ? p.slice(0, -3) : p;
}

function basename(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

function endsWithPath(path: string, suffix: string): boolean {
  return path === suffix || path.endsWith(`/${suffix}`);
}

/** `folder` + relative `target`, resolving `.` and `..`; null when it climbs above the vault root. */
function joinRelative(folder: string, target: string): string | null {
  const parts = folder === '' ? [] : folder.split('/');
  for (const seg of target.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.length === 0 ? null : parts.join('/');
}

/** Shortest path first, then code-unit order: the deterministic tie-break. */
function compare(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

function add(map: Map<string, string[]>, key: string, path: string): void {
  const list = map.get(key);
  if (!list) {
    map.set(key, [path]);
    return;
  }
  let i = list.length;
  while (i > 0 && compare(list[i - 1], path) > 0) i--;
  list.splice(i, 0, path);
}

function drop(map: Map<string, string[]>, key: string, path: string): void {
  const list = map.get(key);
  if (!list) return;
  const i = list.indexOf(path);
  if (i !== -1) list.splice(i, 1);
  if (list.length === 0) map.delete(key);
}

/** Among candidates (sorted by `compare`), prefer one in the linking note's folder. */
function pick(candidates: readonly string[] | undefined, fromFolder: string | null, trace: Resolution | null): string | null {
  if (!candidates || candidates.length === 0) return null;
  if (candidates.length === 1 || fromFolder === null) return candidates[0];
  if (trace) trace.local = true;
  return candidates.find((p) => folderOf(p) === fromFolder) ?? candidates[0];
}
