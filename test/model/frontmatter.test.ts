import { parseFrontmatterYaml, splitFrontmatter } from '../../shared/model/frontmatter';

describe('splitFrontmatter: Obsidian block rules', () => {
  it.each([
    ['a simple block', '---\ntitle: A\n---\nBody', 'title: A', 'Body', 3],
    ['CRLF line endings', '---\r\ntitle: A\r\ntags: [x]\r\n---\r\nBody\r\n', 'title: A\ntags: [x]', 'Body\r\n', 4],
    ['a UTF-8 BOM before the fence', '\uFEFF---\ntitle: A\n---\nBody', 'title: A', 'Body', 3],
    ['YAML end marker "..." as closer', '---\ntitle: A\n...\nBody', 'title: A', 'Body', 3],
    ['an empty block', '---\n---\nBody', '', 'Body', 2],
    ['a closer at end of file without newline', '---\ntitle: A\n---', 'title: A', '', 3],
    ['fences with trailing spaces', '---  \ntitle: A\n---\t\nBody', 'title: A', 'Body', 3],
    ['a body that holds another --- rule', '---\na: 1\n---\ntext\n---\nmore', 'a: 1', 'text\n---\nmore', 3],
  ])('reads %s', (_name, text, yaml, body, line) => {
    expect(splitFrontmatter(text)).toEqual({ yaml, body, bodyStartLine: line });
  });

  it.each([
    ['no fence at all', '# Title\ntext'],
    ['a fence that is never closed', '---\ntitle: A\nno closing line'],
    ['a fence alone', '---'],
    ['a fence not on the first line', '\n---\ntitle: A\n---\nBody'],
    ['four dashes', '----\ntitle: A\n----\nBody'],
    ['text after the opening dashes', '--- x\ntitle: A\n---\nBody'],
    ['an empty file', ''],
  ])('treats %s as body only', (_name, text) => {
    expect(splitFrontmatter(text)).toEqual({ yaml: null, body: text, bodyStartLine: 0 });
  });

  it('does not accept an indented closer', () => {
    expect(splitFrontmatter('---\na: 1\n ---\nBody').yaml).toBeNull();
  });
});

describe('parseFrontmatterYaml: never throws, classifies the block', () => {
  it('returns the mapping with unknown fields kept', () => {
    expect(parseFrontmatterYaml('title: A\ncustom_field: {nested: [1, 2]}')).toEqual({
      kind: 'mapping',
      data: { title: 'A', custom_field: { nested: [1, 2] } },
    });
  });

  it.each([
    ['an unclosed flow list', 'tags: [a, b'],
    ['a duplicate key', 'title: A\ntitle: B'],
    ['bad indentation', 'a: 1\n  b: 2'],
    ['an unclosed quote', 'title: "oops'],
    ['a tab used for indentation', 'tags:\n\t- a'],
  ])('reports %s as malformed with a one-line message', (_name, yaml) => {
    const r = parseFrontmatterYaml(yaml);
    expect(r.kind).toBe('malformed');
    if (r.kind === 'malformed') {
      expect(r.message.length).toBeGreaterThan(0);
      expect(r.message).not.toContain('\n');
    }
  });

  it.each([
    ['a YAML list', '- a\n- b', 'a list'],
    ['a scalar', 'just some words', 'a string'],
    ['a number', '42', 'a number'],
  ])('reports %s as not a mapping', (_name, yaml, found) => {
    expect(parseFrontmatterYaml(yaml)).toEqual({ kind: 'not_mapping', found });
  });

  it.each([
    ['empty', ''],
    ['blank lines', '\n\n'],
    ['only a comment', '# nothing here'],
  ])('treats an %s block as an empty mapping', (_name, yaml) => {
    expect(parseFrontmatterYaml(yaml)).toEqual({ kind: 'mapping', data: {} });
  });

  it('keeps unquoted dates as the strings the user wrote (YAML 1.2 core schema)', () => {
    expect(parseFrontmatterYaml('created_at: 2024-01-02\nupdated_at: 2024-01-02T10:00:00Z')).toEqual({
      kind: 'mapping',
      data: { created_at: '2024-01-02', updated_at: '2024-01-02T10:00:00Z' },
    });
  });

  it.each([
    ['flow lists', `a: ${'['.repeat(5000)}`],
    ['flow mappings', `a: ${'{a: '.repeat(5000)}`],
    ['block mappings', Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i)}k:`).join('\n')],
    ['block lists', `a:\n${'- '.repeat(3000)}x`],
  ])('refuses YAML nested thousands of levels deep (%s) before the parser can overflow the stack', (_name, yaml) => {
    expect(parseFrontmatterYaml(yaml)).toEqual({ kind: 'malformed', message: 'nested more than 128 levels deep' });
  });

  it('still parses ordinary nesting through the full parser', () => {
    expect(parseFrontmatterYaml('a: {b: [{c: [1, [2]]}]}\nd:\n  - - x')).toEqual({
      kind: 'mapping',
      data: { a: { b: [{ c: [1, [2]] }] }, d: [['x']] },
    });
  });

  it('refuses an alias bomb instead of expanding it', () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i++) lines.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]`);
    expect(parseFrontmatterYaml(lines.join('\n')).kind).toBe('malformed');
  });

  it.each([
    ['a list holding itself', 'a: &a [*a]'],
    ['a mapping holding itself', 'a: &a {b: *a}'],
    ['a cycle two levels down', 'a: &a\n  b:\n    - c: *a'],
  ])('refuses %s (a recursive alias) as malformed instead of a value nothing can serialize', (_what, yaml) => {
    expect(parseFrontmatterYaml(yaml)).toEqual({ kind: 'malformed', message: 'an alias refers to the node it is in (a recursive structure)' });
  });

  it('keeps shared (non-recursive) aliases', () => {
    expect(parseFrontmatterYaml('base: &b {x: 1}\none: *b\ntwo: [*b, *b]')).toEqual({ kind: 'mapping', data: { base: { x: 1 }, one: { x: 1 }, two: [{ x: 1 }, { x: 1 }] } });
  });
});
