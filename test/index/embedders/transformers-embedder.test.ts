/**
 * The transformers embedder, through the real library and ONNX Runtime, on a tiny BERT-shaped
 * model generated into a temp folder. Remote loading is off and the network is a fetch that
 * fails on any call, so nothing here can reach the hub.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTransformersEmbedder,
  DEFAULT_MODEL_ID,
  type ModelLoadProgress,
  type TransformersEmbedder,
  type TransformersEmbedderOptions,
} from '../../../shared/index/embedders/transformers-embedder';
import { writeTinyModelUnder } from '../../fixtures/tiny-model/generate';
import { forbiddenNetwork } from './fake-hub';
import { loadTransformers } from './load-transformers';
import { failure } from '../../twins/error-code';

const MODEL_ID = 'lithos/tiny-bert';
const HIDDEN = 32;

let root: string;
let emptyRoot: string;
const network = forbiddenNetwork();

function options(extra: Partial<TransformersEmbedderOptions> = {}): TransformersEmbedderOptions {
  return { loadLibrary: loadTransformers, modelId: MODEL_ID, localModelPath: root, cacheDir: root, allowRemote: false, fetch: network.fetch, ...extra };
}


const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
const maxAbsDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

let embedder: TransformersEmbedder;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'lithos-models-'));
  emptyRoot = await mkdtemp(join(tmpdir(), 'lithos-empty-'));
  await writeTinyModelUnder(root, MODEL_ID, { hidden: HIDDEN, seed: 7 });
  embedder = await createTransformersEmbedder(options({ spaceId: 'tiny-test' }));
});

afterAll(async () => {
  await embedder?.dispose();
  await rm(root, { recursive: true, force: true });
  await rm(emptyRoot, { recursive: true, force: true });
});

afterEach(() => {
  expect(network.urls).toEqual([]);
});

describe('loading a local model with remote loading off', () => {
  it('reports the space id, model id and the width from the model config', () => {
    expect(embedder.spaceId).toBe('tiny-test');
    expect(embedder.modelId).toBe(MODEL_ID);
    expect(embedder.dimensions).toBe(HIDDEN);
  });

  it('derives a space id from the model id when none is given', async () => {
    const e = await createTransformersEmbedder(options());
    expect(e.spaceId).toBe('hf-lithos-tiny-bert');
    await e.dispose();
  });

  it('reports progress per file and a final ready with the byte totals', async () => {
    const events: ModelLoadProgress[] = [];
    const e = await createTransformersEmbedder(options({ onProgress: (p) => events.push(p) }));
    await e.dispose();
    const files = new Set(events.map((p) => p.file));
    for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']) expect(files).toContain(f);
    const onnxDone = events.filter((p) => p.file === 'onnx/model.onnx' && p.status === 'progress').pop();
    expect(onnxDone?.total).toBeGreaterThan(1000);
    expect(onnxDone?.loaded).toBe(onnxDone?.total);
    const last = events[events.length - 1];
    expect(last.status).toBe('ready');
    expect(last.total).toBeGreaterThan(0);
    expect(last.loaded).toBe(last.total);
  });

  it('loads onnx/model_quantized.onnx when quantized, giving close but different vectors', async () => {
    const events: ModelLoadProgress[] = [];
    const q = await createTransformersEmbedder(options({ quantized: true, onProgress: (p) => events.push(p) }));
    expect(events.map((p) => p.file)).toContain('onnx/model_quantized.onnx');
    expect(events.map((p) => p.file)).not.toContain('onnx/model.onnx');
    const text = 'the cat sat on the mat';
    const [full] = await embedder.embed([text]);
    const [quant] = await q.embed([text]);
    expect(maxAbsDiff(full, quant)).toBeGreaterThan(0);
    expect(cosine(full, quant)).toBeGreaterThan(0.95);
    await q.dispose();
  });
});

describe('embedding', () => {
  const texts = [
    'the cat sat on the mat',
    'a cat sat on the sofa',
    'quantum physics energy theory',
    'Dogs bark; cats purr!',
    '',
  ];

  it('returns one unit-length Float32Array of the model width per text, in order', async () => {
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(texts.length);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(HIDDEN);
      expect(Math.abs(norm(v) - 1)).toBeLessThan(1e-5);
    }
    expect(maxAbsDiff(vectors[0], vectors[1])).toBeGreaterThan(0.01);
  });

  it('is deterministic across calls and across separately loaded instances', async () => {
    const first = await embedder.embed(texts);
    const second = await embedder.embed(texts);
    const other = await createTransformersEmbedder(options());
    const third = await other.embed(texts);
    await other.dispose();
    for (let i = 0; i < texts.length; i++) {
      expect(Array.from(second[i])).toEqual(Array.from(first[i]));
      expect(Array.from(third[i])).toEqual(Array.from(first[i]));
    }
  });

  it('gives the same vectors in padded batches as one by one', async () => {
    const batched = await createTransformersEmbedder(options({ batchSize: 2 }));
    const together = await batched.embed(texts);
    await batched.dispose();
    for (let i = 0; i < texts.length; i++) {
      const [alone] = await embedder.embed([texts[i]]);
      expect(maxAbsDiff(together[i], alone)).toBeLessThan(1e-6);
    }
  });

  it('places texts that share words closer than unrelated ones', async () => {
    const [cat, catSofa, physics] = await embedder.embed(texts.slice(0, 3));
    expect(cosine(cat, catSofa)).toBeGreaterThan(cosine(cat, physics) + 0.2);
  });

  it('truncates to maxTokens as sentence-transformers does: [CLS] + first words + [SEP]', async () => {
    const short = await createTransformersEmbedder(options({ maxTokens: 5 }));
    const [long, ran] = await short.embed(['the cat sat on the mat with the dog', 'the cat ran']);
    await short.dispose();
    // [CLS] the cat sat [SEP] — the same five tokens an untruncated "the cat sat" gives.
    const [prefix] = await embedder.embed(['the cat sat']);
    expect(maxAbsDiff(long, prefix)).toBeLessThan(1e-6);
    expect(maxAbsDiff(long, ran)).toBeGreaterThan(0.01);
  });

  it('returns [] for no texts', async () => {
    await expect(embedder.embed([])).resolves.toEqual([]);
  });

  it('refuses to embed after dispose', async () => {
    const e = await createTransformersEmbedder(options());
    await e.dispose();
    const err = await failure(e.embed(['the cat']));
    expect(err.code).toBe('embedding_failed');
  });
});

describe('a missing model with remote loading off', () => {
  it('fails with model_missing naming the folder it looked in and the fix', async () => {
    const err = await failure(createTransformersEmbedder(options({ localModelPath: emptyRoot, cacheDir: emptyRoot })));
    const folder = join(emptyRoot, 'lithos', 'tiny-bert');
    expect(err.code).toBe('model_missing');
    expect(err.message).toContain(folder);
    expect(err.message).toMatch(/downloads are switched off/);
    expect(err.message).toContain('lithos model pull <vault>');
    expect(err.message).toContain('lithos: --allow-remote, or allow_remote_models in .lithos/config.json');
    expect(err.message).toMatch(/onnx\/model\.onnx/);
    expect(err.data).toMatchObject({ modelId: MODEL_ID, folder, allowRemote: false });
  });

  it('fails the same way for a model id that does not exist, even where other models are', async () => {
    const err = await failure(createTransformersEmbedder(options({ modelId: 'nobody/no-such-model' })));
    expect(err.code).toBe('model_missing');
    expect(err.message).toContain(join(root, 'nobody', 'no-such-model'));
  });

  it('looks for all-MiniLM-L6-v2 under the given folder by default, and names it', async () => {
    const err = await failure(createTransformersEmbedder(options({ modelId: undefined, localModelPath: emptyRoot, cacheDir: emptyRoot })));
    expect(err.code).toBe('model_missing');
    expect(err.message).toContain(join(emptyRoot, ...DEFAULT_MODEL_ID.split('/')));
  });

  it('names the onnx file the quantized variant needs', async () => {
    const err = await failure(createTransformersEmbedder(options({ quantized: true, localModelPath: emptyRoot, cacheDir: emptyRoot })));
    expect(err.message).toMatch(/onnx\/model_quantized\.onnx/);
  });
});

describe('a model folder with a damaged file', () => {
  it('fails with embedding_failed, not model_missing, naming the folder', async () => {
    const damagedRoot = await mkdtemp(join(tmpdir(), 'lithos-damaged-'));
    try {
      const info = await writeTinyModelUnder(damagedRoot, MODEL_ID, { hidden: HIDDEN });
      await writeFile(join(info.dir, 'onnx', 'model.onnx'), 'this is not an ONNX protobuf');
      const err = await failure(createTransformersEmbedder(options({ localModelPath: damagedRoot, cacheDir: damagedRoot })));
      expect(err.code).toBe('embedding_failed');
      expect(err.message).toContain(join(damagedRoot, 'lithos', 'tiny-bert'));
    } finally {
      await rm(damagedRoot, { recursive: true, force: true });
    }
  });
});

describe('options and library failures', () => {
  it('rejects a non-positive batch size or token limit before loading anything', async () => {
    let loads = 0;
    const counting = async () => {
      loads++;
      return loadTransformers();
    };
    expect((await failure(createTransformersEmbedder(options({ loadLibrary: counting, batchSize: 0 })))).code).toBe('invalid_argument');
    expect((await failure(createTransformersEmbedder(options({ loadLibrary: counting, maxTokens: 1.5 })))).code).toBe('invalid_argument');
    expect(loads).toBe(0);
  });

  it('reports a library that cannot be loaded as embedding_failed with the cause', async () => {
    const err = await failure(
      createTransformersEmbedder(options({ loadLibrary: () => Promise.reject(new Error('onnxruntime binding not found')) })),
    );
    expect(err.code).toBe('embedding_failed');
    expect(err.message).toContain('onnxruntime binding not found');
  });
});
