import { MemoryEngine, type EngineDeps } from '../../shared/engine';
import { MemoryVault } from '../twins/memory-vault';
import { MemoryBlobStore } from '../twins/memory-blobs';
import { FakeClock } from '../twins/fake-clock';
import { loadSql } from '../twins/sql';

export interface Harness {
  vault: MemoryVault;
  blobs: MemoryBlobStore;
  clock: FakeClock;
  engine: MemoryEngine;
}

/** An engine over in-memory twins; debounce timers fire only when the test advances the fake clock or settles. */
export async function openHarness(
  files: Record<string, string | Uint8Array> = {},
  over: Partial<Harness> & { deps?: Partial<EngineDeps> } = {},
): Promise<Harness> {
  const vault = over.vault ?? new MemoryVault(files);
  const blobs = over.blobs ?? new MemoryBlobStore();
  const clock = over.clock ?? new FakeClock();
  const engine = await MemoryEngine.open({
    vault,
    blobs,
    sql: await loadSql(),
    clock,
    timers: clock,
    debounceMs: 300,
    persistDebounceMs: 2000,
    ...over.deps,
  });
  return { vault, blobs, clock, engine };
}

export function note(fm: Record<string, unknown> | null, body: string): string {
  if (!fm) return body;
  const yaml = Object.entries(fm)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join('\n');
  return `---\n${yaml}\n---\n${body}`;
}

export async function paths(engine: MemoryEngine, q: string, mode: 'lexical' | 'hybrid' | 'vector' = 'lexical'): Promise<string[]> {
  return (await engine.services.search.search(q, { mode, k: 20 })).map((h) => h.path);
}
