import { extractHeadings } from '../../shared/model/links';

describe('extractHeadings: ATX headings outside code', () => {
  it('reads levels 1–6 with 0-based lines', () => {
    const body = '# One\ntext\n## Two\n### Three\n#### Four\n##### Five\n###### Six';
    expect(extractHeadings(body)).toEqual([
      { level: 1, text: 'One', line: 0 },
      { level: 2, text: 'Two', line: 2 },
      { level: 3, text: 'Three', line: 3 },
      { level: 4, text: 'Four', line: 4 },
      { level: 5, text: 'Five', line: 5 },
      { level: 6, text: 'Six', line: 6 },
    ]);
  });

  it.each([
    ['closing hashes', '## Title ##', 'Title'],
    ['up to three spaces of indent', '   # Indented', 'Indented'],
    ['a tab after the marker', '#\tTabbed', 'Tabbed'],
    ['inline markup kept', '# A `code` and [[link]]', 'A `code` and [[link]]'],
    ['a hash inside the text', '# C# tips', 'C# tips'],
    ['emoji', '## 🚀 Launch', '🚀 Launch'],
    ['CRLF', '# Windows\r', 'Windows'],
  ])('handles %s', (_name, line, text) => {
    expect(extractHeadings(line).map((h) => h.text)).toEqual([text]);
  });

  it.each([
    ['a tag', '#tag'],
    ['seven hashes', '####### Seven'],
    ['four spaces of indent', '    # code'],
    ['an empty heading', '#'],
    ['only closing hashes', '## ##'],
    ['a heading inside a fence', '```\n# Not a heading\n```'],
  ])('ignores %s', (_name, body) => {
    expect(extractHeadings(body)).toEqual([]);
  });
});
