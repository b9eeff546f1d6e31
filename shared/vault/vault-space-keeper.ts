import type { BlobStore, Embedder, Logger } from '../ports';
import type { VaultSpaceModel } from '../index/embedders/vault-space';
import { asLithosError } from '../errors';
import type { CacheStore } from '../stores/cache-store';
import type { LiveNote } from './note-indexer';

/**
 * Keeps a vault-learned space (index/embedders/vault-space.ts) in step with the notes, as a further space
 * beside the primary one: `refresh()` (after a reconcile, or whenever the host likes) counts what changed,
 * refits when the model's rule says so, keeps the fit in a blob, and re-embeds every note when the fit
 * changed (the old vectors are dropped: vectors of two fits are not comparable).
 *
 * At the first refresh after a restart the saved fit is taken back instead of refitting, so a reopen costs a
 * recount, not a fit, and cached vectors stay valid. Notes edited while closed count towards the next refit
 * from then on.
 */
export interface KeeperDeps {
  model: VaultSpaceModel;
  /** Every live note's id and text (title and chunk texts), read at each refresh. */
  texts(): Iterable<[string, string]>;
  search: {
    addSpace(space: Embedder): Promise<number>;
    removeSpace(spaceId: string): boolean;
    activeSpaces(): string[];
    cache: { retireSpace(spaceId: string): void };
  };
  blobs: BlobStore;
  logger: Logger;
}

/** The text a note teaches the space: its title and its chunks, as the cache holds them. */
export function* noteTexts(notes: Iterable<LiveNote>, cache: Pick<CacheStore, 'chunks'>): Iterable<[string, string]> {
  for (const n of notes) yield [n.nodeId, [n.cached.meta.title, ...cache.chunks(n.nodeId).map((c) => c.text)].join('\n')];
}

export type RefreshOutcome = 'fitted' | 'restored' | 'unchanged' | 'untrained';

export function vaultSpaceBlob(spaceId: string): string {
  return `${spaceId}.fit`;
}

export class VaultSpaceKeeper {
  private restoreTried = false;

  constructor(private readonly d: KeeperDeps) {}

  async refresh(): Promise<RefreshOutcome> {
    const { model, search } = this.d;
    const seen = new Set<string>();
    for (const [id, text] of this.d.texts()) {
      seen.add(id);
      model.set(id, text);
    }
    for (const id of model.ids()) if (!seen.has(id)) model.remove(id);

    if (!this.restoreTried) {
      this.restoreTried = true;
      const restored = await this.restore();
      if (restored) {
        if (!search.activeSpaces().includes(model.spaceId)) await search.addSpace(restored);
        return 'restored';
      }
    }
    if (!model.refitDue()) return model.current() ? 'unchanged' : 'untrained';
    const embedder = model.fit();
    search.removeSpace(model.spaceId);
    search.cache.retireSpace(model.spaceId);
    const bytes = model.save();
    if (!embedder || !bytes) {
      await this.d.blobs.remove(vaultSpaceBlob(model.spaceId));
      return 'untrained'; // too little text to learn from: the other spaces answer alone
    }
    await this.d.blobs.writeAtomic(vaultSpaceBlob(model.spaceId), bytes);
    await search.addSpace(embedder);
    return 'fitted';
  }

  private async restore(): Promise<Embedder | null> {
    const bytes = await this.d.blobs.read(vaultSpaceBlob(this.d.model.spaceId));
    if (!bytes) return null;
    try {
      return this.d.model.restore(bytes);
    } catch (err) {
      // A damaged fit costs a refit, nothing else: the counts come from the notes.
      this.d.logger.warn('vault-learned word vectors unreadable; refitting', { error: asLithosError(err).message });
      return null;
    }
  }
}
