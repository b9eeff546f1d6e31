import { bestLexicalChunk, makeSnippet, SNIPPET_WIDTH } from '../../shared/index/snippet';

describe('makeSnippet', () => {
  const long = `${'lorem ipsum dolor '.repeat(30)}the quantum entanglement result ${'sit amet consectetur '.repeat(30)}`;

  it('returns short text whole, on one line', () => {
    expect(makeSnippet('a\n\nshort   text', ['short'])).toBe('a short text');
  });

  it('centres about 200 characters on the first query term hit', () => {
    const s = makeSnippet(long, ['entanglement']);
    expect(s).toContain('quantum entanglement result');
    expect(s.startsWith('…')).toBe(true);
    expect(s.endsWith('…')).toBe(true);
    expect(s.length).toBeLessThanOrEqual(SNIPPET_WIDTH + 2);
  });

  it('matches whole words only and falls back to the start', () => {
    expect(makeSnippet(long, ['entangle']).startsWith('lorem')).toBe(true);
  });
});

describe('bestLexicalChunk', () => {
  const chunks = [
    { index: 0, text: 'nothing relevant here', heading: null },
    { index: 1, text: 'the rare term appears: zymurgy zymurgy', heading: null },
    { index: 2, text: 'common common common', heading: null },
  ];
  const idf = (t: string) => (t === 'zymurgy' ? 5 : 0.1);

  it('picks the chunk with the most idf-weighted query terms', () => {
    expect(bestLexicalChunk(chunks, new Set(['zymurgy', 'common']), idf)).toBe(1);
  });

  it('falls back to the first chunk, or -1 without chunks', () => {
    expect(bestLexicalChunk(chunks, new Set(['absent']), idf)).toBe(0);
    expect(bestLexicalChunk([], new Set(['x']), idf)).toBe(-1);
  });
});
