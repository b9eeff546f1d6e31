import { decodeCachedMeta, decodeCachedMetaBytes, encodeCachedMeta, type CachedNoteMeta } from '../../shared/vault/cached-note';
import { parseNote } from '../../shared/model/note';

function cachedOf(path: string, text: string): CachedNoteMeta {
  const p = parseNote(path, text);
  return { meta: p.meta, headings: p.headings, links: p.links, problems: p.problems, hasFrontmatter: p.hasFrontmatter };
}

const NOTE = '---\ntitle: Otters\ntags: [a, "b\\nc"]\nconfidence: high\n---\n# Otters\nSee [[Rivers|the rivers]] and ![[pic.png]] and [x](Sea%20otters.md).\n';

describe('cached note meta', () => {
  it('round-trips, links included, whatever the strings hold', () => {
    const m = cachedOf('a/Otters.md', NOTE);
    expect(m.links.length).toBeGreaterThan(1);
    expect(m.problems.length).toBeGreaterThan(0);
    const back = decodeCachedMeta(encodeCachedMeta(m))!;
    expect({ ...back }).toEqual(m);
    expect(encodeCachedMeta(back)).toBe(encodeCachedMeta(m));
  });

  it('reads the links only when asked, and lets them be replaced', () => {
    const text = encodeCachedMeta(cachedOf('a.md', NOTE));
    const broken = `${text.slice(0, text.indexOf('\n'))}\n[{"raw": oops`;
    const m = decodeCachedMeta(broken)!;
    expect(m.meta.title).toBe('Otters'); // the rest decodes although the links part is damaged
    expect(m.links).toEqual([]);
    m.links = cachedOf('a.md', NOTE).links;
    expect(m.links).toHaveLength(cachedOf('a.md', NOTE).links.length);
  });

  it('still reads a row written as one JSON text, and refuses what is not a cached note', () => {
    const m = cachedOf('a.md', NOTE);
    expect({ ...decodeCachedMeta(JSON.stringify(m))! }).toEqual(m);
    for (const bad of ['', 'null', '{"meta": {}}', '{"meta": {}, "problems": []}', 'not json\n[]']) expect(decodeCachedMeta(bad)).toBeNull();
  });

  it('decodes the same from the stored UTF-8, links from the bytes when asked, whatever the form', () => {
    const utf8 = (t: string): Uint8Array => new TextEncoder().encode(t);
    const m = cachedOf('a/Otters.md', NOTE);
    const text = encodeCachedMeta(m);
    expect({ ...decodeCachedMetaBytes(utf8(text))! }).toEqual(m);
    expect({ ...decodeCachedMetaBytes(utf8(JSON.stringify(m)))! }).toEqual(m); // one JSON text, links inside
    const broken = decodeCachedMetaBytes(utf8(`${text.slice(0, text.indexOf('\n'))}\n[{"raw": oops`))!;
    expect(broken.meta.title).toBe('Otters');
    expect(broken.links).toEqual([]);
    for (const bad of ['', 'null', '{"meta": {}}', 'not json\n[]']) expect(decodeCachedMetaBytes(utf8(bad))).toBeNull();
  });
});
