import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openVault } from '../../bridge/open-vault';
import { silentLogger } from '../../shared/ports';
import { cli } from './run-cli';

/**
 * Spec (issue 22) on real folders: two devices — each its own copy of the vault and its own identity (its
 * config folder) — learn on one, the devices folder travels as a sync tool would carry it, and the other
 * has that learning after it opens the vault, with no command; `lithos devices` lists both.
 */
let root: string;
const xdg = process.env.XDG_CONFIG_HOME;

function device(name: string): { vault: string; config: string } {
  const vault = join(root, name, 'vault');
  const config = join(root, name, 'config');
  mkdirSync(config, { recursive: true });
  return { vault, config };
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lithos-devices-'));
  const a = device('laptop');
  mkdirSync(a.vault, { recursive: true });
  writeFileSync(join(a.vault, 'Pools.md'), '---\ntitle: Pools\n---\nThe connection pool holds twenty connections.\n');
  writeFileSync(join(a.vault, 'Garden.md'), '---\ntitle: Garden\n---\nRaised beds for tomatoes.\n');
  cpSync(a.vault, device('desktop').vault, { recursive: true });
});
afterEach(() => {
  process.env.XDG_CONFIG_HOME = xdg;
  rmSync(root, { recursive: true, force: true });
});

async function useOnce(vault: string): Promise<void> {
  const v = await openVault(vault, { write: true, logger: silentLogger });
  try {
    await v.reconcile();
    const r = await v.memory.retrieve({ query_text: 'connection pool size' });
    const pools = r.nodes.find((x) => x.path === 'Pools.md');
    expect(pools).toBeDefined();
    await v.memory.learning.feedback({ receipt_id: r.receipt_id ?? '', cited: [pools?.id ?? ''] });
  } finally {
    await v.close();
  }
}

async function useCount(vault: string): Promise<number> {
  const v = await openVault(vault, { write: true, logger: silentLogger });
  try {
    await v.reconcile();
    await v.memory.devices.sync();
    return v.memory.learning.nodeStats({ path: 'Pools.md' }).stats.use_count;
  } finally {
    await v.close();
  }
}

test('learning on one device reaches the other after the folder is carried, and both are listed', async () => {
  const [laptop, desktop] = [device('laptop'), device('desktop')];
  process.env.XDG_CONFIG_HOME = laptop.config;
  await useOnce(laptop.vault);
  const folder = join(laptop.vault, 'Lithos/Devices');
  expect(existsSync(folder)).toBe(true);
  const [mine] = readdirSync(folder);
  expect(readdirSync(join(folder, mine))).toEqual(expect.arrayContaining(['device.json', '000001.jsonl']));

  process.env.XDG_CONFIG_HOME = desktop.config;
  expect(await useCount(desktop.vault)).toBe(0);
  cpSync(folder, join(desktop.vault, 'Lithos/Devices'), { recursive: true }); // the sync tool carries the laptop's files
  expect(await useCount(desktop.vault)).toBe(1);

  const r = await cli('devices', desktop.vault, '--json');
  expect(r.code).toBe(0);
  const listed = r.json().devices as { this_device: boolean; name: string; rows: number; merged_at: string | null }[];
  expect(listed).toHaveLength(2);
  const other = listed.find((d) => !d.this_device);
  expect(other?.rows).toBeGreaterThan(0);
  expect(other?.name).toMatch(/^lithos on /);
  expect(other?.merged_at).not.toBeNull();
  const text = await cli('devices', desktop.vault);
  expect(text.out).toContain('Devices folder: Lithos/Devices');
});
