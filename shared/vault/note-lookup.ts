/** Finding a live note by what callers have: an id, a path, a title, alias or link text. */
import type { LinkResolver } from '../model/resolve';
import type { LiveNote } from './note-indexer';

interface LiveNotes {
  byId: ReadonlyMap<string, LiveNote>;
  byPath: ReadonlyMap<string, LiveNote>;
}

/** By node id, vault path, else title, alias or link text resolved as a link at the vault root would be. */
export function lookupNote(notes: LiveNotes, resolver: LinkResolver, ref: string): LiveNote | null {
  const hit = notes.byId.get(ref) ?? notes.byPath.get(ref);
  if (hit) return hit;
  const path = resolver.resolve(ref, '');
  return path ? (notes.byPath.get(path) ?? null) : null;
}

/** At a vault path: exactly, in another Unicode form, or in another case where the disk ignores case (LinkResolver.atPath). */
export function liveNoteAtPath(notes: LiveNotes, resolver: LinkResolver, path: string, foldCase: boolean): LiveNote | null {
  const exact = notes.byPath.get(path);
  if (exact) return exact;
  const variant = resolver.atPath(path, foldCase);
  return variant === null ? null : (notes.byPath.get(variant) ?? null);
}
