/**
 * Turns a BEIR corpus into a vault: one note per document. File names come from `_id` (titles
 * repeat and may hold any character); ids are derived deterministically so runs are comparable.
 */
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { contentHash } from '../../shared/model/hash';
import type { BeirDoc } from './beir';

/** Where each corpus document went. */
export interface CorpusMap {
  byPath: Map<string, string>;
  byNoteId: Map<string, string>;
  docs: number;
}

const MAX_STEM = 80;

/**
 * Safe, case-insensitively unique file name for a corpus id: lower-case `[a-z0-9-]` slug,
 * suffixed with `-2`, `-3`, … on collision. `taken` holds lower-cased names already used.
 */
export function noteFileName(corpusId: string, taken: Set<string>): string {
  let stem = corpusId
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_STEM)
    .replace(/-+$/, '');
  if (stem === '') stem = 'doc';
  let name = `${stem}.md`;
  for (let n = 2; taken.has(name); n++) name = `${stem}-${n}.md`;
  taken.add(name);
  return name;
}

/** A UUID-shaped (v4 layout) id that depends only on the dataset and corpus id. */
export function deterministicNoteId(dataset: string, corpusId: string): string {
  const key = `${dataset}\u0000${corpusId}`;
  const hex = (contentHash(`a:${key}`) + contentHash(`b:${key}`)).split('');
  hex[12] = '4';
  hex[16] = '89ab'[parseInt(hex[16], 16) & 3];
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** Note text: corpus metadata as frontmatter (plus `id` and `title`), the document text as body. */
export function renderCorpusNote(doc: BeirDoc, noteId: string): string {
  const fm: Record<string, unknown> = { ...doc.metadata, id: noteId };
  if (doc.title.trim() !== '') fm.title = doc.title;
  else delete fm.title;
  return `---\n${stringify(fm, { lineWidth: 0 })}---\n${doc.text}\n`;
}

/** mtime of every corpus file (s): a day before the eval's fixed "now" (headless-engine.ts EVAL_NOW_MS). */
export const CORPUS_MTIME_S = (Date.UTC(2026, 10, 1) - 86_400_000) / 1000;

/** Writes every document of `docs` under `root/folder` (created as needed), a bounded number at a time. */
export async function writeCorpusVault(
  docs: AsyncIterable<BeirDoc>,
  root: string,
  dataset: string,
  folder = 'corpus',
): Promise<CorpusMap> {
  await mkdir(join(root, folder), { recursive: true });
  const taken = new Set<string>();
  const map: CorpusMap = { byPath: new Map(), byNoteId: new Map(), docs: 0 };
  let pending: Promise<void>[] = [];
  for await (const doc of docs) {
    const path = `${folder}/${noteFileName(doc._id, taken)}`;
    const noteId = deterministicNoteId(dataset, doc._id);
    map.byPath.set(path, doc._id);
    map.byNoteId.set(noteId, doc._id);
    map.docs++;
    const abs = join(root, path);
    // One fixed mtime: files written concurrently would otherwise get a different recency order every run.
    pending.push(writeFile(abs, renderCorpusNote(doc, noteId), 'utf8').then(() => utimes(abs, CORPUS_MTIME_S, CORPUS_MTIME_S)));
    if (pending.length >= 64) {
      await Promise.all(pending);
      pending = [];
    }
  }
  await Promise.all(pending);
  return map;
}

/** Corpus id of a search hit: by note id first, by path when the engine assigned another id. */
export function corpusIdOf(map: CorpusMap, hit: { id: string; path: string }): string | undefined {
  return map.byNoteId.get(hit.id) ?? map.byPath.get(hit.path);
}
