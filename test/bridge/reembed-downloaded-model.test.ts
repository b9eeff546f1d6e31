/**
 * The folder the model downloader writes is one the bridge loads offline: a generated tiny BERT-shaped
 * model (under all-MiniLM-L6-v2's id) is served by the streaming hub twin, downloaded into a vault
 * folder, and `lithos reembed --space minilm-l6-v2 --model-dir <that folder>` embeds every note with it,
 * remote loading off. config.json keeps the folder (relative to .lithos/) for later opens.
 */
import { appendFile, mkdir, mkdtemp, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { main } from '../../bridge/cli';
import { configModelDir } from '../../bridge/commands/reembed-cmd';
import { downloadModel, type ModelFilePort } from '../../shared/index/embedders/model-download';
import { transformersModelFiles } from '../../shared/index/embedders/model-files';
import { DEFAULT_MODEL_ID } from '../../shared/index/embedders/transformers-embedder';
import { writeTinyModelUnder } from '../fixtures/tiny-model/generate';
import { loadTransformers } from '../index/embedders/load-transformers';
import { streamingHub } from '../twins/streaming-hub';

/** The file port on a real folder, as Obsidian's desktop adapter would write it. */
function diskPort(root: string): ModelFilePort {
  const abs = (p: string) => join(root, ...p.split('/'));
  return {
    size: (p) => stat(abs(p)).then((s) => s.size, () => null),
    append: async (p, bytes) => {
      await mkdir(dirname(abs(p)), { recursive: true });
      await appendFile(abs(p), bytes);
    },
    replace: (from, to) => rename(abs(from), abs(to)),
    remove: (p) => rm(abs(p)),
  };
}

let root: string;
beforeAll(async () => {
  await loadTransformers(); // the realm fix for onnxruntime-node's outputs under jest; the bridge then imports the same module
  root = await mkdtemp(join(tmpdir(), 'lithos-reembed-dl-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

test('downloaded into a vault folder, then lithos reembed --model-dir embeds every note with it offline', async () => {
  const hubDir = join(root, 'hub');
  await writeTinyModelUnder(hubDir, DEFAULT_MODEL_ID, { hidden: 24, seed: 5 });
  const files = transformersModelFiles('fp32');
  const served: Record<string, Uint8Array> = {};
  for (const f of files) served[f] = new Uint8Array(await readFile(join(hubDir, DEFAULT_MODEL_ID, f)));
  const hub = streamingHub(DEFAULT_MODEL_ID, served, 4096);

  const vault = join(root, 'vault');
  await mkdir(join(vault, 'notes'), { recursive: true });
  for (const [name, text] of [['a', 'The cat sat on the mat.'], ['b', 'Quantum physics and entanglement.']]) {
    await appendFile(join(vault, 'notes', `${name}.md`), `# ${name}\n${text}\n`);
  }
  const result = await downloadModel({ modelId: DEFAULT_MODEL_ID, files, root: 'Models', fetch: hub.fetch, port: diskPort(vault) });
  expect(result.folder).toBe(`Models/${DEFAULT_MODEL_ID}`);

  const lines: string[] = [];
  const code = await main(['reembed', vault, '--space', 'minilm-l6-v2', '--model-dir', join(vault, 'Models'), '--json'], (s) => lines.push(s));
  expect(code).toBe(0);
  expect(JSON.parse(lines.join('\n'))).toMatchObject({ space: 'minilm-l6-v2', embedded: 2, active_spaces: ['hash-ngram-v2-384', 'minilm-l6-v2'] });
  const config = JSON.parse(await readFile(join(vault, '.lithos', 'config.json'), 'utf8')) as { model_dir: string };
  expect(config.model_dir).toBe(join('..', 'Models'));

  // A later open reads the kept folder: stats lists both spaces without --model-dir.
  const stats: string[] = [];
  expect(await main(['stats', vault, '--json'], (s) => stats.push(s))).toBe(0);
  expect(JSON.stringify(JSON.parse(stats.join('\n')))).toContain('minilm-l6-v2');
});

test('config.json keeps a folder inside the vault relative to .lithos/, one outside absolute', () => {
  expect(configModelDir('/v', '/v/.lithos/models')).toBe('models');
  expect(configModelDir('/v', '/v/Models')).toBe(join('..', 'Models'));
  expect(configModelDir('/v', '/elsewhere/models')).toBe('/elsewhere/models');
  expect(configModelDir('/v', '/v/..hidden')).toBe(join('..', '..hidden'));
});
