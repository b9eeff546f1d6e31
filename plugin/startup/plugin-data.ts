import { loadLithosData, type DataStore, type LithosData } from '../settings';

/**
 * data.json in memory, with saves serialised in call order (a later save never lands before an earlier
 * one). Also the crash-loop guard: `indexingSince` is written before the engine opens and indexes, and
 * cleared when that first scan ends (or the plugin unloads); found set at the next start, it means the
 * previous start died while indexing, and the plugin starts in safe mode.
 */
export class PluginDataFile {
  private chain: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly store: DataStore,
    readonly data: LithosData,
  ) {}

  static async load(store: DataStore): Promise<PluginDataFile> {
    return new PluginDataFile(store, await loadLithosData(store));
  }

  /** Applies `fn` to the data now and saves it after any save already queued. */
  update(fn: (d: LithosData) => void): Promise<void> {
    fn(this.data);
    const snapshot = JSON.parse(JSON.stringify(this.data)) as LithosData;
    const next = this.chain.then(() => this.store.saveData(snapshot));
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Whether the previous start was cut short while indexing. */
  get crashedWhileIndexing(): boolean {
    return this.data.indexingSince !== null;
  }

  markIndexing(now: Date): Promise<void> {
    return this.update((d) => {
      d.indexingSince = now.toISOString();
    });
  }

  clearIndexing(): Promise<void> {
    if (this.data.indexingSince === null) return this.chain.then(() => undefined);
    return this.update((d) => {
      d.indexingSince = null;
    });
  }
}
