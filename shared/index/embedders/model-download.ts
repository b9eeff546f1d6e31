/**
 * Downloads a transformers.js model folder from the Hugging Face hub into `<root>/<modelId>/…`, the
 * layout the loader reads with remote loading off (transformers-load.ts). Host-free: the host hands
 * over a fetch with streamed bodies and a file port (the vault adapter in Obsidian).
 *
 * Each file streams into `<file>.part` and is renamed to its final name only once every byte is there,
 * so a final name never holds half a file. A `.part` left by a failure or a cancel is resumed with a
 * Range request; a file already under its final name is skipped.
 *
 * With `expected` sizes and sha256 digests (the hub's listing, model-manifest.ts) every file is checked
 * before it takes its final name, and a file already there is checked before it is trusted: a file that
 * fails is deleted (never left under its final name as if good) and the download stops with
 * `download_failed` / reason `checksum`; the files already verified stay.
 */
import { LithosError } from '../../errors';

export const HF_HOST = 'https://huggingface.co';
const PART = '.part';
/** Received bytes are written in pieces of this size: few adapter calls, bounded memory. */
const FLUSH_BYTES = 8 * 1024 * 1024;

/** File access under the model root, vault-relative '/'-separated paths. */
export interface ModelFilePort {
  /** Size in bytes, null when there is no such file. */
  size(path: string): Promise<number | null>;
  /** Appends to the file, creating it and its folders when missing. */
  append(path: string, bytes: Uint8Array): Promise<void>;
  /** Moves a complete file to its final name, replacing whatever is there. */
  replace(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
  /** Lower-case hex sha256 of a file's bytes; a port without it gets size checks only. */
  sha256?(path: string): Promise<string>;
}

/** What a file must be, from the hub's listing: its size, and its sha256 when the hub stores it in LFS. */
export interface ExpectedFile {
  size: number;
  sha256?: string;
}

interface StreamReader {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
  cancel?(): Promise<void>;
}

/** The part of a WHATWG Response the downloader reads. */
export interface StreamedResponse {
  status: number;
  headers: { get(name: string): string | null };
  body: { getReader(): StreamReader } | null;
}

export type StreamingFetch = (url: string, init: { headers: Record<string, string>; signal?: AbortSignal }) => Promise<StreamedResponse>;

export interface DownloadProgress {
  /** The file being fetched, relative to the model folder. */
  file: string;
  fileLoaded: number;
  /** From content-length; null when the server did not say. */
  fileTotal: number | null;
  /** Bytes in place over all files (skipped and resumed ones included). */
  loaded: number;
  /** Sum of every file's size once all are known, else null. */
  total: number | null;
  filesDone: number;
  files: number;
}

export interface ModelDownloadRequest {
  /** Hub id, `owner/name`. */
  modelId: string;
  /** Paths inside the model folder (see transformersModelFiles). */
  files: string[];
  /** Vault-relative folder the model goes under: `<root>/<modelId>/`. */
  root: string;
  fetch: StreamingFetch;
  port: ModelFilePort;
  onProgress?: (p: DownloadProgress) => void;
  signal?: AbortSignal;
  host?: string;
  revision?: string;
  /** Files fetched from their own URL instead of the hub (file → absolute URL), e.g. a runtime's wasm. */
  sources?: Record<string, string>;
  /** Per file: the size and digest it must have (see the header). Files not listed are taken as they come. */
  expected?: Record<string, ExpectedFile>;
}

export interface DownloadedFile {
  file: string;
  bytes: number;
  /** Already complete under its final name: not fetched. */
  skipped: boolean;
  /** How the file was checked: its sha256, its size only, or not at all (nothing expected of it). */
  verified: 'sha256' | 'size' | null;
}

export interface ModelDownloadResult {
  folder: string;
  files: DownloadedFile[];
  bytes: number;
}

/** What the model folder holds right now: complete files only, `.part` files do not count. */
export interface ModelFolderStatus {
  folder: string;
  complete: boolean;
  bytes: number;
  missing: string[];
}

const MODEL_ID = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;

export function modelDir(root: string, modelId: string): string {
  if (!MODEL_ID.test(modelId) || modelId.includes('..')) {
    throw new LithosError('invalid_argument', `"${modelId}" is not a Hugging Face model id (owner/name).`, { modelId });
  }
  const trimmed = root.replace(/\\/g, '/').replace(/\/+$/, '');
  return trimmed === '' ? modelId : `${trimmed}/${modelId}`;
}

export async function modelFolderStatus(port: ModelFilePort, root: string, modelId: string, files: string[]): Promise<ModelFolderStatus> {
  const folder = modelDir(root, modelId);
  let bytes = 0;
  const missing: string[] = [];
  for (const file of files) {
    const size = await disk(`${folder}/${file}`, () => port.size(`${folder}/${file}`));
    if (size === null) missing.push(file);
    else bytes += size;
  }
  return { folder, complete: missing.length === 0, bytes, missing };
}

function failed(reason: 'http' | 'network' | 'disk' | 'truncated' | 'checksum', message: string, data: Record<string, unknown>): LithosError {
  return new LithosError('download_failed', message, { reason, ...data });
}

function hostOf(url: string): string {
  return url.replace(/^(\w+:\/\/[^/]+).*$/, '$1');
}

function causeOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Runs a file-port call; its failures are disk errors naming the path. */
async function disk<T>(path: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw failed('disk', `Could not write the model file ${path}: ${causeOf(err)}`, { path, cause: causeOf(err) });
  }
}

