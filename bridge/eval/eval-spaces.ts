/**
 * `lithos eval --space`: which embedding spaces the eval's engine uses. `hash` is the engine's default;
 * `vault` is the space learned from the dataset's own notes (shared/index/embedders/vault-space.ts), fitted
 * once from every note's text before the notes are indexed, as a vault that has just been fitted would be.
 */
import { readFile } from 'node:fs/promises';
import type { Embedder } from '../../shared/ports';
import { LithosError } from '../../shared/errors';
import { HashingEmbedder } from '../../shared/index/embedders/hashing-embedder';
import { DEFAULT_VAULT_SPACE_OPTIONS, VaultSpaceModel, type VaultSpaceOptions } from '../../shared/index/embedders/vault-space';
import { parseNote } from '../../shared/model/note';
import { walkNotes } from '../vault-walk';

export const EVAL_SPACES = ['hash', 'vault', 'vault+hash'] as const;
export type EvalSpace = (typeof EVAL_SPACES)[number];

/** The embedders for `space` over the vault at `root` (undefined: the engine's default). */
export async function evalEmbedders(space: EvalSpace, root: string, options: VaultSpaceOptions = DEFAULT_VAULT_SPACE_OPTIONS): Promise<Embedder[] | undefined> {
  if (space === 'hash') return undefined;
  if (!EVAL_SPACES.includes(space)) throw new LithosError('invalid_argument', `--space must be one of ${EVAL_SPACES.join(', ')}.`, { space });
  const model = new VaultSpaceModel(options);
  for (const { path } of await walkNotes(root, {})) {
    const note = parseNote(path, await readFile(`${root}/${path}`, 'utf8'));
    model.set(path, `${note.meta.title}\n${note.body}`);
  }
  const vault = model.fit();
  // Too small a vault to learn from: the hashing space answers, as the engine's fallback does.
  if (!vault) return [new HashingEmbedder()];
  return space === 'vault' ? [vault] : [vault, new HashingEmbedder()];
}
