/** The hub's file listing read as expected sizes and digests, and a server without one told apart from a failing one. */
import { hubManifest } from '../../../shared/index/embedders/model-manifest';
import type { StreamingFetch } from '../../../shared/index/embedders/model-download';
import { failure } from '../../twins/error-code';

const MODEL = 'Xenova/all-MiniLM-L6-v2';
const FILES = ['config.json', 'tokenizer.json', 'onnx/model.onnx'];
const SHA = 'a'.repeat(64);

/** The listings as the hub returns them per folder (LFS files carry lfs.oid = sha256). */
const LISTINGS: Record<string, unknown> = {
  [`https://huggingface.co/api/models/${MODEL}/tree/main`]: [
    { type: 'directory', path: 'onnx', oid: 'x', size: 0 },
    { type: 'file', path: 'config.json', oid: '1f2e', size: 650 },
    { type: 'file', path: 'tokenizer.json', oid: '3c4d', size: 134, lfs: { oid: SHA.replace(/a/g, 'b'), size: 711_396, pointerSize: 134 } },
    { type: 'file', path: 'README.md', oid: '5e6f', size: 99 },
  ],
  [`https://huggingface.co/api/models/${MODEL}/tree/main/onnx`]: [{ type: 'file', path: 'onnx/model.onnx', oid: '7a8b', size: 135, lfs: { oid: SHA.toUpperCase(), size: 90_405_214, pointerSize: 135 } }],
};

function listingFetch(listings: Record<string, unknown>, seen: string[] = []): StreamingFetch {
  return async (url) => {
    seen.push(url);
    return url in listings ? new Response(JSON.stringify(listings[url]), { status: 200 }) : new Response('Not found', { status: 404 });
  };
}

test('sizes for every file, sha256 for LFS files (lower-cased), one request per folder', async () => {
  const seen: string[] = [];
  expect(await hubManifest({ modelId: MODEL, files: FILES, fetch: listingFetch(LISTINGS, seen) })).toEqual({
    'config.json': { size: 650 },
    'tokenizer.json': { size: 711_396, sha256: SHA.replace(/a/g, 'b') },
    'onnx/model.onnx': { size: 90_405_214, sha256: SHA },
  });
  expect(seen).toEqual([`https://huggingface.co/api/models/${MODEL}/tree/main`, `https://huggingface.co/api/models/${MODEL}/tree/main/onnx`]);
});

test('a server without a listing (404) gives null; a failing one is a download_failed naming the listing', async () => {
  expect(await hubManifest({ modelId: MODEL, files: FILES, fetch: listingFetch({}) })).toBeNull();
  const err = await failure(hubManifest({ modelId: MODEL, files: FILES, fetch: async () => new Response('oops', { status: 500 }) }));
  expect(err).toMatchObject({ code: 'download_failed', data: { reason: 'manifest', status: 500 } });
  const junk = await failure(hubManifest({ modelId: MODEL, files: FILES, fetch: async () => new Response('<html>', { status: 200 }) }));
  expect(junk.message).toMatch(/Could not read the hub's file listing .*tree\/main/);
});
