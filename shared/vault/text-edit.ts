import { LithosError } from '../errors';
import { contentHash } from '../model/hash';
import type { NoteWriterHost } from './note-writer';

// ignoreBOM keeps a leading byte-order mark in the text (the default drops it): the edit is then written back with it.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const BOM = '\uFEFF';

export interface TextEditResult {
  path: string;
  changed: boolean;
  /** Content hashes before and after (the note's `version`); equal when nothing changed. */
  previous_version: string | null;
  version: string | null;
}

/**
 * The engine's own edit of a note's whole text (managed callout blocks): `edit` gets the current text and
 * returns the new text, or the same string for no change. Unlike writeNote, the frontmatter is not
 * re-rendered and `updated_at`/`contributors` are not touched: bytes outside what `edit` changes stay as
 * they were. Where the host can read-modify-write in one step (Obsidian's Vault.process) the edit is applied
 * to the text as it is at that moment; elsewhere the file is re-read just before writing and the edit is
 * dropped if it changed meanwhile (the caller's next sync redoes it). A note that is not valid UTF-8 is left alone.
 * A byte-order mark at the start is the file's, not the text's: `edit` gets the text without it (and `bom`, whether
 * the file has one), and the file keeps it.
 */
export async function editNoteText(host: NoteWriterHost, path: string, editText: (text: string, bom: boolean) => string): Promise<TextEditResult> {
  const edit = (t: string): string => {
    const bom = t.startsWith(BOM);
    const text = bom ? t.slice(1) : t;
    const next = editText(text, bom);
    return next === text ? t : bom ? BOM + next : next;
  };
  const none: TextEditResult = { path, changed: false, previous_version: null, version: null };
  const read = async (): Promise<string | null> => {
    if (!(await host.vault.stat(path))) return null;
    try {
      return utf8.decode(await host.vault.readBytes(path));
    } catch (err) {
      if (err instanceof LithosError) throw err;
      return null; // not UTF-8: never rewrite bytes we cannot read
    }
  };
  const text = await read();
  if (text === null) return none;
  const next = edit(text);
  if (next === text) return { ...none, previous_version: hashOf(text), version: hashOf(text) };
  if (host.vault.processText) {
    // The host applies the edit to whatever the note holds at the moment of writing (a person may be typing).
    const r = await host.vault.processText(path, edit);
    if (!r || r.after === r.before) return { ...none, previous_version: r ? hashOf(r.before) : null, version: r ? hashOf(r.before) : null };
    await host.resync(path);
    return { path, changed: true, previous_version: hashOf(r.before), version: hashOf(r.after) };
  }
  if ((await read()) !== text) return { ...none, previous_version: hashOf(text) };
  await host.vault.write(path, next);
  await host.resync(path);
  return { path, changed: true, previous_version: hashOf(text), version: hashOf(next) };
}

/** The note's version as parseNote computes it (BOM removed). */
function hashOf(text: string): string {
  return contentHash(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
}
