import { isAbsolute, join } from 'node:path';
import type { Embedder, Logger } from '../shared/ports';
import { HashingEmbedder } from '../shared/index/embedders/hashing-embedder';
import { createTransformersEmbedder, DEFAULT_MODEL_ID } from '../shared/index/embedders/transformers-embedder';
import { modelFolder } from '../shared/index/embedders/transformers-load';
import { existsSync } from 'node:fs';
import { LithosError } from '../shared/errors';
import type { VaultConfig } from './config';

export const MINILM_SPACE = 'minilm-l6-v2';

/** Space ids this build can construct, for help texts and errors. */
export function knownSpaces(): string[] {
  return [new HashingEmbedder().spaceId, MINILM_SPACE];
}

/**
 * Builds the embedder for one space id. all-MiniLM-L6-v2 is loaded from `<vault>/.lithos/<model_dir>`
 * (downloaded there on demand only when the config allows remote models).
 */
export async function createEmbedder(
  spaceId: string,
  ctx: { vaultRoot: string; config: VaultConfig; logger: Logger; allowRemote?: boolean },
): Promise<Embedder> {
  const hashing = new HashingEmbedder();
  if (spaceId === hashing.spaceId) return hashing;
  if (spaceId === MINILM_SPACE) {
    const dir = isAbsolute(ctx.config.model_dir) ? ctx.config.model_dir : join(ctx.vaultRoot, '.lithos', ctx.config.model_dir);
    // The library reports progress for local reads too: only announce a real download.
    const shown = new Map<string, number>();
    const downloading = !existsSync(join(modelFolder(dir, DEFAULT_MODEL_ID), 'onnx', 'model.onnx'));
    return createTransformersEmbedder({
      loadLibrary: () => import('@huggingface/transformers'),
      cacheDir: dir,
      localModelPath: dir,
      allowRemote: ctx.allowRemote ?? ctx.config.allow_remote_models,
      spaceId: MINILM_SPACE,
      onProgress: (p) => {
        if (!downloading || p.status !== 'progress' || p.total <= 0) return;
        const pct = Math.floor((100 * p.loaded) / p.total / 10) * 10;
        if (pct > (shown.get(p.file) ?? -1)) ctx.logger.warn(`downloading ${p.file}: ${pct}%`);
        shown.set(p.file, pct);
      },
    });
  }
  throw new LithosError('invalid_argument', `Unknown embedding space "${spaceId}". Known spaces: ${knownSpaces().join(', ')}.`, { space: spaceId });
}
