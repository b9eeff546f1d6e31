/**
 * Network twins for the model loader: a Hugging Face hub that serves model folders from disk
 * (same URL layout, Range requests, 404s), a network that is down, and a fetch that must never
 * be called. Requests are recorded so tests can assert what was (not) fetched.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FetchLike } from '../../../shared/index/embedders/transformers-embedder';

export interface RecordingFetch {
  fetch: FetchLike;
  urls: string[];
}

function rangeHeader(init: unknown): string | null {
  const headers = (init as { headers?: unknown } | undefined)?.headers;
  if (headers instanceof Headers) return headers.get('range');
  return null;
}

/** Serves `<host>/<modelId>/resolve/<rev>/<file>` from `models[modelId]` folders. */
export function fakeHub(models: Record<string, string>): RecordingFetch {
  const urls: string[] = [];
  const fetch: FetchLike = async (input, init) => {
    const url = new URL(String(input));
    urls.push(url.href);
    const match = /^\/(.+?)\/resolve\/[^/]+\/(.+)$/.exec(decodeURIComponent(url.pathname));
    const dir = match ? models[match[1]] : undefined;
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      if (!match || !dir) throw new Error('unknown repo');
      bytes = new Uint8Array(await readFile(join(dir, ...match[2].split('/'))));
    } catch {
      return new Response('Entry not found', { status: 404 });
    }
    if (rangeHeader(init) === 'bytes=0-0') {
      return new Response(bytes.slice(0, 1), {
        status: 206,
        headers: { 'content-range': `bytes 0-0/${bytes.length}`, 'content-length': '1' },
      });
    }
    return new Response(bytes, { status: 200, headers: { 'content-length': String(bytes.length) } });
  };
  return { fetch, urls };
}

/** A network that is down, failing the way Node's fetch does when DNS is unreachable. */
export function unreachableNetwork(): RecordingFetch {
  const urls: string[] = [];
  const fetch: FetchLike = async (input) => {
    urls.push(String(input));
    const cause = Object.assign(new Error('getaddrinfo ENOTFOUND huggingface.co'), { code: 'ENOTFOUND' });
    throw new TypeError('fetch failed', { cause });
  };
  return { fetch, urls };
}

/** For offline tests: any call is recorded and fails loudly. */
export function forbiddenNetwork(): RecordingFetch {
  const urls: string[] = [];
  const fetch: FetchLike = async (input) => {
    urls.push(String(input));
    throw new Error(`network access in an offline test: ${String(input)}`);
  };
  return { fetch, urls };
}
