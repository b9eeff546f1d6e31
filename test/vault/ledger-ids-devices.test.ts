import { createDispatcher } from '../../shared/tools/dispatcher';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import type { ToolCaller } from '../../shared/tools/types';
import { openHarness } from '../engine/harness';
import { MemoryDeviceStore } from '../twins/memory-device-store';
import { MemorySyncFolder } from '../twins/memory-sync-folder';

/**
 * Spec (issues 20 and 22): a device's ledger allocations are mirrored into the devices folder, so another
 * device counts them even before the notes themselves (or a synced `.lithos/`) have arrived.
 */
const AGENT: ToolCaller = { kind: 'agent', agent_id: 'agent-a' };

async function openDevice(folder: MemorySyncFolder) {
  const device = new MemoryDeviceStore();
  const h = await openHarness({}, { deps: { device, syncFolder: () => folder } });
  await h.engine.reconcile();
  const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: h.engine, deleteTo: 'trash_folder' }));
  const claim = async (title: string): Promise<string> => {
    const r = await tools.call('lithos_write', { title, content: `${title}.`, note_type: 'claim', namespace: 'claims', evidence: ['metrics'] }, AGENT);
    return (r as { ledger_id: string }).ledger_id;
  };
  return { ...h, device, claim };
}

test('a device allocates after the numbers another device used, seen through the devices folder alone', async () => {
  const [fa, fb] = [new MemorySyncFolder(), new MemorySyncFolder()];
  const a = await openDevice(fa);
  expect((await a.claim('Pool is too small')).slice(0, 4)).toBe('E001');
  expect((await a.claim('Index is missing')).slice(0, 4)).toBe('E002');
  const mirror = [...fa.files.keys()].find((p) => p.endsWith('/ledger.jsonl'));
  expect(mirror).toBeDefined();
  const b = await openDevice(fb);
  for (const [p, v] of fa.files) fb.files.set(p, v.slice()); // the sync tool carries a's folder; its notes are still on the way
  expect((await b.claim('Cache is cold')).slice(0, 4)).toBe('E003');
  await a.engine.close();
  await b.engine.close();
});
