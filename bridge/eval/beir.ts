/**
 * BEIR dataset layout: corpus.jsonl, queries.jsonl, qrels/test.tsv. Files are streamed line by
 * line so large corpora never sit in memory as one string.
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { LithosError } from '../../shared/errors';

export interface BeirDoc {
  _id: string;
  title: string;
  text: string;
  metadata: Record<string, unknown>;
}

export interface BeirQuery {
  _id: string;
  text: string;
  metadata: Record<string, unknown>;
}

/** query id → (corpus id → grade). */
export type Qrels = Map<string, Map<string, number>>;

export interface DatasetRef {
  /** e.g. `scifact-dev`, or `locomo-turns/conv-26` for a dataset found inside a collection folder. */
  name: string;
  dir: string;
}

async function* lines(file: string): AsyncGenerator<{ line: string; no: number }> {
  const rl = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let no = 0;
  try {
    for await (const line of rl) {
      no++;
      if (line.trim() !== '') yield { line, no };
    }
  } finally {
    rl.close();
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseLine(file: string, line: string, no: number): Record<string, unknown> & { _id: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    throw new LithosError('invalid_argument', `${file}:${no} is not valid JSON.`, { file, line: no, cause: String(err) });
  }
  if (!isRecord(value)) throw new LithosError('invalid_argument', `${file}:${no} is not a JSON object.`, { file, line: no });
  const id = value._id;
  // Ids are sometimes numbers in hand-made datasets; they are compared as strings against the qrels.
  if (typeof id !== 'string' && typeof id !== 'number') {
    throw new LithosError('invalid_argument', `${file}:${no} has no "_id".`, { file, line: no });
  }
  return { ...value, _id: String(id) };
}

/** Titles and texts are strings in BEIR; numbers/booleans are kept as written, anything else dropped. */
function str(v: unknown): string {
  if (typeof v === 'string') return v;
  return typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

export async function* readCorpus(dir: string): AsyncGenerator<BeirDoc> {
  const file = join(dir, 'corpus.jsonl');
  for await (const { line, no } of lines(file)) {
    const r = parseLine(file, line, no);
    yield { _id: r._id, title: str(r.title), text: str(r.text), metadata: isRecord(r.metadata) ? r.metadata : {} };
  }
}

export async function* readQueries(dir: string): AsyncGenerator<BeirQuery> {
  const file = join(dir, 'queries.jsonl');
  for await (const { line, no } of lines(file)) {
    const r = parseLine(file, line, no);
    yield { _id: r._id, text: str(r.text), metadata: isRecord(r.metadata) ? r.metadata : {} };
  }
}

/**
 * Reads `qrels/<split>.tsv` (`query-id \t corpus-id \t score`). The header line is recognised by
 * its non-numeric score column, so files without one load too.
 */
export async function readQrels(dir: string, split = 'test'): Promise<Qrels> {
  const file = join(dir, 'qrels', `${split}.tsv`);
  const qrels: Qrels = new Map();
  for await (const { line, no } of lines(file)) {
    const cols = line.split('\t');
    if (cols.length < 3) throw new LithosError('invalid_argument', `${file}:${no} needs three tab-separated columns.`, { file, line: no });
    const grade = Number(cols[2].trim());
    if (!Number.isFinite(grade) || cols[2].trim() === '') {
      if (no === 1) continue;
      throw new LithosError('invalid_argument', `${file}:${no} has a non-numeric score.`, { file, line: no });
    }
    const q = cols[0].trim();
    let judged = qrels.get(q);
    if (!judged) qrels.set(q, (judged = new Map<string, number>()));
    judged.set(cols[1].trim(), grade);
  }
  return qrels;
}

async function isDataset(dir: string): Promise<boolean> {
  const s = await stat(join(dir, 'corpus.jsonl')).catch(() => null);
  return s !== null && s.isFile();
}

/**
 * Expands CLI arguments into datasets: a folder holding corpus.jsonl is one dataset; otherwise
 * each sub-folder that holds one is a dataset named `<folder>/<sub>` (sorted by name).
 */
export async function resolveDatasets(args: readonly string[]): Promise<DatasetRef[]> {
  const out: DatasetRef[] = [];
  for (const arg of args) {
    const dir = resolve(arg);
    const s = await stat(dir).catch(() => null);
    if (!s || !s.isDirectory()) throw new LithosError('not_found', `Dataset folder "${arg}" does not exist.`, { path: arg });
    if (await isDataset(dir)) {
      out.push({ name: basename(dir), dir });
      continue;
    }
    const subs = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
    let found = 0;
    for (const sub of subs) {
      if (!(await isDataset(join(dir, sub)))) continue;
      out.push({ name: `${basename(dir)}/${sub}`, dir: join(dir, sub) });
      found++;
    }
    if (found === 0) {
      throw new LithosError('invalid_argument', `"${arg}" holds neither corpus.jsonl nor dataset folders that do.`, { path: arg });
    }
  }
  // Two arguments with the same folder name must still report separately.
  const seen = new Map<string, number>();
  for (const d of out) {
    const n = (seen.get(d.name) ?? 0) + 1;
    seen.set(d.name, n);
    if (n > 1) d.name = `${d.name}#${n}`;
  }
  return out;
}
