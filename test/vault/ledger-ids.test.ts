import { createDispatcher } from '../../shared/tools/dispatcher';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import type { ToolCaller } from '../../shared/tools/types';
import { parseLedgerId } from '../../shared/model/ledger-id';
import { journalName, LEDGER_JOURNAL_DIR } from '../../shared/vault/ledger-ids';
import { openHarness, note, type Harness } from '../engine/harness';
import { MemoryDeviceStore } from '../twins/memory-device-store';
import { type MemoryBlobStore } from '../twins/memory-blobs';
import { MemoryVault } from '../twins/memory-vault';
import { type FakeClock } from '../twins/fake-clock';
import { codeOf } from '../twins/error-code';

const AGENT: ToolCaller = { kind: 'agent', agent_id: 'agent-a' };

interface Device extends Harness {
  device: MemoryDeviceStore;
  call(name: string, args: unknown, caller?: ToolCaller): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON results
}

/** One device's engine over a vault and its `.lithos/` files, called through the tools as the MCP server calls them. */
async function openDevice(over: { vault?: MemoryVault; blobs?: MemoryBlobStore; clock?: FakeClock; device?: MemoryDeviceStore } = {}): Promise<Device> {
  const device = over.device ?? new MemoryDeviceStore();
  const h = await openHarness({}, { vault: over.vault, blobs: over.blobs, clock: over.clock, deps: { device } });
  await h.engine.reconcile();
  h.engine.startWatching();
  const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: h.engine, deleteTo: 'trash_folder' }));
  return { ...h, device, call: (name, args, caller = AGENT) => tools.call(name, args, caller) };
}

async function claim(d: Device, title: string, content = `${title}: the evidence says so.`): Promise<{ id: string; path: string; ledger_id: string; version: string }> {
  const r = await d.call('lithos_write', { title, content, note_type: 'claim', namespace: 'claims', evidence: ['the pool metrics'] });
  const read = await d.call('lithos_read', { id: r.id });
  expect(r.ledger_id).toBe(read.ledger_id); // the write says which ID it allocated
  return { id: r.id, path: r.path, ledger_id: read.ledger_id, version: read.version };
}

const short = (id: string): string => id.slice(0, id.indexOf('-'));

