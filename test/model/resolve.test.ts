import { LinkResolver } from '../../shared/model/resolve';

const ID = '3f2b1c9e-1234-4abc-8def-0123456789ab';

function resolverWith(paths: string[]): LinkResolver {
  const r = new LinkResolver();
  for (const p of paths) r.upsert(p, {});
  return r;
}

describe('LinkResolver: resolution order', () => {
  const r = resolverWith([
    'Design.md',
    'project/Design.md',
    'project/lithos/Design.md',
    'project/lithos/Plan.md',
    'archive/Plan.md',
    'notes/Unique Note.md',
    'Café.md',
  ]);

  it.each([
    ['an exact vault path without .md', 'project/lithos/Plan', 'x.md', 'project/lithos/Plan.md'],
    ['an exact vault path with .md', 'project/lithos/Plan.md', 'x.md', 'project/lithos/Plan.md'],
    ['an exact path in another case', 'PROJECT/lithos/plan', 'x.md', 'project/lithos/Plan.md'],
    ['a vault-absolute path', '/archive/Plan', 'x.md', 'archive/Plan.md'],
    ['an exact root path over a same-folder basename', 'Design', 'project/lithos/Other.md', 'Design.md'],
    ['a path relative to the source folder', 'lithos/Plan.md', 'project/Index.md', 'project/lithos/Plan.md'],
    ['a ../ path', '../Design.md', 'project/lithos/Plan.md', 'project/Design.md'],
    ['a ./ path', './Plan.md', 'archive/Index.md', 'archive/Plan.md'],
    ['a URL-decoded name', 'Unique Note', 'x.md', 'notes/Unique Note.md'],
    ['a basename in another case', 'unique NOTE', 'x.md', 'notes/Unique Note.md'],
    ['a basename with .md', 'Unique Note.md', 'x.md', 'notes/Unique Note.md'],
    ['a partial path matching the end of a path', 'lithos/Plan', 'elsewhere/x.md', 'project/lithos/Plan.md'],
    ['a Unicode name in decomposed form', 'Cafe\u0301', 'x.md', 'Café.md'],
  ])('finds %s', (_name, target, from, expected) => {
    expect(r.resolve(target, from)).toBe(expected);
  });

  it.each([
    ['a missing note', 'Nowhere'],
    ['an attachment', 'diagram.png'],
    ['a partial path that matches no path end', 'other/Plan'],
  ])('returns null for %s', (_name, target) => {
    expect(r.resolve(target, 'project/x.md')).toBeNull();
  });

  it('falls back to the basename when a relative path leads nowhere (e.g. the target moved)', () => {
    expect(r.resolve('../../Unique Note.md', 'project/x.md')).toBe('notes/Unique Note.md');
    expect(r.resolve('../gone/Unique Note.md', 'project/x.md')).toBeNull();
    expect(r.resolve('../../Design.md', 'project/x.md')).toBe('project/Design.md');
  });

  it('resolves an empty target (a [[#heading]] link) to the source note itself', () => {
    expect(r.resolve('', 'project/lithos/Plan.md')).toBe('project/lithos/Plan.md');
    expect(r.resolve('', 'not-registered.md')).toBeNull();
  });

  it('falls back to aliases, then ids, then titles, case-insensitively', () => {
    const s = new LinkResolver();
    s.upsert('a/Alpha.md', { aliases: ['First Letter'], id: ID, title: 'The Alpha Note' });
    s.upsert('b/First Letter Other.md', { title: 'First Letter' });
    expect(s.resolve('first letter', 'x.md')).toBe('a/Alpha.md');
    expect(s.resolve(ID.toUpperCase(), 'x.md')).toBe('a/Alpha.md');
    expect(s.resolve('the alpha note', 'x.md')).toBe('a/Alpha.md');
  });

  it('prefers a basename over an alias of another note', () => {
    const s = new LinkResolver();
    s.upsert('z/Other.md', { aliases: ['Target'] });
    s.upsert('y/Target.md', {});
    expect(s.resolve('Target', 'x.md')).toBe('y/Target.md');
  });
});

