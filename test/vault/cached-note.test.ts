import { CACHED_FORMAT, decodeCachedMeta, decodeCachedMetaBytes, encodeCachedMeta, peekLinks, type CachedNoteMeta } from '../../shared/vault/cached-note';
import { parseNote } from '../../shared/model/note';
import { extractFrame } from '../../shared/model/frames';

const FRAMES = CACHED_FORMAT;

function cachedOf(path: string, text: string): CachedNoteMeta {
  const p = parseNote(path, text);
  const frame = extractFrame(p.body, p.headings, { tags: p.meta.tags, title: p.meta.title });
  return { meta: p.meta, headings: p.headings, links: p.links, problems: p.problems, hasFrontmatter: p.hasFrontmatter, frame };
}

const NOTE = '---\ntitle: Otters\ntags: [a, "b\\nc"]\nconfidence: high\n---\n# Otters\nSee [[Rivers|the rivers]] and ![[pic.png]] and [x](Sea%20otters.md).\n' +
  '## Problem\nThe otters left the river.\n## Lessons\n- Keep the water "clean"\n';

describe('cached note meta', () => {
  it('round-trips, links included, whatever the strings hold', () => {
    const m = cachedOf('a/Otters.md', NOTE);
    expect(m.links.length).toBeGreaterThan(1);
    expect(m.problems.length).toBeGreaterThan(0);
    expect(m.frame?.lessons).toEqual(['Keep the water "clean"']);
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

  it('lets the links be peeked at without keeping them parsed; once read, a peek returns those', () => {
    const m = decodeCachedMetaBytes(new TextEncoder().encode(encodeCachedMeta(cachedOf('a.md', NOTE))))!;
    const peeked = peekLinks(m);
    expect(peeked).toEqual(cachedOf('a.md', NOTE).links);
    expect(peekLinks(m)).not.toBe(peeked); // parsed again: nothing was kept
    const read = m.links;
    expect(read).toEqual(peeked);
    expect(peekLinks(m)).toBe(read);
    const plain = cachedOf('a.md', NOTE); // as the indexer holds a note whose stored row would not decode
    expect(peekLinks(plain)).toBe(plain.links);
  });

  it('reads the frame only when asked: a damaged one leaves the note without a frame, the rest intact', () => {
    const text = encodeCachedMeta(cachedOf('a.md', NOTE));
    const m = decodeCachedMeta(`${text.slice(0, text.lastIndexOf('\n'))}\n{"problem": [oops`)!;
    expect(m.meta.title).toBe('Otters');
    expect(m.links.length).toBeGreaterThan(1);
    expect(m.frame).toBeNull();
    expect(decodeCachedMeta(`${text.slice(0, text.lastIndexOf('\n'))}\n{"problem": [1]}`)!.frame).toBeNull(); // not a frame's shape
    const noFrame = { ...cachedOf('a.md', '# Just a title\n'), frame: null };
    expect(decodeCachedMeta(encodeCachedMeta(noFrame))!.frame).toBeNull();
  });

  it('refuses a row stored without frames (an older Lithos): its note is indexed again', () => {
    const m = cachedOf('a.md', NOTE);
    const { meta, headings, problems, hasFrontmatter } = m;
    const older = `${JSON.stringify({ meta, headings, problems, hasFrontmatter })}\n${JSON.stringify(m.links)}`;
    expect(decodeCachedMeta(older)).toBeNull();
    expect(decodeCachedMetaBytes(new TextEncoder().encode(older))).toBeNull();
    const otherExtractor = encodeCachedMeta(m).replace(`"frames":"${FRAMES}"`, '"frames":"another-v1"');
    expect(otherExtractor).not.toBe(encodeCachedMeta(m));
    expect(decodeCachedMeta(otherExtractor)).toBeNull();
  });

  it('still reads a row written as one JSON text, and refuses what is not a cached note', () => {
    const m = cachedOf('a.md', NOTE);
    expect({ ...decodeCachedMeta(JSON.stringify({ ...m, frames: FRAMES }))! }).toEqual(m);
    expect(decodeCachedMeta(JSON.stringify(m))).toBeNull(); // no frames: written before they were stored
    for (const bad of ['', 'null', '{"meta": {}}', '{"meta": {}, "problems": []}', 'not json\n[]']) expect(decodeCachedMeta(bad)).toBeNull();
  });

  it('decodes the same from the stored UTF-8, links from the bytes when asked, whatever the form', () => {
    const utf8 = (t: string): Uint8Array => new TextEncoder().encode(t);
    const m = cachedOf('a/Otters.md', NOTE);
    const text = encodeCachedMeta(m);
    expect({ ...decodeCachedMetaBytes(utf8(text))! }).toEqual(m);
    expect({ ...decodeCachedMetaBytes(utf8(JSON.stringify({ ...m, frames: FRAMES })))! }).toEqual(m); // one JSON text, links inside
    const lines = text.split('\n');
    const broken = decodeCachedMetaBytes(utf8(`${lines[0]}\n[{"raw": oops\n${lines[2]}`))!;
    expect(broken.meta.title).toBe('Otters');
    expect(broken.links).toEqual([]);
    expect(broken.frame).toEqual(m.frame);
    for (const bad of ['', 'null', '{"meta": {}}', 'not json\n[]']) expect(decodeCachedMetaBytes(utf8(bad))).toBeNull();
  });
});