describe('stable typed IDs: allocation', () => {
  test('three new claims get E001, E002, E003, tagged with this device, in their frontmatter and in read and search results', async () => {
    const d = await openDevice();
    const ids = [];
    for (const t of ['Pool is too small', 'Index is missing', 'Cache is cold']) ids.push((await claim(d, t)).ledger_id);
    const tag = d.device.record()!.tag;
    expect(ids).toEqual([`E001-${tag}`, `E002-${tag}`, `E003-${tag}`]);
    expect(d.vault.text('claims/Index is missing.md')).toContain(`ledger_id: E002-${tag}\n`);
    const hits = await d.call('lithos_search', { query: 'index missing', mode: 'lexical' });
    expect(hits.results[0]).toMatchObject({ path: 'claims/Index is missing.md', ledger_id: `E002-${tag}` });
    // Found by its ID too, short or full, as by an alias.
    for (const query of ['E002', `E002-${tag}`]) expect((await d.call('lithos_search', { query })).results[0].path).toBe('claims/Index is missing.md');
    // Another kind counts on its own: the first decision is D001.
    const dec = await d.call('lithos_write', { title: 'Use Postgres', content: 'We use Postgres.', note_type: 'decision', target: 'database' });
    expect((await d.call('lithos_read', { id: dec.id })).ledger_id).toBe(`D001-${tag}`);
    // Each allocation is audited before the ID is used.
    const audited = await d.engine.services.governance.audit.recent({ action: 'ledger.id_allocate' });
    expect(audited.map((e) => e.target).reverse()).toEqual([...ids, `D001-${tag}`]);
    await d.engine.close();
  });

  test('a note of another type gets no ID; changing its type to a ledger kind gives it the next one', async () => {
    const d = await openDevice();
    const r = await d.call('lithos_write', { title: 'Plain', content: 'Just an observation.' });
    expect((await d.call('lithos_read', { id: r.id })).ledger_id).toBeUndefined();
    const w = await d.call('lithos_write', { id: r.id, note_type: 'workflow', context: 'Pools run dry at night.', method: 'Raise the pool.', expected_version: r.version });
    expect((await d.call('lithos_read', { id: w.id })).ledger_id).toBe(`W001-${d.device.record()!.tag}`);
    await d.engine.close();
  });

  test('an agent may not choose a ledger_id: refused on create and when it differs; repeating the note\'s own is accepted', async () => {
    const d = await openDevice();
    const before = d.vault.paths();
    expect(await codeOf(d.call('lithos_write', { title: 'Chosen', content: 'x', note_type: 'claim', evidence: ['x'], ledger_id: 'E500-abcd' }))).toBe('invalid_argument');
    expect(d.vault.paths()).toEqual(before);
    const c = await claim(d, 'Own');
    expect(await codeOf(d.call('lithos_write', { id: c.id, ledger_id: 'E002-abcd', expected_version: c.version }))).toBe('invalid_argument');
    const ok = await d.call('lithos_write', { id: c.id, ledger_id: c.ledger_id, content: 'Own, with more evidence.', expected_version: c.version });
    expect((await d.call('lithos_read', { id: ok.id })).ledger_id).toBe(c.ledger_id);
    // The refused writes allocated nothing: the next claim is E002.
    expect((await claim(d, 'Next')).ledger_id).toBe(`E002-${d.device.record()!.tag}`);
    await d.engine.close();
  });

  test('a ledger note a person writes without an ID gets one at index time, in its frontmatter only; the body is untouched', async () => {
    const body = '# Sessions expire\nSessions expire after 30 minutes of idle time.\n';
    const d = await openDevice({ vault: new MemoryVault({ 'Sessions.md': note({ title: 'Sessions', note_type: 'claim' }, body) }) });
    const tag = d.device.record()!.tag;
    expect(d.vault.text('Sessions.md')).toContain(`\nledger_id: E001-${tag}\n---\n${body}`);
    // Written in Obsidian while the engine runs: after the note is quiet for a moment.
    d.vault.put('Later.md', note({ note_type: 'construct' }, 'The retry loop in client.ts.\n'));
    await d.engine.settle();
    expect(d.vault.text('Later.md')).toContain(`ledger_id: C001-${tag}`);
    expect(d.vault.text('Later.md')!.endsWith('---\nThe retry loop in client.ts.\n')).toBe(true);
    const audited = await d.engine.services.governance.audit.recent({ action: 'ledger.id_allocate' });
    expect(audited.map((e) => [e.target, e.actor.kind, e.data.path])).toEqual([
      [`C001-${tag}`, 'system', 'Later.md'],
      [`E001-${tag}`, 'system', 'Sessions.md'],
    ]);
    await d.engine.close();
  });

  test('an engine that must not change notes (doctor, read-only) gives no ID, and doctor lists the note as missing one', async () => {
    const vault = new MemoryVault({ 'Sessions.md': note({ note_type: 'claim' }, 'Sessions expire.\n') });
    const before = vault.text('Sessions.md');
    const h = await openHarness({}, { vault, deps: { assignLedgerIds: false } });
    await h.engine.reconcile();
    expect(vault.text('Sessions.md')).toBe(before);
    expect((await h.engine.doctor()).ledger_ids).toEqual([expect.objectContaining({ code: 'missing_ledger_id', path: 'Sessions.md' })]);
    await h.engine.close();
  });
});

describe('stable typed IDs: never reused', () => {
  test('delete + reopen: the deleted entry\'s number is not given again', async () => {
    const d = await openDevice();
    await claim(d, 'One');
    await claim(d, 'Two');
    const three = await claim(d, 'Three');
    await d.call('lithos_delete', { id: three.id, expected_version: three.version });
    await d.engine.close();
    const again = await openDevice({ vault: d.vault, blobs: d.blobs, clock: d.clock, device: d.device });
    expect(short((await claim(again, 'Four')).ledger_id)).toBe('E004');
    await again.engine.close();
  });

  test('restoring an older memory.sqlite (and losing any one other record) never brings a number back', async () => {
    // Each case removes what one kind of loss removes, on top of the older memory.sqlite.
    const losses: Record<string, (blobs: MemoryBlobStore, fingerprint: string) => void> = {
      'older memory.sqlite only': () => undefined,
      'and the journal': (b, f) => b.files.delete(journalName(f)),
      'and the audit trail': (b) => {
        b.files.delete('audit.jsonl');
        b.files.delete('audit.head.json');
      },
    };
    for (const [name, lose] of Object.entries(losses)) {
      const d = await openDevice();
      await claim(d, 'One');
      await d.engine.flush();
      const older = d.blobs.clone(); // the backup: memory.sqlite knows E001
      const two = await claim(d, 'Two');
      const three = await claim(d, 'Three');
      // The notes that held E002 and E003 are gone too (deleted, or never synced back).
      await d.call('lithos_delete', { id: three.id, expected_version: three.version });
      await d.call('lithos_delete', { id: two.id, expected_version: two.version });
      await d.engine.close();
      for (const f of [...d.blobs.files.keys()].filter((k) => k.startsWith('memory.'))) d.blobs.files.delete(f);
      for (const [f, bytes] of older.files) if (f.startsWith('memory.')) d.blobs.files.set(f, bytes);
      const fingerprint = [...d.blobs.files.keys()].find((k) => k.startsWith(LEDGER_JOURNAL_DIR))!.slice(LEDGER_JOURNAL_DIR.length, -'.jsonl'.length);
      lose(d.blobs, fingerprint);
      const again = await openDevice({ vault: d.vault, blobs: d.blobs, clock: d.clock, device: d.device });
      expect([name, short((await claim(again, 'Four')).ledger_id)]).toEqual([name, 'E004']);
      await again.engine.close();
    }
  });

  test('a crash mid-append leaves a torn journal line: the next open repairs the file and counts on', async () => {
    const d = await openDevice();
    await claim(d, 'One');
    await claim(d, 'Two');
    await d.engine.close();
    const name = [...d.blobs.files.keys()].find((k) => k.startsWith(LEDGER_JOURNAL_DIR))!;
    await d.blobs.append(name, new TextEncoder().encode('{"seq":9,"op":{"kind":"allocate","id":"E00'));
    const again = await openDevice({ vault: d.vault, blobs: d.blobs, clock: d.clock, device: d.device });
    expect(short((await claim(again, 'Three')).ledger_id)).toBe('E003');
    const lines = new TextDecoder().decode(d.blobs.files.get(name)).split('\n').filter((l) => l !== '');
    expect(lines.map((l) => (JSON.parse(l) as { op: { kind: string } }).op.kind)).toEqual(['device', 'allocate', 'allocate', 'allocate']);
    await again.engine.close();
  });

  test('an ID seen in the vault counts even when its note is deleted before anything was allocated here', async () => {
    const vault = new MemoryVault({ 'Imported.md': note({ note_type: 'claim', ledger_id: 'E041-zzzz' }, 'From another device.\n') });
    const d = await openDevice({ vault });
    await d.engine.services.notes.deleteNote('Imported.md', { trash: true });
    await d.engine.close();
    const again = await openDevice({ vault: d.vault, blobs: d.blobs, clock: d.clock, device: d.device });
    expect(short((await claim(again, 'Mine')).ledger_id)).toBe('E042');
    await again.engine.close();
  });
});

