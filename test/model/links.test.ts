import { extractLinks, frontmatterLinks } from '../../shared/model/links';
import { parseNote } from '../../shared/model/note';
import type { NoteLink } from '../../shared/model/types';

/** The link a one-line body yields, without `raw`/`line` noise unless asked. */
function only(body: string): Omit<NoteLink, 'raw' | 'line'> {
  const links = extractLinks(body);
  expect(links).toHaveLength(1);
  const { raw: _raw, line: _line, ...rest } = links[0];
  return rest;
}

describe('extractLinks: wiki links', () => {
  it.each<[string, string, Omit<NoteLink, 'raw' | 'line'>]>([
    ['plain', 'See [[Target]].', { target: 'Target', embed: false, kind: 'wiki' }],
    ['with alias', '[[Target|shown text]]', { target: 'Target', alias: 'shown text', embed: false, kind: 'wiki' }],
    ['to a heading', '[[Target#Some Heading]]', { target: 'Target', heading: 'Some Heading', embed: false, kind: 'wiki' }],
    ['to a block with #^', '[[Target#^abc123]]', { target: 'Target', block: 'abc123', embed: false, kind: 'wiki' }],
    ['to a block with ^ only', '[[Target^abc123]]', { target: 'Target', block: 'abc123', embed: false, kind: 'wiki' }],
    ['heading plus alias', '[[Target#H|alias]]', { target: 'Target', heading: 'H', alias: 'alias', embed: false, kind: 'wiki' }],
    ['embed of a note', '![[Target]]', { target: 'Target', embed: true, kind: 'wiki' }],
    ['embed of an image', '![[diagram.png]]', { target: 'diagram.png', embed: true, kind: 'wiki' }],
    ['self heading', '[[#Local heading]]', { target: '', heading: 'Local heading', embed: false, kind: 'wiki' }],
    ['self block', '[[#^blk]]', { target: '', block: 'blk', embed: false, kind: 'wiki' }],
    ['with folders', '[[project/lithos/Design]]', { target: 'project/lithos/Design', embed: false, kind: 'wiki' }],
    ['with .md', '[[Design.md]]', { target: 'Design.md', embed: false, kind: 'wiki' }],
    ['with spaces trimmed', '[[  Spaced Target  |  alias ]]', { target: 'Spaced Target', alias: 'alias', embed: false, kind: 'wiki' }],
    ['escaped pipe in a table', '| [[Target\\|alias]] |', { target: 'Target', alias: 'alias', embed: false, kind: 'wiki' }],
    ['emoji and unicode', '[[Café ☕ notes]]', { target: 'Café ☕ notes', embed: false, kind: 'wiki' }],
  ])('%s', (_name, body, expected) => {
    expect(only(body)).toEqual(expected);
  });

  it('keeps the raw text and the 0-based line', () => {
    expect(extractLinks('first\nsecond ![[A#B|c]] end')).toEqual([
      { raw: '![[A#B|c]]', target: 'A', heading: 'B', alias: 'c', embed: true, kind: 'wiki', line: 1 },
    ]);
  });

  it.each([['[[]]'], ['[[ ]]'], ['[[|alias]]'], ['[[a\nb]]'], ['[[a [b] c]]'], ['[single]']])('ignores non-links: %j', (body) => {
    expect(extractLinks(body)).toEqual([]);
  });
});

describe('extractLinks: markdown links', () => {
  it.each<[string, string, Omit<NoteLink, 'raw' | 'line'>]>([
    ['to a .md path', '[text](notes/Target.md)', { target: 'notes/Target.md', embed: false, kind: 'markdown' }],
    ['angle brackets with spaces', '[t](<My Note.md>)', { target: 'My Note.md', embed: false, kind: 'markdown' }],
    ['URL-encoded spaces', '[t](My%20Note.md)', { target: 'My Note.md', embed: false, kind: 'markdown' }],
    ['relative parent', '[t](../other/x.md)', { target: '../other/x.md', embed: false, kind: 'markdown' }],
    ['relative current', '[t](./x.md)', { target: './x.md', embed: false, kind: 'markdown' }],
    ['with heading fragment', '[t](x.md#Part%20Two)', { target: 'x.md', heading: 'Part Two', embed: false, kind: 'markdown' }],
    ['with block fragment', '[t](x.md#^b1)', { target: 'x.md', block: 'b1', embed: false, kind: 'markdown' }],
    ['self heading', '[t](#Intro)', { target: '', heading: 'Intro', embed: false, kind: 'markdown' }],
    ['with a title', '[t](x.md "Title here")', { target: 'x.md', embed: false, kind: 'markdown' }],
    ['upper-case extension', '[t](X.MD)', { target: 'X.MD', embed: false, kind: 'markdown' }],
    ['without extension', '[t](Some-Note)', { target: 'Some-Note', embed: false, kind: 'markdown' }],
    ['embed form', '![t](x.md)', { target: 'x.md', embed: true, kind: 'markdown' }],
    ['brackets in the text', '[see [this]](x.md)', { target: 'x.md', embed: false, kind: 'markdown' }],
    ['a stray percent', '[t](100%25%.md)', { target: '100%25%.md', embed: false, kind: 'markdown' }],
  ])('%s', (_name, body, expected) => {
    expect(only(body)).toEqual(expected);
  });

  it.each([
    ['https URL', '[t](https://example.com/x.md)'],
    ['mailto', '[t](mailto:someone@example.com)'],
    ['obsidian URI', '[t](obsidian://open?vault=v&file=x)'],
    ['protocol-relative', '[t](//cdn.example.com/x.md)'],
    ['an image', '![alt](pics/cat.png)'],
    ['a pdf', '[t](docs/paper.pdf)'],
    ['an empty destination', '[t]()'],
    ['a folder', '[t](folder/)'],
    ['spaces without brackets', '[t](My Note.md)'],
  ])('ignores %s', (_name, body) => {
    expect(extractLinks(body)).toEqual([]);
  });
});

