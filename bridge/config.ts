import { z } from 'zod';
import type { BlobStore } from '../shared/ports';
import { HashingEmbedder } from '../shared/index/embedders/hashing-embedder';

/** `<vault>/.lithos/config.json`: per-vault settings the headless tools share with the plugin. */
const ConfigSchema = z.object({
  /** Active embedding spaces; queries search all of them and merge. */
  embedding_spaces: z.array(z.string().min(1)).min(1).default([new HashingEmbedder().spaceId]),
  /** Where all-MiniLM-L6-v2 lives; relative paths are relative to `.lithos/`. */
  model_dir: z.string().default('models'),
  /** Whether a missing model may be downloaded (never in tests or CI). */
  allow_remote_models: z.boolean().default(false),
  /** Managed callout blocks in notes (conflicts, quarantined/superseded status); false removes them. */
  callouts: z.boolean().default(true),
});

export type VaultConfig = z.infer<typeof ConfigSchema>;
const NAME = 'config.json';

/**
 * The vault's config; a damaged file (not JSON, or invalid) gives the defaults and `onProblem` is told why:
 * one typo there must not stop every command and every agent's tool call, reads included.
 */
export async function readConfig(blobs: BlobStore, onProblem: (message: string) => void = () => undefined): Promise<VaultConfig> {
  const bytes = await blobs.read(NAME);
  if (!bytes) return ConfigSchema.parse({});
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder().decode(bytes));
  } catch (err) {
    onProblem(`.lithos/config.json is not valid JSON (${(err as Error).message}). ${MEANWHILE}`);
    return ConfigSchema.parse({});
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    onProblem(`.lithos/config.json is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}. ${MEANWHILE}`);
    return ConfigSchema.parse({});
  }
  return parsed.data;
}

const MEANWHILE = 'Using the defaults (the offline embedding space only, callouts on) until it is fixed or deleted; `lithos reembed` replaces it.';

export async function writeConfig(blobs: BlobStore, config: VaultConfig): Promise<void> {
  await blobs.writeAtomic(NAME, new TextEncoder().encode(JSON.stringify(config, null, 2) + '\n'));
}
