/**
 * What each file of a hub model must be, from the hub's own listing of the same revision:
 * `GET <host>/api/models/<id>/tree/<revision>[/<folder>]` lists every file with its size, and each file kept
 * in Git LFS (the weights, often tokenizer.json) with `lfs.oid`, its sha256. Small files kept in git itself
 * get a size check only. No digest is pinned in the code: the one the hub states for the revision being
 * downloaded is the one to check against (pin a revision to pin the files).
 */
import { LithosError } from '../../errors';
import { HF_HOST, type ExpectedFile, type StreamingFetch, type StreamedResponse } from './model-download';

export interface ManifestRequest {
  modelId: string;
  files: string[];
  fetch: StreamingFetch;
  host?: string;
  revision?: string;
  signal?: AbortSignal;
}

interface TreeEntry {
  type?: unknown;
  path?: unknown;
  size?: unknown;
  lfs?: { oid?: unknown; size?: unknown } | null;
}

const SHA256 = /^[0-9a-f]{64}$/;

function folderOf(file: string): string {
  const i = file.lastIndexOf('/');
  return i < 0 ? '' : file.slice(0, i);
}

async function readText(res: StreamedResponse): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value) text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

function manifestError(message: string, data: Record<string, unknown>): LithosError {
  return new LithosError('download_failed', message, { reason: 'manifest', ...data });
}

/**
 * The expected size (and sha256 where the hub has one) of each requested file the listing names.
 * null when the server has no listing (404: a plain mirror), so the caller can say the files go unverified.
 */
export async function hubManifest(req: ManifestRequest): Promise<Record<string, ExpectedFile> | null> {
  const host = req.host ?? HF_HOST;
  const revision = encodeURIComponent(req.revision ?? 'main');
  const wanted = new Set(req.files);
  const out: Record<string, ExpectedFile> = {};
  for (const folder of [...new Set(req.files.map(folderOf))].sort()) {
    const url = `${host}/api/models/${req.modelId}/tree/${revision}${folder === '' ? '' : `/${folder}`}`;
    let res: StreamedResponse;
    let entries: unknown;
    try {
      res = await req.fetch(url, { headers: { accept: 'application/json' }, signal: req.signal });
      if (res.status === 404) return null;
      if (res.status !== 200) throw manifestError(`The hub's file listing ${url} answered HTTP ${res.status}; without it the files cannot be verified.`, { url, status: res.status });
      entries = JSON.parse(await readText(res));
    } catch (err) {
      if (err instanceof LithosError) throw err;
      const cause = err instanceof Error ? err.message : String(err);
      throw manifestError(`Could not read the hub's file listing ${url}: ${cause}.`, { url, cause });
    }
    if (!Array.isArray(entries)) throw manifestError(`The hub's file listing ${url} is not a list of files.`, { url });
    for (const e of entries as TreeEntry[]) {
      if (e.type !== 'file' || typeof e.path !== 'string' || !wanted.has(e.path)) continue;
      const lfsSize = typeof e.lfs?.size === 'number' ? e.lfs.size : null;
      const size = lfsSize ?? (typeof e.size === 'number' ? e.size : null);
      if (size === null || !Number.isInteger(size) || size < 0) continue;
      const oid = typeof e.lfs?.oid === 'string' ? e.lfs.oid.toLowerCase() : null;
      out[e.path] = oid !== null && SHA256.test(oid) ? { size, sha256: oid } : { size };
    }
  }
  return out;
}
