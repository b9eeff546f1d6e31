import { Cooccurrence } from './cooccurrence';
import { SIF_A, SifEmbedder } from './sif-embedder';
import { decodeWordVectors, encodeWordVectors } from './word-vectors-codec';
import { DEFAULT_WORD_VECTOR_PARAMS, fitWordVectors, type WordVectorParams, type WordVectors } from './word-vectors';

/**
 * A semantic space learned from the vault itself, no download: the notes' own co-occurrence counts, kept
 * note by note (cooccurrence.ts), fitted into word vectors (word-vectors.ts) whose SIF-weighted mean is a
 * text's vector (sif-embedder.ts).
 *
 * Counts follow every change exactly; the fit is redone only when the text counted since the last fit has
 * changed by REFIT_SHARE of its tokens (added plus removed), since a refit changes every note's vector. So
 * right after a fit, vectors equal a fresh build's from the same notes bit for bit; in between, notes are
 * embedded with the last fit (a word first seen since then adds nothing until the next one).
 */
export const VAULT_SPACE_VERSION = 'v1';
export const REFIT_SHARE = 0.1;

export interface VaultSpaceOptions extends WordVectorParams {
  sifA: number;
  removeCommon: boolean;
}

export const DEFAULT_VAULT_SPACE_OPTIONS: VaultSpaceOptions = { ...DEFAULT_WORD_VECTOR_PARAMS, sifA: SIF_A, removeCommon: true };

export function vaultSpaceId(dims: number): string {
  return `vault-ppmi-${VAULT_SPACE_VERSION}-${dims}`;
}

export class VaultSpaceModel {
  readonly counts: Cooccurrence;
  private texts = new Map<string, string>();
  private fitted: WordVectors | null = null;
  private embedder: SifEmbedder | null = null;
  /** tokens added plus removed since the last fit */
  private churn = 0;
  /** fits done since construction (tests and receipts read it) */
  fits = 0;

  constructor(readonly options: VaultSpaceOptions = DEFAULT_VAULT_SPACE_OPTIONS) {
    this.counts = new Cooccurrence(options.window);
  }

  get spaceId(): string {
    return vaultSpaceId(this.options.dims);
  }

  /** Counts a note's text in (replacing its previous text, if any). */
  set(id: string, text: string): void {
    const old = this.texts.get(id);
    if (old === text) return;
    if (old !== undefined) this.remove(id);
    const before = this.counts.tokens;
    this.counts.update(text, 1);
    this.churn += this.counts.tokens - before;
    this.texts.set(id, text);
  }

  remove(id: string): void {
    const old = this.texts.get(id);
    if (old === undefined) return;
    const before = this.counts.tokens;
    this.counts.update(old, -1);
    this.churn += before - this.counts.tokens;
    this.texts.delete(id);
  }

  /** Ids of the texts counted in. */
  ids(): string[] {
    return [...this.texts.keys()];
  }

  /** Whether enough has changed since the last fit (or there never was one) for a refit to be due. */
  refitDue(): boolean {
    if (this.fitted === null) return this.churn > 0;
    return this.churn > REFIT_SHARE * Math.max(1, this.fitted.tokens);
  }

  /** Fits the word vectors from the counts now; returns the embedder, or null when the vault is too small. */
  fit(): SifEmbedder | null {
    this.fitted = fitWordVectors(this.counts, this.options);
    this.churn = 0;
    this.fits++;
    this.embedder = this.fitted ? new SifEmbedder(this.spaceId, this.fitted, this.options.sifA, this.options.removeCommon) : null;
    return this.embedder;
  }

  /** The last fit as bytes (word-vectors-codec.ts), to keep across restarts; null before a successful fit. */
  save(): Uint8Array | null {
    return this.fitted ? encodeWordVectors(this.spaceId, this.fitted) : null;
  }

  /**
   * Takes back a fit `save` wrote, after the notes it was fitted on have been counted again (set): churn
   * starts from zero there, so only what changes from now on counts towards the next refit. Throws
   * `store_corrupt` for bytes that are not a fit of this space (the caller then refits).
   */
  restore(bytes: Uint8Array): SifEmbedder {
    this.fitted = decodeWordVectors(bytes, this.spaceId);
    this.churn = 0;
    this.embedder = new SifEmbedder(this.spaceId, this.fitted, this.options.sifA, this.options.removeCommon);
    return this.embedder;
  }

  /** The embedder of the last fit; null before any fit or when the vault was too small to learn from. */
  current(): SifEmbedder | null {
    return this.embedder;
  }

  wordVectors(): WordVectors | null {
    return this.fitted;
  }
}