describe('stable typed IDs: two devices', () => {
  /** A copy of the vault and `.lithos/` as a sync client would hand it to a second device. */
  function copyVault(v: MemoryVault): MemoryVault {
    return new MemoryVault(Object.fromEntries(v.paths().map((p) => [p, v.text(p)!])));
  }

  test('two devices allocating at once from the same state never write the same ID; after sync both short forms are ambiguous and the next is E003', async () => {
    const a = await openDevice();
    await claim(a, 'Shared start');
    await a.engine.close();
    const vaultB = copyVault(a.vault);
    const blobsB = a.blobs.clone();
    const devA = await openDevice({ vault: a.vault, blobs: a.blobs, clock: a.clock, device: a.device });
    const devB = await openDevice({ vault: vaultB, blobs: blobsB });
    const [x, y] = await Promise.all([claim(devA, 'From A'), claim(devB, 'From B')]);
    expect(short(x.ledger_id)).toBe('E002');
    expect(short(y.ledger_id)).toBe('E002');
    expect(x.ledger_id).not.toBe(y.ledger_id);
    await devB.engine.close();
    // Sync brings B's note and B's journal to A.
    devA.vault.put('claims/From B.md', vaultB.text('claims/From B.md')!);
    for (const [f, bytes] of blobsB.files) if (f.startsWith(LEDGER_JOURNAL_DIR)) devA.blobs.files.set(f, bytes);
    devA.vault.put('Refs.md', note({ title: 'Refs' }, 'Both say E002, and A says [[' + x.ledger_id + ']].\n'));
    await devA.engine.settle();
    const problems = (await devA.engine.doctor()).ledger_ids;
    expect(problems).toEqual([
      expect.objectContaining({ code: 'ambiguous_ledger_ref', path: 'Refs.md', line: 4, ref: 'E002', candidates: expect.arrayContaining([{ path: 'claims/From A.md', ledger_id: x.ledger_id }, { path: 'claims/From B.md', ledger_id: y.ledger_id }]) }),
    ]);
    expect(short((await claim(devA, 'After sync')).ledger_id)).toBe('E003');
    await devA.engine.close();
  });

  test('a device whose tag another, older device already uses takes a new one before allocating', async () => {
    const a = await openDevice();
    await claim(a, 'First');
    await a.engine.close();
    const tagA = a.device.record()!.tag;
    // Device B came later and (by a one-in-a-million chance) drew the same tag.
    const deviceB = new MemoryDeviceStore();
    deviceB.text = JSON.stringify({ id: 'b'.repeat(26), tag: tagA, created: new Date(a.clock.now() + 60_000).toISOString() });
    const b = await openDevice({ vault: a.vault, blobs: a.blobs, clock: a.clock, device: deviceB });
    const second = await claim(b, 'Second');
    const tagB = deviceB.record()!.tag;
    expect(tagB).not.toBe(tagA);
    expect(second.ledger_id).toBe(`E002-${tagB}`);
    expect((await b.engine.services.governance.audit.recent({ action: 'ledger.device_tag' }))[0].data).toEqual({ from: tagA, to: tagB });
    await b.engine.close();
    // A keeps its tag.
    const a2 = await openDevice({ vault: a.vault, blobs: a.blobs, clock: a.clock, device: a.device });
    expect((await claim(a2, 'Third')).ledger_id).toBe(`E003-${tagA}`);
    await a2.engine.close();
  });
});

