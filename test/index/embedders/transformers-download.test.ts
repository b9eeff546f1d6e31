/**
 * Download on demand, then offline: the real library fetches a model it does not have from a
 * hub into the cache folder (`<vault>/.lithos/models` in the app), reporting progress, and later
 * loads it from there with remote loading off. The hub is a twin serving the generated tiny model
 * over the library's fetch hook, so no test reaches the network.
 */
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LithosError } from '../../../shared/errors';
import {
  createTransformersEmbedder,
  type ModelLoadProgress,
  type TransformersEmbedderOptions,
  type TransformersLike,
} from '../../../shared/index/embedders/transformers-embedder';
import { writeTinyModelUnder } from '../../fixtures/tiny-model/generate';
import { fakeHub, forbiddenNetwork, unreachableNetwork } from './fake-hub';
import { loadTransformers } from './load-transformers';
import { failure } from '../../twins/error-code';

const MODEL_ID = 'lithos/tiny-hub';
const TEXTS = ['the cat sat on the mat', 'quantum physics', ''];

let hubRoot: string;
let scratch: string;
let lib: TransformersLike;

beforeAll(async () => {
  lib = await loadTransformers();
  hubRoot = await mkdtemp(join(tmpdir(), 'lithos-hub-'));
  scratch = await mkdtemp(join(tmpdir(), 'lithos-vault-models-'));
  await writeTinyModelUnder(hubRoot, MODEL_ID, { hidden: 24, seed: 11 });
});

afterAll(async () => {
  await rm(hubRoot, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
});

/** A not-yet-existing folder: the loader must create what it downloads. */
const freshDir = (name: string) => join(scratch, name);

function options(dir: string, extra: Partial<TransformersEmbedderOptions>): TransformersEmbedderOptions {
  return { loadLibrary: async () => lib, modelId: MODEL_ID, cacheDir: dir, localModelPath: dir, allowRemote: true, ...extra };
}


const exists = (path: string) => access(path).then(() => true, () => false);

describe('a model that is not there yet, with remote loading on', () => {
  it('is downloaded into the cache folder with progress, then loads offline from there', async () => {
    const dir = freshDir('download');
    const hub = fakeHub({ [MODEL_ID]: join(hubRoot, 'lithos', 'tiny-hub') });
    const events: ModelLoadProgress[] = [];
    const downloaded = await createTransformersEmbedder(options(dir, { fetch: hub.fetch, onProgress: (p) => events.push(p) }));
    const online = await downloaded.embed(TEXTS);
    await downloaded.dispose();

    for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']) {
      expect(hub.urls).toContain(`https://huggingface.co/${MODEL_ID}/resolve/main/${file}`);
      expect(await exists(join(dir, 'lithos', 'tiny-hub', ...file.split('/')))).toBe(true);
      const last = events.filter((p) => p.file === file && p.status === 'progress').pop();
      expect(last?.total).toBeGreaterThan(0);
      expect(last?.loaded).toBe(last?.total);
    }
    expect(events[events.length - 1].status).toBe('ready');

    const offline = forbiddenNetwork();
    const again = await createTransformersEmbedder(options(dir, { allowRemote: false, fetch: offline.fetch }));
    const local = await again.embed(TEXTS);
    await again.dispose();
    expect(offline.urls).toEqual([]);
    expect(local.map((v) => Array.from(v))).toEqual(online.map((v) => Array.from(v)));
  });

  it('is not fetched when the local model folder already has it', async () => {
    const hub = fakeHub({ [MODEL_ID]: join(hubRoot, 'lithos', 'tiny-hub') });
    const e = await createTransformersEmbedder(
      options(freshDir('unused-cache'), { localModelPath: hubRoot, fetch: hub.fetch, onProgress: () => undefined }),
    );
    expect(await e.embed(['the cat'])).toHaveLength(1);
    await e.dispose();
    expect(hub.urls).toEqual([]);
  });

  it('fails with model_missing naming the folder when the network is unreachable', async () => {
    const dir = freshDir('offline');
    const net = unreachableNetwork();
    const err = await failure(createTransformersEmbedder(options(dir, { fetch: net.fetch })));
    expect(net.urls.length).toBeGreaterThan(0);
    expect(err.code).toBe('model_missing');
    expect(err.message).toContain(join(dir, 'lithos', 'tiny-hub'));
    expect(err.message).toMatch(/could not be downloaded/);
    expect(err.data).toMatchObject({ allowRemote: true, folder: join(dir, 'lithos', 'tiny-hub') });
  });

  it('fails with model_missing when the hub has no such model', async () => {
    const hub = fakeHub({});
    const err = await failure(createTransformersEmbedder(options(freshDir('unknown'), { modelId: 'nobody/nothing-here', fetch: hub.fetch })));
    expect(err.code).toBe('model_missing');
    expect(err.message).toContain('nobody/nothing-here');
  });
});

describe('the library-wide settings', () => {
  it('are restored after each load, successful or not', async () => {
    const before = { ...lib.env };
    const hub = fakeHub({ [MODEL_ID]: join(hubRoot, 'lithos', 'tiny-hub') });
    const ok = await createTransformersEmbedder(options(hubRoot, { allowRemote: false, fetch: hub.fetch }));
    await ok.dispose();
    await failure(createTransformersEmbedder(options(freshDir('restore'), { allowRemote: false, fetch: hub.fetch })));
    const after = lib.env;
    expect(after.allowRemoteModels).toBe(before.allowRemoteModels);
    expect(after.allowLocalModels).toBe(before.allowLocalModels);
    expect(after.localModelPath).toBe(before.localModelPath);
    expect(after.cacheDir).toBe(before.cacheDir);
    expect(after.fetch).toBe(before.fetch);
  });

  it('are not mixed up between loads running at the same time', async () => {
    // One load may download into its folder while another, with downloads off, must not.
    const downloading = freshDir('concurrent-download');
    const offlineDir = freshDir('concurrent-offline');
    const hub = fakeHub({ [MODEL_ID]: join(hubRoot, 'lithos', 'tiny-hub') });
    const offline = forbiddenNetwork();
    const [online, local] = await Promise.allSettled([
      createTransformersEmbedder(options(downloading, { fetch: hub.fetch })),
      createTransformersEmbedder(options(offlineDir, { allowRemote: false, fetch: offline.fetch })),
    ]);
    expect(online.status).toBe('fulfilled');
    if (online.status === 'fulfilled') await online.value.dispose();
    expect(local.status).toBe('rejected');
    if (local.status === 'rejected') expect((local.reason as LithosError).message).toMatch(/downloads are switched off/);
    expect(offline.urls).toEqual([]);
    expect(await exists(join(offlineDir, 'lithos', 'tiny-hub', 'config.json'))).toBe(false);
  });
});
