import { extractInlineTags } from '../../shared/model/links';
import { isValidTagBody, normalizeTag } from '../../shared/model/tags';

describe('extractInlineTags: Obsidian tag rules', () => {
  it.each([
    ['a simple tag', 'text #alpha more', ['alpha']],
    ['start of line', '#alpha', ['alpha']],
    ['nested tag', 'see #project/lithos', ['project/lithos']],
    ['dashes and underscores', '#to-do #snake_case', ['to-do', 'snake_case']],
    ['digits with a letter', '#y2024 #2024y', ['y2024', '2024y']],
    ['non-Latin scripts', '#日本語 #café #знание #हिंदी', ['日本語', 'café', 'знание', 'हिंदी']],
    ['trailing punctuation', 'end #done.', ['done']],
    ['tags inside heading text', '## Plan #roadmap', ['roadmap']],
    ['case-insensitive de-duplication, first spelling wins', '#Alpha #alpha #ALPHA', ['Alpha']],
  ])('finds %s', (_name, body, tags) => {
    expect(extractInlineTags(body)).toEqual(tags);
  });

  it.each([
    ['only digits', '#1984 #42'],
    ['a heading marker', '# Heading\n## Sub'],
    ['a URL fragment', 'https://example.com/page#section'],
    ['a wiki link heading', '[[Note#Heading]]'],
    ['an HTML entity', 'it&#39;s'],
    ['a hash glued to a word', 'C#sharp'],
    ['inline code', 'run `#notatag` now'],
    ['a fenced block', '```\n#notatag\n```'],
    ['a markdown link fragment', '[t](#section)'],
  ])('ignores %s', (_name, body) => {
    expect(extractInlineTags(body)).toEqual([]);
  });
});

describe('tag helpers', () => {
  it.each([
    ['#tag', 'tag'],
    ['  ##tag ', 'tag'],
    ['tag', 'tag'],
    ['#', ''],
  ])('normalizeTag(%j) = %j', (raw, tag) => {
    expect(normalizeTag(raw)).toBe(tag);
  });

  it('requires a non-digit', () => {
    expect([isValidTagBody('123'), isValidTagBody('1a'), isValidTagBody('')]).toEqual([false, true, false]);
  });
});
