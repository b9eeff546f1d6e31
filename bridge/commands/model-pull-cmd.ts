import { isAbsolute, join } from 'node:path';
import { LithosError } from '../../shared/errors';
import type { Logger } from '../../shared/ports';
import { downloadModel, HF_HOST, modelDir, type ModelDownloadResult, type StreamingFetch } from '../../shared/index/embedders/model-download';
import { transformersModelFiles } from '../../shared/index/embedders/model-files';
import { hubManifest } from '../../shared/index/embedders/model-manifest';
import { DEFAULT_MODEL_ID } from '../../shared/index/embedders/transformers-embedder';
import { readConfig } from '../config';
import { MINILM_SPACE } from '../embedders';
import { NodeBlobStore } from '../node-blob-store';
import { NodeModelFiles } from '../node-model-files';
import { checkVaultFolder, openJobVault } from '../open-vault';
import { defineCommand } from './command';
import { downloadProgress, sizeText } from './download-progress';
import { printJson, type Out } from './output';
import { activateSpace, type ActivatedSpace } from './reembed-cmd';
import { VAULT } from './positionals';

/** The models this build can embed with, as a person may name them. */
const MODEL_NAMES = ['all-MiniLM-L6-v2', DEFAULT_MODEL_ID] as const;

/** fp32 weights: the file the bridge's embedder loads (and the plugin downloads, so one folder serves both). */
const FILES = transformersModelFiles('fp32');

export interface ModelPullOptions {
  from: string;
  revision: string;
  downloadOnly: boolean;
  json: boolean;
  out: Out;
  logger: Logger;
  /** The download's fetch; Node's own by default. */
  fetch?: StreamingFetch;
  signal?: AbortSignal;
}

function baseUrl(from: string): string {
  let url: URL;
  try {
    url = new URL(from);
  } catch {
    throw new LithosError('invalid_argument', `--from must be an http(s) URL, got "${from}".`, { from });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new LithosError('invalid_argument', `--from must be an http(s) URL, got "${from}".`, { from });
  return from.replace(/\/+$/, '');
}

/** The absolute model root: config.json's model_dir, relative to .lithos/ (as bridge/embedders.ts reads it). */
async function modelRoot(vaultRoot: string, logger: Logger): Promise<string> {
  const config = await readConfig(new NodeBlobStore(join(vaultRoot, '.lithos')), (m) => logger.warn(m));
  return isAbsolute(config.model_dir) ? config.model_dir : join(vaultRoot, '.lithos', config.model_dir);
}

function verifiedText(result: ModelDownloadResult): string {
  const sha = result.files.filter((f) => f.verified === 'sha256').map((f) => f.file);
  const size = result.files.filter((f) => f.verified === 'size').map((f) => f.file);
  if (sha.length === 0 && size.length === 0) return 'not verified (the server lists no sizes or checksums)';
  return [sha.length ? `sha256 checked: ${sha.join(', ')}` : '', size.length ? `size checked: ${size.join(', ')}` : ''].filter(Boolean).join('; ');
}

/**
 * `lithos model pull <vault> [model]`: downloads all-MiniLM-L6-v2 into the vault's model folder (resuming a
 * cut-off download, each file checked against the hub's listing before it takes its name), then embeds every
 * note into its space, so vector search and retrieval match meaning, not only shared words.
 */
export async function modelPullCommand(vault: string, o: ModelPullOptions): Promise<number> {
  const root = await checkVaultFolder(vault);
  const host = baseUrl(o.from);
  const dir = await modelRoot(root, o.logger);
  const fetch = o.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const expected = await hubManifest({ modelId: DEFAULT_MODEL_ID, files: FILES, fetch, host, revision: o.revision, signal: o.signal });
  if (expected === null) o.logger.warn(`${host} offers no file listing (/api/models/${DEFAULT_MODEL_ID}/tree/${o.revision}): sizes and sha256 cannot be checked.`);
  const download = await downloadModel({
    modelId: DEFAULT_MODEL_ID,
    files: FILES,
    root: '',
    fetch,
    port: new NodeModelFiles(dir),
    host,
    revision: o.revision,
    expected: expected ?? undefined,
    signal: o.signal,
    onProgress: downloadProgress(!o.json),
  });
  const folder = join(dir, ...modelDir('', DEFAULT_MODEL_ID).split('/'));
  const fetched = download.files.filter((f) => !f.skipped).length;
  const said = `${fetched === 0 ? 'Already downloaded' : 'Downloaded'} all-MiniLM-L6-v2 (${sizeText(download.bytes)}, ${download.files.length} files; ${verifiedText(download)}) into ${folder}.`;
  let embed: ActivatedSpace | null = null;
  if (!o.downloadOnly) {
    if (!o.json) o.out(said);
    embed = await embedVault(vault, o);
  }
  const result = { model: DEFAULT_MODEL_ID, space: MINILM_SPACE, folder, bytes: download.bytes, files: download.files, verified: expected !== null, embed };
  if (o.json) printJson(o.out, result);
  else if (embed) o.out(`Embedded ${embed.embedded} notes into ${MINILM_SPACE} in ${embed.duration_ms} ms. Active spaces: ${embed.active_spaces.join(', ')}.`);
  else o.out(`${said} Embed the notes with: lithos reembed ${vault} --space ${MINILM_SPACE}`);
  return 0;
}

async function embedVault(vault: string, o: ModelPullOptions): Promise<ActivatedSpace> {
  let v;
  try {
    v = await openJobVault(vault, 'reembed', { write: true, logger: o.logger });
  } catch (err) {
    if (err instanceof LithosError && err.code === 'vault_locked') {
      throw new LithosError('vault_locked', `${err.message} The model is downloaded; embed the notes once the vault is free: lithos reembed ${vault} --space ${MINILM_SPACE}`, err.data);
    }
    throw err;
  }
  try {
    return await activateSpace(v, { space: MINILM_SPACE, lazy: false, allowRemote: false, progress: !o.json, logger: o.logger });
  } finally {
    await v.close();
  }
}

/** Ctrl-C stops the download cleanly: what arrived stays in a .part the next run resumes. */
async function withInterrupt<T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const abort = new AbortController();
  const stop = (): void => abort.abort();
  process.once('SIGINT', stop);
  try {
    return await run(abort.signal);
  } finally {
    process.removeListener('SIGINT', stop);
  }
}

export const modelPullCmd = defineCommand({
  name: 'model pull',
  summary: 'download the semantic embedding model (all-MiniLM-L6-v2) into the vault and embed every note with it',
  positionals: [VAULT, { name: 'model', help: 'the model to download (default all-MiniLM-L6-v2)', optional: true, choices: MODEL_NAMES }],
  options: {
    from: { type: 'string', help: 'the hub to download from (a mirror with the Hugging Face layout)', value: 'url', default: HF_HOST },
    revision: { type: 'string', help: 'the branch, tag or commit of the model repository', value: 'rev', default: 'main' },
    'download-only': { type: 'boolean', help: 'download and check the files, but do not embed the notes yet' },
  },
  examples: ['lithos model pull ~/vault', 'lithos model pull ~/vault all-MiniLM-L6-v2 --download-only'],
  notes: [
    'A cut-off download resumes where it stopped; each file is checked against the size and sha256 the hub lists before it is used. Progress goes to stderr (none with --json).',
  ],
  run: ({ args: [vault], values, json, out, logger }) =>
    withInterrupt((signal) => modelPullCommand(vault, { from: values.from, revision: values.revision, downloadOnly: values['download-only'], json, out, logger, signal })),
});