describe('extractLinks: code is not linked', () => {
  it.each([
    ['a fenced block', '```\n[[Inside]]\n```\n[[Outside]]'],
    ['a tilde fence', '~~~md\n[[Inside]]\n~~~\n[[Outside]]'],
    ['a longer closing fence', '````\n[[Inside]]\n```\nstill code [[Inside]]\n`````\n[[Outside]]'],
    ['an indented fence in a list', '- item\n    ```\n    [[Inside]]\n    ```\n[[Outside]]'],
    ['inline code', 'use `[[Inside]]` and [[Outside]]'],
    ['double-backtick inline code', 'use ``a ` [[Inside]]`` and [[Outside]]'],
    ['inline code around a markdown link', '`[t](Inside.md)` [[Outside]]'],
  ])('ignores links inside %s', (_name, body) => {
    expect(extractLinks(body).map((l) => l.target)).toEqual(['Outside']);
  });

  it('treats an unclosed fence as code to the end', () => {
    expect(extractLinks('[[Before]]\n```\n[[After]]')).toEqual([expect.objectContaining({ target: 'Before' })]);
  });

  it('keeps a lone backtick from hiding links', () => {
    expect(extractLinks('a ` b [[Target]]').map((l) => l.target)).toEqual(['Target']);
  });
});

describe('extractLinks: order and mixing', () => {
  it('returns links in reading order across kinds and lines', () => {
    const body = '[md](b.md) then [[A]] and ![[img.png]]\n\n[[C#h]] [x](<d e.md>)';
    expect(extractLinks(body).map((l) => [l.kind, l.target, l.line])).toEqual([
      ['markdown', 'b.md', 0],
      ['wiki', 'A', 0],
      ['wiki', 'img.png', 0],
      ['wiki', 'C', 2],
      ['markdown', 'd e.md', 2],
    ]);
  });

  it('stays linear on adversarial lines (no catastrophic backtracking)', () => {
    const nasty = ['['.repeat(50_000), '[a'.repeat(30_000), '[x](' + ' '.repeat(50_000), '`'.repeat(20_001) + ' ` `` ```'.repeat(5_000), '[[a'.repeat(30_000)];
    for (const line of nasty) expect(extractLinks(line)).toEqual([]);
  });
});

describe('frontmatterLinks: wiki-links in property values, as Obsidian records them', () => {
  test('strings, lists and nested mappings; the property path is kept; markdown links and bare names are text', () => {
    const links = frontmatterLinks({
      related: '[[Pool sizing]]',
      up: ['[[Atlas|the project]]', 'plain', '[[Index#Causes]]'],
      meta: { source: 'See [[Incident 142]] and [[Incident 143]]' },
      website: '[docs](Docs.md)',
      count: 3,
      nested: [['Other']], // `[[Other]]` unquoted in YAML is a list in a list: no link (Obsidian agrees)
    });
    expect(links.map((l) => [l.property, l.target, l.alias ?? null, l.heading ?? null, l.line])).toEqual([
      ['related', 'Pool sizing', null, null, -1],
      ['up.0', 'Atlas', 'the project', null, -1],
      ['up.2', 'Index', null, 'Causes', -1],
      ['meta.source', 'Incident 142', null, null, -1],
      ['meta.source', 'Incident 143', null, null, -1],
    ]);
  });

  test('parseNote lists property links before the body links and resolves them like any link', () => {
    const p = parseNote('a.md', '---\nrelated: "[[B]]"\n---\nBody links to [[C]].\n');
    expect(p.links.map((l) => [l.target, l.property ?? null, l.line])).toEqual([['B', 'related', -1], ['C', null, 0]]);
  });

  test('a hostile nesting depth is not followed without bound', () => {
    let deep: unknown = '[[Bottom]]';
    for (let i = 0; i < 50; i++) deep = [deep];
    expect(frontmatterLinks({ deep })).toEqual([]);
    expect(frontmatterLinks({ shallow: [[['[[Near]]']]] }).map((l) => l.target)).toEqual(['Near']);
  });
});
