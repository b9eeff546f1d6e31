import { BRIDGE_FILE, BridgeFileSchema, type BridgeFile } from '../../shared/protocol/bridge-file';
import type { HostRuntime } from './host-runtime';
import { writeOwnerOnly } from './owner-only-file';

export async function writeBridgeFile(rt: HostRuntime, lithosDir: string, info: BridgeFile): Promise<void> {
  await writeOwnerOnly(rt, rt.path.join(lithosDir, BRIDGE_FILE), `${JSON.stringify(BridgeFileSchema.parse(info), null, 2)}\n`);
}

/** Removes bridge.json only while it still describes this host (another instance may have replaced it). */
export async function removeBridgeFile(rt: HostRuntime, lithosDir: string, mine: { pid: number; port: number }): Promise<void> {
  const file = rt.path.join(lithosDir, BRIDGE_FILE);
  try {
    const current = BridgeFileSchema.safeParse(JSON.parse(await rt.fs.readFile(file, 'utf8')));
    if (current.success && (current.data.pid !== mine.pid || current.data.port !== mine.port)) return;
  } catch {
    // missing or unreadable: remove whatever is there
  }
  await rt.fs.rm(file, { force: true });
}
