import { learnedState as sharedLearnedState } from '../../shared/replica/learned-state';
import { MemoryStore } from '../../shared/stores/memory-store';
import { Replicator } from '../../shared/replica/replicator';
import { NodeKeys } from '../../shared/replica/codec';
import { CoordinationStore } from '../../shared/coordination/coordination-store';
import { COORDINATION_CODECS } from '../../shared/coordination/coordination-codecs';
import type { CoordinationOp } from '../../shared/coordination/coordination-types';
import type { MemoryOp } from '../../shared/stores/memory-types';
import { CODECS } from '../../shared/replica/codecs';
import { MemorySyncFolder } from '../twins/memory-sync-folder';
import { env } from '../stores/helpers';
import { MemoryBlobStore } from '../twins/memory-blobs';
import { FakeClock } from '../twins/fake-clock';

/** Simulated devices for the replica specs and bench: each its own memory.sqlite and its own copy of the sync folder. */

export const NOTE_PATHS = ['a.md', 'notes/b.md', 'c.md', 'd.md', 'e.md'];
/** One note carries a frontmatter id (the same on every device); the others get a registry id per device. */
export const FRONTMATTER_ID = 'aaaaaaaa-0000-4000-8000-000000000001';

export interface SimDevice {
  clock: FakeClock;
  name: string;
  fp: string;
  store: MemoryStore;
  folder: MemorySyncFolder;
  replicator: Replicator<MemoryOp>;
  coordination: CoordinationStore;
  tasks: Replicator<CoordinationOp>;
  /** Local node id of a note path. */
  id(path: string): string;
}

const FP_CHARS = 'abcdefghijklmnopqrstuvwxyz234567';

/** Device `i`: a new memory.sqlite, or the one in `blobs` (a backup restored), and its own copy of the devices folder. */
export async function makeDevice(i: number, paths = NOTE_PATHS, blobs?: MemoryBlobStore): Promise<SimDevice & { blobs: MemoryBlobStore }> {
  const e = await env(blobs ?? new MemoryBlobStore(), new FakeClock(1_800_000_000_000 + i * 7)); // clocks that differ a little, as devices' do
  const { store } = await MemoryStore.open(e);
  if (!blobs) for (const [n, p] of paths.entries()) {
    const frontmatter = n === 0;
    await store.nodes.register({ node_id: frontmatter ? FRONTMATTER_ID : crypto.randomUUID(), path: p, id_source: frontmatter ? 'frontmatter' : 'registry', content_hash: `h-${p}` });
  }
  const fp = FP_CHARS[i].repeat(16);
  const folder = new MemorySyncFolder();
  const device = { fingerprint: fp, tag: fp.slice(0, 4), name: `device ${i}`, created: '2026-11-27T00:00:00.000Z' };
  const common = { nodes: new NodeKeys(store.nodes), folder, device, clock: e.clock, logger: e.logger };
  const replicator = new Replicator({ ...common, host: store, codecs: CODECS });
  const { store: coordination } = await CoordinationStore.open({ ...e, blobs: new MemoryBlobStore() });
  const tasks = new Replicator({ ...common, host: coordination, codecs: COORDINATION_CODECS, stream: 'tasks' });
  return { blobs: e.blobs, clock: e.clock, name: `device ${i}`, fp, store, folder, replicator, coordination, tasks, id: (p) => store.nodes.byPath(p)?.node_id ?? '' };
}

/** Learned state in portable form: what must be equal on every device once all files have travelled. */
export function learnedState(d: SimDevice): Record<string, string> {
  return sharedLearnedState(d.store);
}

/**
 * Carries one random file of `from`'s folder to `to`, as a sync tool might: whole, cut off mid-way (a
 * transfer in progress), or as a conflict copy beside the file.
 */
export function carryRandom(from: SimDevice, to: SimDevice, r: () => number): void {
  const files = [...from.folder.files.keys()].filter((p) => !p.includes('conflict'));
  if (files.length === 0) return;
  const path = files[Math.floor(r() * files.length)];
  const bytes = from.folder.files.get(path) as Uint8Array;
  const roll = r();
  if (roll < 0.2 && bytes.byteLength > 2) to.folder.files.set(path, bytes.slice(0, 1 + Math.floor(r() * (bytes.byteLength - 1))));
  else if (roll < 0.3 && path.endsWith('.jsonl')) to.folder.files.set(path.replace('.jsonl', ' (conflict 2026-11-27 101010).jsonl'), bytes.slice());
  else to.folder.files.set(path, bytes.slice());
}

/** Carries every device's own files, whole, to every other device. */
export function carryAll(devices: readonly SimDevice[]): void {
  for (const from of devices) {
    for (const [path, bytes] of from.folder.files) {
      if (!path.startsWith(`${from.fp}/`)) continue;
      for (const to of devices) if (to !== from) to.folder.files.set(path, bytes.slice());
    }
  }
}