describe('stable typed IDs: references', () => {
  test('full, short, [[link]] and property references resolve like links: backlinks, lithos_links and lithos_read see them', async () => {
    const d = await openDevice();
    const one = await claim(d, 'One');
    const two = await claim(d, 'Two');
    d.vault.put(
      'Notes/Review.md',
      note({ title: 'Review', supersedes: [short(two.ledger_id)] }, `Contradicts ${short(one.ledger_id)}.\nSee [[${two.ledger_id}]] and \`E001\` in code.\n\n\`\`\`\nE002 in a block\n\`\`\`\n`),
    );
    await d.engine.settle();
    const links = d.engine.services.notes.links('Notes/Review.md').map((r) => [r.link.kind, r.link.target, r.targetPath]);
    expect(links).toEqual([
      ['ledger', 'E002', two.path],
      ['ledger', 'E001', one.path],
      ['wiki', two.ledger_id, two.path],
    ]);
    expect(d.engine.services.notes.backlinks(one.path)).toEqual(['Notes/Review.md']);
    const graph = await d.call('lithos_links', { id: one.id, direction: 'incoming' });
    expect(graph.incoming.map((r: { path: string }) => r.path)).toEqual(['Notes/Review.md']);
    expect((await d.call('lithos_read', { id: short(one.ledger_id) })).path).toBe(one.path);
    expect((await d.call('lithos_read', { id: two.ledger_id })).path).toBe(two.path);
    expect((await d.call('lithos_read', { title: `[[${short(two.ledger_id).toLowerCase()}]]`.slice(2, -2) })).path).toBe(two.path);
    await d.engine.close();
  });

  test('a reference written before its entry exists resolves once the entry gets the ID, and stops when a second E001 appears', async () => {
    const d = await openDevice();
    d.vault.put('Early.md', note({ title: 'Early' }, 'Waiting for E001.\n'));
    await d.engine.settle();
    expect(d.engine.services.notes.links('Early.md')[0].targetPath).toBeNull();
    const one = await claim(d, 'One');
    expect(d.engine.services.notes.backlinks(one.path)).toEqual(['Early.md']);
    // Another device's E001 synced in: the short form is ambiguous now, the full form still names one.
    d.vault.put('claims/Theirs.md', note({ note_type: 'claim', ledger_id: 'E001-zzzz' }, 'From elsewhere.\n'));
    await d.engine.settle();
    expect(d.engine.services.notes.backlinks(one.path)).toEqual([]);
    expect(d.engine.services.notes.note(one.ledger_id)?.path).toBe(one.path);
    await d.engine.close();
  });

  test('doctor reports an unresolved E999 with its note and line, a malformed ID and a duplicate (a copied file), and changes nothing', async () => {
    const d = await openDevice();
    const one = await claim(d, 'One');
    d.vault.put('Copy of One.md', d.vault.text(one.path)!);
    d.vault.put('Hand made.md', note({ note_type: 'claim', ledger_id: 'E5' }, 'Typed by hand.\n'));
    d.vault.put('Refs.md', note({ title: 'Refs' }, 'Intro.\nThis contradicts E999.\n'));
    await d.engine.settle();
    const files = Object.fromEntries(d.vault.paths().map((p) => [p, d.vault.text(p)]));
    const problems = (await d.engine.doctor()).ledger_ids;
    expect(problems.map((p) => [p.code, p.path, p.line ?? p.field])).toEqual([
      ['duplicate_ledger_id', 'Copy of One.md', 'ledger_id'],
      ['malformed_ledger_id', 'Hand made.md', 'ledger_id'],
      ['unresolved_ledger_ref', 'Refs.md', 5],
      ['duplicate_ledger_id', one.path, 'ledger_id'],
    ]);
    expect(problems[0].message).toContain('remove ledger_id from the others');
    expect(problems[2].ref).toBe('E999');
    expect(Object.fromEntries(d.vault.paths().map((p) => [p, d.vault.text(p)]))).toEqual(files);
    // Not listed twice: an ID reference is not also a broken link.
    expect((await d.engine.doctor()).broken_links).toEqual([]);
    expect(parseLedgerId('E999')).toMatchObject({ kind: 'claim', seq: 999, tag: null });
    await d.engine.close();
  });
});