function cancelled(file: string): LithosError {
  return new LithosError('cancelled', `Download cancelled during ${file}; the next download resumes where it stopped.`, { file });
}

function httpError(status: number, url: string, file: string, fromHub: boolean): LithosError {
  const why =
    status === 404
      ? `the file does not exist there${fromHub ? ' (check the model id)' : ''}`
      : status === 401 || status === 403
        ? 'access was refused (the model may be gated or private)'
        : status >= 500
          ? 'the server failed; try again later'
          : 'unexpected answer';
  return failed('http', `Downloading ${file} failed: HTTP ${status} from ${url}: ${why}.`, { status, url, file });
}

function contentLength(res: StreamedResponse): number | null {
  const n = Number(res.headers.get('content-length'));
  return res.headers.get('content-length') !== null && Number.isInteger(n) && n >= 0 ? n : null;
}

/** Start offset and full size from `content-range: bytes <start>-<end>/<size>`. */
function contentRange(res: StreamedResponse): { start: number; size: number | null } | null {
  const m = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(res.headers.get('content-range') ?? '');
  return m ? { start: Number(m[1]), size: m[2] === '*' ? null : Number(m[2]) } : null;
}

class Download {
  private readonly sizes = new Map<string, number | null>();
  private readonly done = new Map<string, number>();
  private filesDone = 0;

  constructor(
    private readonly req: ModelDownloadRequest,
    private readonly folder: string,
  ) {
    for (const f of req.files) this.sizes.set(f, req.expected?.[f]?.size ?? null);
  }

  async run(): Promise<ModelDownloadResult> {
    const out: DownloadedFile[] = [];
    for (const file of this.req.files) {
      this.checkCancel(file);
      const path = `${this.folder}/${file}`;
      const have = await disk(path, () => this.req.port.size(path));
      if (have !== null) {
        const verified = await this.check(file, path, have);
        if (verified !== false) {
          this.finish(file, have);
          out.push({ file, bytes: have, skipped: true, verified });
          continue;
        }
        // A complete-looking file that is not the expected one is not kept: fetch it anew.
        await disk(path, () => this.req.port.remove(path));
      }
      const { bytes, verified } = await this.fetchFile(file, path);
      out.push({ file, bytes, skipped: false, verified });
    }
    return { folder: this.folder, files: out, bytes: out.reduce((s, f) => s + f.bytes, 0) };
  }

  /** Whether the file at `path` is what `expected` says: the kind of check that passed, false when one failed. */
  private async check(file: string, path: string, size: number): Promise<DownloadedFile['verified'] | false> {
    const want = this.req.expected?.[file];
    if (!want) return null;
    if (size !== want.size) return false;
    if (want.sha256 === undefined || !this.req.port.sha256) return 'size';
    const got = await disk(path, () => this.req.port.sha256!(path));
    return got.toLowerCase() === want.sha256.toLowerCase() ? 'sha256' : false;
  }

  private checkCancel(file: string): void {
    if (this.req.signal?.aborted) throw cancelled(file);
  }

  private finish(file: string, bytes: number): void {
    this.sizes.set(file, bytes);
    this.done.set(file, bytes);
    this.filesDone++;
    this.emit(file, bytes, bytes);
  }

  private emit(file: string, fileLoaded: number, fileTotal: number | null): void {
    if (!this.req.onProgress) return;
    let loaded = fileLoaded;
    for (const [f, n] of this.done) if (f !== file) loaded += n;
    const known = [...this.sizes.values()];
    const total = known.every((n) => n !== null) ? known.reduce<number>((s, n) => s + (n ?? 0), 0) : null;
    this.req.onProgress({ file, fileLoaded, fileTotal, loaded, total, filesDone: this.filesDone, files: this.req.files.length });
  }

  private async request(file: string, from: number): Promise<{ res: StreamedResponse; url: string }> {
    const { host: hub = HF_HOST, revision = 'main' } = this.req;
    const url = this.req.sources?.[file] ?? `${hub}/${this.req.modelId}/resolve/${revision}/${file}`;
    const host = hostOf(url);
    const headers: Record<string, string> = from > 0 ? { range: `bytes=${from}-` } : {};
    try {
      return { res: await this.req.fetch(url, { headers, signal: this.req.signal }), url };
    } catch (err) {
      this.checkCancel(file);
      throw failed('network', `Downloading ${file} failed: could not reach ${host} (${causeOf(err)}).`, { url, file, cause: causeOf(err) });
    }
  }

