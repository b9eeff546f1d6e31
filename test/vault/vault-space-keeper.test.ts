import { openHarness, type Harness } from '../engine/harness';
import { MemoryVault } from '../twins/memory-vault';
import { DEFAULT_VAULT_SPACE_OPTIONS, VaultSpaceModel, type VaultSpaceOptions } from '../../shared/index/embedders/vault-space';
import { noteTexts, VaultSpaceKeeper, vaultSpaceBlob } from '../../shared/vault/vault-space-keeper';
import { silentLogger } from '../../shared/ports';

// minCount 2 leaves out the note numbers of the titles (each seen once): rare words would take the few dimensions.
const OPTIONS: VaultSpaceOptions = { ...DEFAULT_VAULT_SPACE_OPTIONS, dims: 12, minCount: 2, minPairCount: 1 };
const SPACE = 'vault-ppmi-v1-12';

/** Car and automobile notes share contexts and never a note; carpet and garden notes have their own. */
function files(count: number, from = 0): Record<string, string> {
  const topics = [
    { noun: 'car', ctx: ['engine', 'drove', 'highway', 'parked', 'garage', 'tyres', 'fuel', 'mechanic'] },
    { noun: 'automobile', ctx: ['engine', 'drove', 'highway', 'parked', 'garage', 'tyres', 'fuel', 'mechanic'] },
    { noun: 'carpet', ctx: ['vacuumed', 'living', 'room', 'floor', 'stain', 'cleaning', 'wool', 'hallway'] },
    { noun: 'tomatoes', ctx: ['planted', 'garden', 'raised', 'beds', 'spring', 'soil', 'compost', 'watered'] },
  ];
  const out: Record<string, string> = {};
  for (let n = from; n < from + count; n++) {
    const t = topics[n % topics.length];
    const words: string[] = [];
    for (let w = 0; w < 18; w++) words.push(w % 3 === 0 ? t.noun : t.ctx[(n * 7 + w * 5) % t.ctx.length]);
    out[`${t.noun}-${n}.md`] = `${words.join(' ')}\n`;
  }
  return out;
}

function keeperOf(h: Harness, model = new VaultSpaceModel(OPTIONS)): VaultSpaceKeeper {
  const { engine } = h;
  return new VaultSpaceKeeper({
    model,
    texts: () => noteTexts(engine.services.notes.notes(), engine.services.search.cache),
    search: engine.services.search,
    blobs: h.blobs,
    logger: silentLogger,
  });
}

async function vectorPaths(h: Harness, q: string): Promise<string[]> {
  return (await h.engine.services.search.search(q, { mode: 'vector', k: 5 })).map((x) => x.path);
}

describe('keeping the vault-learned space', () => {
  it('fits once the notes are indexed and finds automobile notes for a car question', async () => {
    const h = await openHarness(files(80));
    await h.engine.reconcile();
    const model = new VaultSpaceModel(OPTIONS);
    expect(await keeperOf(h, model).refresh()).toBe('fitted');
    expect(h.engine.services.search.activeSpaces()).toContain(SPACE);
    // The query's vector in this space against each note's stored one: "car" alone, which automobile notes never contain.
    const q = model.current()!.embedOne('car');
    const score = (kind: string) =>
      h.engine.services.notes
        .notes()
        .filter((n) => n.path.startsWith(`${kind}-`))
        .map((n) => h.engine.services.search.noteVector(n.nodeId, SPACE)!.reduce((sum, x, i) => sum + x * q[i], 0));
    expect(Math.min(...score('automobile'))).toBeGreaterThan(Math.max(...score('carpet')) + 0.5);
    expect(Math.min(...score('automobile'))).toBeGreaterThan(Math.max(...score('tomatoes')) + 0.5);
    await h.engine.close();
  });

  it('takes its fit back after a reopen instead of refitting, with the same results', async () => {
    const h = await openHarness(files(80));
    await h.engine.reconcile();
    await keeperOf(h).refresh();
    const before = await vectorPaths(h, 'garage fuel');
    await h.engine.close();
    expect(await h.blobs.read(vaultSpaceBlob(SPACE))).not.toBeNull();

    const again = await openHarness({}, { vault: h.vault, blobs: h.blobs });
    await again.engine.reconcile();
    expect(await keeperOf(again).refresh()).toBe('restored');
    expect(await vectorPaths(again, 'garage fuel')).toEqual(before);
    await again.engine.close();
  });

  it('refits after enough edits, and then equals a fresh build of the same notes', async () => {
    const h = await openHarness(files(80));
    await h.engine.reconcile();
    const keeper = keeperOf(h);
    await keeper.refresh();
    for (const [path, text] of Object.entries(files(20, 80))) await h.vault.write(path, text);
    await h.vault.delete('car-0.md');
    await h.engine.reconcile();
    expect(await keeper.refresh()).toBe('fitted');

    const fresh = await openHarness({}, { vault: new MemoryVault(Object.fromEntries(h.vault.paths().map((p) => [p, h.vault.text(p)!]))) });
    await fresh.engine.reconcile();
    await keeperOf(fresh).refresh();
    for (const q of ['car engine', 'stain on the wool', 'spring compost']) expect(await vectorPaths(h, q)).toEqual(await vectorPaths(fresh, q));
    await h.engine.close();
    await fresh.engine.close();
  });

  it('stays out of the way of a vault too small to learn from', async () => {
    const h = await openHarness({ 'a.md': 'one small note about a car' });
    await h.engine.reconcile();
    expect(await keeperOf(h).refresh()).toBe('untrained');
    expect(h.engine.services.search.activeSpaces()).not.toContain(SPACE);
    expect((await h.engine.services.search.search('car', { mode: 'hybrid' })).map((x) => x.path)).toEqual(['a.md']);
    await h.engine.close();
  });
});
