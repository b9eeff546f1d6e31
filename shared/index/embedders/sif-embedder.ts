import type { Embedder } from '../../ports';
import { tokenize } from '../tokenizer';
import type { WordVectors } from './word-vectors';

/**
 * Text vectors from vault-learned word vectors by smooth inverse frequency (Arora, Liang & Ma 2017): the
 * mean of the text's word vectors, each weighted a / (a + p(word)) so frequent words count little, minus
 * the part along the corpus's common direction (here the SIF-weighted mean word vector, which the counts
 * alone give: no pass over the notes). Words the vault never taught give nothing; a text of only such words
 * is the zero vector, which matches nothing (vector-space.ts) rather than matching at random.
 */
export const SIF_A = 1e-3;

export class SifEmbedder implements Embedder {
  readonly dimensions: number;
  private readonly index = new Map<string, number>();
  private readonly weight: Float64Array;
  private readonly common: Float64Array | null;

  constructor(
    readonly spaceId: string,
    private readonly wv: WordVectors,
    readonly a = SIF_A,
    removeCommon = true,
  ) {
    this.dimensions = wv.dims;
    wv.words.forEach((w, i) => this.index.set(w, i));
    this.weight = new Float64Array(wv.words.length);
    for (let i = 0; i < wv.words.length; i++) this.weight[i] = a / (a + wv.counts[i] / Math.max(1, wv.tokens));
    this.common = removeCommon ? this.commonDirection() : null;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedOne(t));
  }

  embedOne(text: string): Float32Array {
    const d = this.dimensions;
    const sum = new Float64Array(d);
    for (const w of tokenize(text)) {
      const i = this.index.get(w);
      if (i === undefined) continue;
      const wt = this.weight[i];
      for (let c = 0, b = i * d; c < d; c++) sum[c] += wt * this.wv.vectors[b + c];
    }
    if (this.common) {
      let dot = 0;
      for (let c = 0; c < d; c++) dot += sum[c] * this.common[c];
      for (let c = 0; c < d; c++) sum[c] -= dot * this.common[c];
    }
    let norm = 0;
    for (let c = 0; c < d; c++) norm += sum[c] * sum[c];
    const out = new Float32Array(d);
    if (norm > 1e-24) {
      const inv = 1 / Math.sqrt(norm);
      for (let c = 0; c < d; c++) out[c] = sum[c] * inv;
    }
    return out;
  }

  /** Unit Σ p(w)·weight(w)·v(w): the direction every text's vector leans to, whatever it says. */
  private commonDirection(): Float64Array | null {
    const d = this.dimensions;
    const m = new Float64Array(d);
    for (let i = 0; i < this.wv.words.length; i++) {
      const f = (this.wv.counts[i] / Math.max(1, this.wv.tokens)) * this.weight[i];
      for (let c = 0, b = i * d; c < d; c++) m[c] += f * this.wv.vectors[b + c];
    }
    let norm = 0;
    for (let c = 0; c < d; c++) norm += m[c] * m[c];
    if (!(norm > 0)) return null;
    const inv = 1 / Math.sqrt(norm);
    for (let c = 0; c < d; c++) m[c] *= inv;
    return m;
  }
}
