/**
 * What each embedding space can and cannot do, said once: tool results, tool hints and `lithos stats`
 * read it from here. A space is `semantic` when texts with the same meaning and different words land
 * close together (car ↔ automobile); the hashing space only measures shared words and word pieces
 * (car ↔ automobile cosine 0, car ↔ carpet 0.40), so calling its nearest neighbours "meaning" would lie.
 */
import { MINILM_SPACE_ID } from './embedders/transformers-embedder';
import { VAULT_LEARNED_SPACE } from './embedding-spaces';

export interface SpaceCapability {
  /** True when the space places paraphrases and related concepts close together. */
  semantic: boolean;
  /** One line: what its similarities mean. */
  description: string;
}

/** The compact form every result from a space carries (mind agents' context): `{ id, semantic }`. */
export interface SpaceTag {
  id: string;
  semantic: boolean;
}

const HASHING: SpaceCapability = {
  semantic: false,
  description: 'hashed words and word pieces: finds shared words, stems and spelling variants, not synonyms, paraphrases or related concepts',
};
const SENTENCE_MODEL: SpaceCapability = {
  semantic: true,
  description: 'a sentence-embedding model: finds paraphrases and related concepts even without shared words (English-centred)',
};
const UNKNOWN: SpaceCapability = {
  semantic: false,
  description: 'a space this build does not describe: not known to capture meaning',
};

/** By space id; `hf-…` ids are other transformers.js models (transformers-embedder.ts spaceIdForModel). */
export function spaceCapability(spaceId: string): SpaceCapability {
  if (spaceId.startsWith('hash-ngram-')) return HASHING;
  if (spaceId === MINILM_SPACE_ID || spaceId.startsWith('hf-')) return SENTENCE_MODEL;
  if (spaceId.startsWith(VAULT_LEARNED_SPACE.idPrefix)) return VAULT_LEARNED_SPACE;
  return UNKNOWN;
}

export function spaceTags(spaceIds: readonly string[]): SpaceTag[] {
  return spaceIds.map((id) => ({ id, semantic: spaceCapability(id).semantic }));
}

/** The command a headless user runs to get a semantic space; the plugin offers the same download in its settings. */
export const MODEL_PULL_HINT =
  'No semantic embedding model is active: vector similarity here means shared words and word pieces, not meaning. ' +
  'Install one with `lithos model pull <vault>` (or Obsidian: Settings → Lithos Memory → Embeddings → Download).';
