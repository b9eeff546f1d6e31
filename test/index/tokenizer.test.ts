import { MAX_TOKEN_LENGTH, normalizeExact, STOPWORDS, tokenize } from '../../shared/index/tokenizer';

describe('tokenize', () => {
  it('lowercases words, drops the English stopword list (question words too) and does not stem', () => {
    expect(tokenize('The Cells of the Immune System are Running')).toEqual(['cells', 'immune', 'system', 'running']);
    expect(tokenize('When did Caroline go to the support group?')).toEqual(['caroline', 'go', 'support', 'group']);
    expect(STOPWORDS.has('the')).toBe(true);
    expect(STOPWORDS.size).toBe(153);
  });

  it('splits on punctuation and keeps digits', () => {
    expect(tokenize('IL-6, p53; version 2.0 (beta)!')).toEqual(['il', '6', 'p53', 'version', '2', '0', 'beta']);
  });

  it('keeps accented Latin, Cyrillic and Greek words whole', () => {
    expect(tokenize('Naïve café — Привет МИР — Ελληνικά')).toEqual(['naïve', 'café', 'привет', 'мир', 'ελληνικά']);
  });

  it('cuts ASCII and non-ASCII text the same way whichever path handles it', () => {
    // `don’t` (typographic apostrophe) goes through the Unicode path, `don't` through the fast path.
    expect(tokenize('don’t stop')).toEqual(tokenize("don't stop"));
    expect(tokenize('résumé Résumé')).toEqual(['résumé', 'résumé']);
  });

  it('splits CJK runs into single characters plus bigrams, Latin parts stay words', () => {
    expect(tokenize('東京都')).toEqual(['東', '東京', '京', '京都', '都']);
    expect(tokenize('lithos記憶')).toEqual(['lithos', '記', '記憶', '憶']);
    expect(tokenize('ノート')).toEqual(['ノ', 'ノー', 'ー', 'ート', 'ト']);
  });

  it('keeps emoji as tokens and does not lose the words around them', () => {
    expect(tokenize('launch🚀day 🎉party')).toEqual(['launch', '🚀', 'day', '🎉', 'party']);
  });

  it('folds full-width letters and ligatures (NFKC)', () => {
    expect(tokenize('ＡＢＣ ﬁle')).toEqual(['abc', 'file']);
  });

  it('returns [] for empty, whitespace-only and punctuation-only text', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize('   \n\t ')).toEqual([]);
    expect(tokenize('!!! --- ...')).toEqual([]);
  });

  it('cuts over-long tokens', () => {
    const [t] = tokenize('x'.repeat(500));
    expect(t).toHaveLength(MAX_TOKEN_LENGTH);
  });

  it('survives lone surrogates and control characters', () => {
    expect(tokenize('ok \ud83d broken \u0000 nul')).toEqual(['ok', 'broken', 'nul']);
  });
});

describe('normalizeExact', () => {
  it('ignores case, width and punctuation but keeps stopwords', () => {
    expect(normalizeExact('  The Matrix: Reloaded! ')).toBe('the matrix reloaded');
    expect(normalizeExact('the matrix reloaded')).toBe('the matrix reloaded');
    expect(normalizeExact('Matrix Reloaded')).not.toBe(normalizeExact('The Matrix Reloaded'));
  });
});
