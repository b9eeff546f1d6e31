import { modelFolder } from '../../../shared/index/embedders/transformers-load';
import { MINILM_SPACE_ID, spaceIdForModel } from '../../../shared/index/embedders/transformers-embedder';

describe('modelFolder', () => {
  it('joins the root and the model id with the root’s own separator', () => {
    expect(modelFolder('/vault/.lithos/models', 'Xenova/all-MiniLM-L6-v2')).toBe('/vault/.lithos/models/Xenova/all-MiniLM-L6-v2');
    expect(modelFolder('C:\\Vault\\.lithos\\models', 'Xenova/all-MiniLM-L6-v2')).toBe('C:\\Vault\\.lithos\\models\\Xenova\\all-MiniLM-L6-v2');
  });

  it('does not double a trailing separator', () => {
    expect(modelFolder('/models/', 'a/b')).toBe('/models/a/b');
    expect(modelFolder('D:\\models\\', 'a/b')).toBe('D:\\models\\a\\b');
  });
});

describe('spaceIdForModel', () => {
  it('gives every export of all-MiniLM-L6-v2 the one space id minilm-l6-v2', () => {
    expect(MINILM_SPACE_ID).toBe('minilm-l6-v2');
    for (const id of ['Xenova/all-MiniLM-L6-v2', 'sentence-transformers/all-MiniLM-L6-v2', 'onnx-community/all-MiniLM-L6-v2-ONNX']) {
      expect(spaceIdForModel(id)).toBe('minilm-l6-v2');
    }
  });

  it('derives a distinct, stable id for other models', () => {
    expect(spaceIdForModel('Xenova/bge-small-en-v1.5')).toBe('hf-xenova-bge-small-en-v1-5');
    expect(spaceIdForModel('Xenova/all-MiniLM-L12-v2')).not.toBe('minilm-l6-v2');
  });
});