  /** Streams one file into `<path>.part` (resuming what is there), checks it and renames it into place. */
  private async fetchFile(file: string, path: string): Promise<{ bytes: number; verified: DownloadedFile['verified'] }> {
    const part = path + PART;
    let start = (await disk(part, () => this.req.port.size(part))) ?? 0;
    const want = this.req.expected?.[file];
    if (want && start >= want.size) {
      // All there (a run stopped before the rename): placed if it checks out. Else fetched from the start,
      // since a Range request past the end would only fail (416).
      const verified = start === want.size ? await this.check(file, part, start) : false;
      if (verified !== false) {
        await disk(path, () => this.req.port.replace(part, path));
        this.finish(file, start);
        return { bytes: start, verified };
      }
      await disk(part, () => this.req.port.remove(part));
      start = 0;
    }
    let { res, url } = await this.request(file, start);
    if (start > 0 && (res.status === 416 || (res.status === 206 && contentRange(res)?.start !== start))) {
      // The part does not line up with the file the server has now: start over.
      await disk(part, () => this.req.port.remove(part));
      start = 0;
      ({ res, url } = await this.request(file, 0));
    }
    if (res.status !== 200 && res.status !== 206) throw httpError(res.status, url, file, this.req.sources?.[file] === undefined);
    if (res.status === 200 && start > 0) {
      // The server ignored the Range header and sends the whole file.
      await disk(part, () => this.req.port.remove(part));
      start = 0;
    }
    const length = contentLength(res);
    const total = res.status === 206 ? (contentRange(res)?.size ?? (length === null ? null : start + length)) : length;
    this.sizes.set(file, total ?? want?.size ?? null);
    const written = await this.stream(file, part, res, start, total);
    if (total !== null && written !== total) {
      if (written > total) await disk(part, () => this.req.port.remove(part));
      throw failed('truncated', `Downloading ${file} stopped at ${written} of ${total} bytes; the next download resumes it.`, { url, file, written, total });
    }
    const verified = await this.check(file, part, written);
    if (verified === false) await this.rejectPart(file, part, url, written);
    await disk(path, () => this.req.port.replace(part, path));
    this.finish(file, written);
    return { bytes: written, verified: verified as DownloadedFile['verified'] };
  }

  /** A finished part that is not the expected file: deleted (a resume must not build on it), and said so. */
  private async rejectPart(file: string, part: string, url: string, written: number): Promise<never> {
    const want = this.req.expected![file];
    const got = written === want.size && this.req.port.sha256 ? await disk(part, () => this.req.port.sha256!(part)) : null;
    await disk(part, () => this.req.port.remove(part));
    const what = got === null ? `is ${written} bytes, expected ${want.size}` : `has sha256 ${got}, expected ${want.sha256}`;
    const kept = this.filesDone > 0 ? ` The ${this.filesDone} file${this.filesDone > 1 ? 's' : ''} already verified ${this.filesDone > 1 ? 'are' : 'is'} kept.` : '';
    throw failed(
      'checksum',
      `Downloaded ${file} ${what}: the file is corrupt or not the one the hub lists, so it was deleted.${kept} Run the download again to fetch it anew; if it fails again, the server (${hostOf(url)}) serves a different file.`,
      { url, file, bytes: written, expected: want, ...(got === null ? {} : { sha256: got }) },
    );
  }

  private async stream(file: string, part: string, res: StreamedResponse, start: number, total: number | null): Promise<number> {
    if (!res.body) throw failed('network', `Downloading ${file} failed: the response has no body.`, { file });
    const reader = res.body.getReader();
    let received = start;
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    const flush = async (): Promise<void> => {
      if (pendingBytes === 0) return;
      const chunk = join(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      await disk(part, () => this.req.port.append(part, chunk));
    };
    this.emit(file, received, total);
    for (;;) {
      let step: { done: boolean; value?: Uint8Array };
      try {
        this.checkCancel(file);
        step = await reader.read();
      } catch (err) {
        await reader.cancel?.().catch(() => undefined);
        // What arrived in full is kept, so a resume continues from it.
        await flush();
        this.checkCancel(file);
        if (err instanceof LithosError) throw err;
        throw failed('network', `Downloading ${file} failed after ${received} bytes: ${causeOf(err)}.`, { file, received, cause: causeOf(err) });
      }
      if (step.done) break;
      if (!step.value || step.value.byteLength === 0) continue;
      pending.push(step.value);
      pendingBytes += step.value.byteLength;
      received += step.value.byteLength;
      if (pendingBytes >= FLUSH_BYTES) await flush();
      this.emit(file, received, total);
    }
    await flush();
    return received;
  }
}

function join(parts: Uint8Array[], bytes: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(bytes);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/**
 * Downloads the files that are not complete yet. Throws `download_failed` (data.reason: http, network,
 * disk, truncated, checksum), `cancelled` when the signal fires, `invalid_argument` for a bad model id.
 */
export async function downloadModel(req: ModelDownloadRequest): Promise<ModelDownloadResult> {
  return new Download(req, modelDir(req.root, req.modelId)).run();
}
