import { openHarness } from './harness';

/** Links in frontmatter properties are links: in the graph, as backlinks, broken when unresolved, and after a warm start. */
test('a property link resolves, shows as a backlink, survives a reopen, and a broken one is listed', async () => {
  const files = {
    'Pool sizing.md': '---\nrelated: "[[Index]]"\nup: ["[[Atlas]]", "[[Nowhere]]"]\n---\nThe pool was too small.\n',
    'Index.md': 'The missing index.\n',
    'Atlas.md': 'The project.\n',
  };
  const h = await openHarness(files);
  await h.engine.reconcile();
  const targets = (p: string) => h.engine.services.notes.links(p).map((l) => [l.link.target, l.link.property ?? null, l.targetPath ?? null]);
  expect(targets('Pool sizing.md')).toEqual([
    ['Index', 'related', 'Index.md'],
    ['Atlas', 'up.0', 'Atlas.md'],
    ['Nowhere', 'up.1', null],
  ]);
  expect(h.engine.services.notes.backlinks('Index.md')).toEqual(['Pool sizing.md']);
  expect(h.engine.services.notes.backlinks('Atlas.md')).toEqual(['Pool sizing.md']);
  const cold = targets('Pool sizing.md');
  await h.engine.close();

  // Warm: the links come back from the cache, property included.
  const again = await openHarness(files, { vault: h.vault, blobs: h.blobs, clock: h.clock });
  await again.engine.reconcile();
  expect(again.engine.services.notes.links('Pool sizing.md').map((l) => [l.link.target, l.link.property ?? null, l.targetPath ?? null])).toEqual(cold);
  expect(again.engine.services.notes.backlinks('Index.md')).toEqual(['Pool sizing.md']);
  await again.engine.close();
});
