import type { EventRef } from 'obsidian';

/** The MetadataCache surface this needs. `resolved` is set by Obsidian at run time but not declared in its typings. */
export interface ResolvableCache {
  on(name: 'resolved', callback: () => unknown): EventRef;
  offref(ref: EventRef): void;
}

/**
 * Resolves once Obsidian's metadata cache has resolved every file's links at start-up (`resolved` true, or
 * the first 'resolved' event), so the first scan does not compete with Obsidian's own indexing. After
 * `fallbackMs` it resolves anyway: an Obsidian build without the flag may already have fired the event.
 */
export function whenMetadataResolved(
  cache: ResolvableCache,
  fallbackMs: number,
  timers: { set(fn: () => void, ms: number): unknown; clear(t: unknown): void },
  /** Hands the listener to the plugin (registerEvent), so unloading while waiting removes it. */
  register: (ref: EventRef) => void = () => undefined,
): Promise<void> {
  if ((cache as { resolved?: boolean }).resolved === true) return Promise.resolve();
  return new Promise((resolve) => {
    let timer: unknown = null;
    const ref = cache.on('resolved', () => done());
    register(ref);
    const done = (): void => {
      cache.offref(ref);
      if (timer !== null) timers.clear(timer);
      resolve();
    };
    timer = timers.set(done, fallbackMs);
  });
}