describe('LinkResolver: ambiguous basenames', () => {
  const paths = ['b/deep/er/Note.md', 'a/Note.md', 'c/Note.md', 'zz/Note.md', 'a/sub/Note.md'];

  it('prefers the note in the linking note’s folder', () => {
    expect(resolverWith(paths).resolve('Note', 'c/Index.md')).toBe('c/Note.md');
    expect(resolverWith(paths).resolve('Note', 'a/sub/Index.md')).toBe('a/sub/Note.md');
  });

  it('else the shortest path, then alphabetical, whatever the insertion order', () => {
    const expected = 'a/Note.md';
    for (const order of [paths, [...paths].reverse(), [paths[2], paths[0], paths[4], paths[1], paths[3]]]) {
      expect(resolverWith(order).resolve('Note', 'elsewhere/Index.md')).toBe(expected);
    }
  });

  it('applies the same tie-break to shared aliases', () => {
    const r = new LinkResolver();
    r.upsert('long/path/One.md', { aliases: ['Shared'] });
    r.upsert('b/Two.md', { aliases: ['Shared'] });
    r.upsert('a/Six.md', { aliases: ['shared'] });
    expect(r.resolve('Shared', 'x.md')).toBe('a/Six.md');
    expect(r.resolve('Shared', 'long/path/x.md')).toBe('long/path/One.md');
  });

  it('prefers the exact spelling when two paths differ only in case', () => {
    const r = resolverWith(['Notes/Plan.md', 'notes/plan.md']);
    expect(r.resolve('notes/plan', 'x.md')).toBe('notes/plan.md');
    expect(r.resolve('Notes/Plan', 'x.md')).toBe('Notes/Plan.md');
  });
});

describe('LinkResolver: keeping up with the vault', () => {
  it('forgets removed notes and their aliases, ids and titles', () => {
    const r = new LinkResolver();
    r.upsert('a/Alpha.md', { aliases: ['A1'], id: ID, title: 'Alpha title' });
    r.remove('a/Alpha.md');
    for (const t of ['Alpha', 'a/Alpha', 'A1', ID, 'Alpha title']) expect(r.resolve(t, 'x.md')).toBeNull();
    expect(r.size).toBe(0);
  });

  it('re-indexes on upsert: old aliases stop resolving, new ones start', () => {
    const r = new LinkResolver();
    r.upsert('a/Alpha.md', { aliases: ['Old'] });
    r.upsert('a/Alpha.md', { aliases: ['New'] });
    expect(r.resolve('Old', 'x.md')).toBeNull();
    expect(r.resolve('New', 'x.md')).toBe('a/Alpha.md');
    expect(r.size).toBe(1);
  });

  it('moves a note on rename, keeping its aliases and id', () => {
    const r = new LinkResolver();
    r.upsert('a/Alpha.md', { aliases: ['A1'], id: ID });
    r.rename('a/Alpha.md', 'b/Beta.md');
    expect(r.has('a/Alpha.md')).toBe(false);
    expect(r.resolve('Alpha', 'x.md')).toBeNull();
    expect(r.resolve('Beta', 'x.md')).toBe('b/Beta.md');
    expect(r.resolve('A1', 'x.md')).toBe('b/Beta.md');
    expect(r.resolve(ID, 'x.md')).toBe('b/Beta.md');
  });

  it('ignores a rename of an unknown note', () => {
    const r = resolverWith(['a.md']);
    r.rename('missing.md', 'b.md');
    expect([r.size, r.has('b.md')]).toEqual([1, false]);
  });

  it('changes the basename winner when a closer note appears or leaves', () => {
    const r = resolverWith(['long/folder/Note.md']);
    expect(r.resolve('Note', 'x.md')).toBe('long/folder/Note.md');
    r.upsert('b/Note.md', {});
    expect(r.resolve('Note', 'x.md')).toBe('b/Note.md');
    r.remove('b/Note.md');
    expect(r.resolve('Note', 'x.md')).toBe('long/folder/Note.md');
  });

  it('handles 10k notes with 10 links each (every target found)', () => {
    const r = new LinkResolver();
    for (let i = 0; i < 10_000; i++) r.upsert(`f${i % 50}/Note ${i}.md`, { aliases: [`N${i}`] });
    let found = 0;
    for (let i = 0; i < 10_000; i++) {
      for (let j = 0; j < 10; j++) {
        const k = (i * 7 + j * 13) % 10_000;
        const target = j % 3 === 0 ? `N${k}` : j % 3 === 1 ? `Note ${k}` : `f${k % 50}/Note ${k}`;
        if (r.resolve(target, `f${i % 50}/Note ${i}.md`) === `f${k % 50}/Note ${k}.md`) found++;
      }
    }
    expect(found).toBe(100_000);
  });
});
