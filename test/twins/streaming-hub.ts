import type { StreamedResponse, StreamingFetch } from '../../shared/index/embedders/model-download';

/**
 * Network twin for the model downloader: serves `<host>/<modelId>/resolve/main/<file>` (and `mirrors`) from memory in
 * chunks of `chunk` bytes through a real ReadableStream, with content-length, Range requests (206 and
 * content-range) and 404s. `dropAfter` cuts a file's stream after that many bytes (a dropped
 * connection); `ignoreRange` answers every request with the whole file (200). Requests are recorded.
 */
export interface StreamingHub {
  fetch: StreamingFetch;
  requests: { url: string; range: string | null }[];
  dropAfter: Map<string, number>;
  ignoreRange: boolean;
  /** Omit content-length (a server that streams without saying how much). */
  noLength: boolean;
  /** Runs before each chunk is handed out: tests abort a download mid-file here. */
  beforeChunk?: (file: string, offset: number) => void;
  /** Other servers' URLs answered from `files` too: URL → key in `files` (a CDN serving a runtime's wasm). */
  mirrors: Record<string, string>;
}

export function streamingHub(modelId: string, files: Record<string, Uint8Array>, chunk = 1000): StreamingHub {
  const hub: StreamingHub = {
    requests: [],
    dropAfter: new Map(),
    ignoreRange: false,
    noLength: false,
    mirrors: {},
    fetch: async (url, init): Promise<StreamedResponse> => {
      const range = init.headers.range ?? null;
      hub.requests.push({ url, range });
      if (init.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
      const prefix = `https://huggingface.co/${modelId}/resolve/main/`;
      const file = url.startsWith(prefix) ? url.slice(prefix.length) : (hub.mirrors[url] ?? '');
      const bytes = files[file];
      if (!bytes) return new Response('Entry not found', { status: 404 });
      const m = /^bytes=(\d+)-$/.exec(range ?? '');
      const start = m && !hub.ignoreRange ? Number(m[1]) : 0;
      if (start > bytes.byteLength) return new Response('', { status: 416 });
      const body = bytes.subarray(start);
      const drop = hub.dropAfter.get(file);
      let at = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          hub.beforeChunk?.(file, start + at);
          if (init.signal?.aborted) return controller.error(new DOMException('The operation was aborted.', 'AbortError'));
          if (drop !== undefined && start + at >= drop) return controller.error(new TypeError('network connection lost'));
          if (at >= body.byteLength) return controller.close();
          const end = Math.min(at + chunk, body.byteLength, drop !== undefined ? Math.max(drop - start, at + 1) : Infinity);
          controller.enqueue(body.slice(at, end));
          at = end;
        },
      });
      const headers: Record<string, string> = hub.noLength ? {} : { 'content-length': String(body.byteLength) };
      if (start > 0) headers['content-range'] = `bytes ${start}-${bytes.byteLength - 1}/${bytes.byteLength}`;
      return new Response(stream, { status: start > 0 ? 206 : 200, headers });
    },
  };
  return hub;
}
