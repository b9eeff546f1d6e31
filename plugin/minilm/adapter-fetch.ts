import type { DataAdapter } from 'obsidian';
import type { FetchLike } from '../../shared/index/embedders/transformers-embedder';

export type ReadAdapter = Pick<DataAdapter, 'exists' | 'readBinary'>;

/**
 * The fetch transformers.js reads model files with: a vault-relative path (`<folder>/<modelId>/<file>`,
 * as the library joins env.localModelPath and the id) is answered from the vault adapter, a missing file
 * with a 404 (the library's "not found locally"). Anything with a scheme is refused, so embedding never
 * touches the network even if a setting slipped.
 */
export function adapterFetch(adapter: ReadAdapter): FetchLike {
  return async (input) => {
    const raw = String(input);
    if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) throw new Error(`Lithos reads the model from the vault only; refused to fetch ${raw}.`);
    const path = raw.replace(/^(\.\/|\/)+/, '');
    if (!(await adapter.exists(path))) return new Response(`${path} not found in the vault`, { status: 404, statusText: 'Not Found' });
    const bytes = await adapter.readBinary(path);
    return new Response(bytes, { status: 200, headers: { 'content-length': String(bytes.byteLength) } });
  };
}
