import type { StreamedResponse, StreamingFetch } from '../shared/index/embedders/model-download';

/** The part of Obsidian's requestUrl the download falls back to (no progress, no abort, but no CORS either). */
export type RequestUrlLike = (req: { url: string; headers?: Record<string, string>; throw?: boolean }) => Promise<{
  status: number;
  headers: Record<string, string>;
  arrayBuffer: ArrayBuffer;
}>;

/**
 * The model download's fetch: the page's fetch() first, because its streamed body gives byte progress; when
 * that fails as a network error (a TypeError — in Obsidian typically the page's cross-origin rules), Obsidian's
 * requestUrl, which runs outside the page and answers with the whole body at once. Once it has been needed
 * it is used for the rest of the session, so every file does not pay a failed attempt first. A cancelled
 * download stays cancelled: an abort is never retried.
 */
export function fetchWithFallback(fetchFn: StreamingFetch | null, requestUrl: RequestUrlLike | null): StreamingFetch | null {
  if (!fetchFn && !requestUrl) return null;
  let useRequestUrl = !fetchFn;
  const viaRequestUrl = async (url: string, headers: Record<string, string>, signal?: AbortSignal): Promise<StreamedResponse> => {
    const r = await requestUrl!({ url, headers, throw: false });
    // requestUrl cannot be cancelled: a cancel that came meanwhile is honoured before any byte is written.
    if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new DOMException('The download was cancelled.', 'AbortError');
    const lower = new Map(Object.entries(r.headers).map(([k, v]) => [k.toLowerCase(), v]));
    const bytes = new Uint8Array(r.arrayBuffer);
    let sent = false;
    return {
      status: r.status,
      headers: { get: (name) => lower.get(name.toLowerCase()) ?? null },
      body: {
        getReader: () => ({
          read: async () => {
            if (sent || bytes.byteLength === 0) return { done: true };
            sent = true;
            return { done: false, value: bytes };
          },
        }),
      },
    };
  };
  return async (url, init) => {
    if (useRequestUrl || !fetchFn) return viaRequestUrl(url, init.headers, init.signal);
    try {
      return await fetchFn(url, init);
    } catch (err) {
      if (!requestUrl || init.signal?.aborted || !(err instanceof TypeError)) throw err;
      useRequestUrl = true;
      return viaRequestUrl(url, init.headers, init.signal);
    }
  };
}

/** The app's fetch (streamed bodies give download progress; requestUrl has none), or null where there is none. */
export function streamingFetch(): StreamingFetch | null {
  if (typeof fetch !== 'function') return null;
  return (url, init) => fetch(url, init);
}
