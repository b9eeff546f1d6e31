import { HashingEmbedder } from '../../shared/index/embedders/hashing-embedder';
import { MINILM_SPACE_ID, spaceIdForModel } from '../../shared/index/embedders/transformers-embedder';
import { spaceCapability, spaceTags } from '../../shared/index/space-capabilities';

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot;
}

describe('space capabilities', () => {
  test('the hashing space is not semantic, and its vectors show why: a synonym is farther than a lookalike word', async () => {
    const hashing = new HashingEmbedder();
    expect(spaceCapability(hashing.spaceId)).toMatchObject({ semantic: false, description: expect.stringContaining('not synonyms') });
    const [car, automobile, carpet] = await hashing.embed(['car', 'automobile', 'carpet']);
    expect(cosine(car, automobile)).toBeLessThan(cosine(car, carpet));
  });

  test('sentence models and the vault-learned space are semantic; an unknown space is not claimed to be', () => {
    expect(spaceCapability(MINILM_SPACE_ID).semantic).toBe(true);
    expect(spaceCapability(spaceIdForModel('Xenova/bge-small-en-v1.5')).semantic).toBe(true);
    expect(spaceCapability('vault-ppmi-v1-128')).toMatchObject({ semantic: true, description: expect.stringContaining('learned from this vault') });
    expect(spaceCapability('some-new-space').semantic).toBe(false);
  });

  test('the compact tag results carry is the id and the flag, in the order given', () => {
    expect(spaceTags(['hash-ngram-v2-384', MINILM_SPACE_ID])).toEqual([
      { id: 'hash-ngram-v2-384', semantic: false },
      { id: MINILM_SPACE_ID, semantic: true },
    ]);
  });
});
