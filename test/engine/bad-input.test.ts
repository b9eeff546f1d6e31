import { note, openHarness, paths } from './harness';

const big = 'lorem ipsum dolor '.repeat(300_000); // ≈ 5.4 MB

describe('bad input: each note is still indexed, the problem is listed, nothing else is lost', () => {
  const files: Record<string, string | Uint8Array> = {
    'malformed.md': '---\ntags: [unclosed\ntitle: x\n---\nmalformed yaml body with zebras',
    'list.md': '---\n- a\n- b\n---\nfrontmatter that is a list, with giraffes',
    'types.md': note({ tags: 'alpha, beta', confidence: 'high', note_type: 'memo' }, 'wrong types with walruses'),
    'huge.md': `# Huge\n${big}`,
    'empty.md': '',
    'binary.md': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x1a, 0x0a, 0xff, 0xfe]),
    'Ünïcødé 🚀 notes/space name ✨.md': 'unicode path with narwhals and 日本語のテキスト',
    'good.md': 'a perfectly good note about zebras',
  };

  test('everything is indexed without a crash and doctor lists each problem', async () => {
    const h = await openHarness(files);
    const report = await h.engine.reconcile();
    expect(report.errors).toEqual([]);
    expect(report.notes).toBe(Object.keys(files).length);

    expect(await paths(h.engine, 'zebras')).toEqual(expect.arrayContaining(['malformed.md', 'good.md']));
    expect(await paths(h.engine, 'giraffes')).toEqual(['list.md']);
    expect(await paths(h.engine, 'walruses')).toEqual(['types.md']);
    expect(await paths(h.engine, 'narwhals')).toEqual(['Ünïcødé 🚀 notes/space name ✨.md']);

    const d = await h.engine.doctor();
    const codes = (p: string) => d.problems.filter((x) => x.path === p).map((x) => x.code);
    expect(codes('malformed.md')).toContain('yaml_malformed');
    expect(codes('list.md')).toContain('frontmatter_not_mapping');
    expect(codes('types.md')).toEqual(expect.arrayContaining(['wrong_type', 'unknown_enum']));
    expect(codes('huge.md')).toContain('note_too_large');
    expect(codes('binary.md')).toContain('binary_file');
    expect(codes('good.md')).toEqual([]);
    expect(codes('empty.md')).toEqual([]);
  });

  test('the engine never rewrites a note it only read', async () => {
    const h = await openHarness(files);
    const before = new Map(h.vault.paths().map((p) => [p, h.vault.text(p)]));
    await h.engine.reconcile();
    await h.engine.close();
    for (const p of h.vault.paths()) expect(h.vault.text(p)).toBe(before.get(p));
  });

  test('a store file cut in half is set aside and rebuilt from the Markdown with a warning', async () => {
    const h = await openHarness({ 'a.md': 'durable otters', 'b.md': 'durable beavers' });
    await h.engine.reconcile();
    await h.engine.close();
    for (const name of await h.blobs.list()) if (name.endsWith('.sqlite')) h.blobs.truncate(name);
    const again = await openHarness({}, { vault: h.vault, blobs: h.blobs, clock: h.clock });
    expect(again.engine.warnings.length).toBeGreaterThan(0);
    await again.engine.reconcile();
    expect(await paths(again.engine, 'otters')).toEqual(['a.md']);
    expect((await h.blobs.list()).some((n) => n.includes('.corrupt-'))).toBe(true);
    // Said once at that open; doctor does not repeat it for a copy the open already named.
    expect((await again.engine.doctor()).warnings).toEqual(again.engine.warnings);
    await again.engine.close();
    // Opened later (the reset may have happened in a process whose log nobody read): doctor still says it.
    const later = await openHarness({}, { vault: h.vault, blobs: h.blobs, clock: h.clock });
    expect(later.engine.warnings).toEqual([]);
    const told = (await later.engine.doctor()).warnings;
    expect(told.length).toBeGreaterThan(0);
    expect(told.every((w) => /\.corrupt-.*set aside here and started afresh/.test(w))).toBe(true);
    await later.engine.close();
  });

  test('memory.sqlite cut in half and its journal gone, while the index cache survives: every note keeps its id, also after an edit', async () => {
    const fmId = '0b8a1c1e-3f0e-4d7a-9a55-1f2e3d4c5b6a';
    const h = await openHarness({ 'a.md': 'durable otters', 'b.md': note({ id: fmId }, 'durable beavers') });
    await h.engine.reconcile();
    const ids = { a: h.engine.services.notes.note('a.md')!.nodeId, b: h.engine.services.notes.note('b.md')!.nodeId };
    expect(ids.b).toBe(fmId);
    await h.engine.close();
    h.blobs.truncate('memory.sqlite');
    h.blobs.files.delete('memory.journal'); // with it, memory.sqlite would be rebuilt whole (docs/data-model.md)

    const again = await openHarness({}, { vault: h.vault, blobs: h.blobs, clock: h.clock });
    expect(again.engine.warnings.join('\n')).toMatch(/2 note id\(s\) missing from memory.sqlite were registered again/);
    expect(again.engine.services.learning.memory.nodes.byPath('a.md')).toMatchObject({ node_id: ids.a, id_source: 'registry' });
    expect(again.engine.services.learning.memory.nodes.byPath('b.md')).toMatchObject({ node_id: fmId, id_source: 'frontmatter' });
    // Without a registry row, this edit used to give a.md (no frontmatter id) a new id.
    h.vault.put('a.md', 'durable otters, edited');
    await again.engine.reconcile();
    expect(again.engine.services.notes.note('a.md')!.nodeId).toBe(ids.a);
    expect(again.engine.services.learning.memory.counts().nodes).toBe(2);
    await again.engine.close();

    // The restored registry was persisted: the next start has nothing to adopt.
    const third = await openHarness({}, { vault: h.vault, blobs: h.blobs, clock: h.clock });
    expect(third.engine.warnings).toEqual([]);
    expect(third.engine.services.notes.note('a.md')!.nodeId).toBe(ids.a);
    await third.engine.close();
  });

  test('memory.sqlite deleted by hand: the same, the notes keep their ids', async () => {
    const h = await openHarness({ 'a.md': 'durable otters' });
    await h.engine.reconcile();
    const id = h.engine.services.notes.note('a.md')!.nodeId;
    await h.engine.close();
    await h.blobs.remove('memory.sqlite');
    await h.blobs.remove('memory.journal');
    const again = await openHarness({}, { vault: h.vault, blobs: h.blobs, clock: h.clock });
    expect(again.engine.services.learning.memory.nodes.byPath('a.md')?.node_id).toBe(id);
    h.vault.put('a.md', 'durable otters, edited');
    await again.engine.reconcile();
    expect(again.engine.services.notes.note('a.md')!.nodeId).toBe(id);
    await again.engine.close();
  });

  test('empty vault, empty query and a 10,000-character query return cleanly', async () => {
    const h = await openHarness({});
    expect(await h.engine.reconcile()).toMatchObject({ notes: 0 });
    expect(await h.engine.services.search.search('')).toEqual([]);
    expect(await h.engine.services.search.search('x'.repeat(10_000))).toEqual([]);
    await expect(h.engine.services.search.search('q', { k: 0 })).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});
