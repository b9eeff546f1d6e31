import { lexicalHash, usableBag, type TermBag } from '../../shared/index/term-bags';

const bag = (over: Partial<TermBag> = {}): TermBag => ({
  lexHash: lexicalHash('otters hold hands'),
  ids: Uint32Array.of(0, 2, 5),
  tfs: Uint16Array.of(1, 3, 1),
  length: 5,
  ...over,
});

describe('term bags', () => {
  it('hash the exact lexical text', () => {
    expect(lexicalHash('otters hold hands')).toBe(lexicalHash('otters hold hands'));
    expect(lexicalHash('otters hold hands')).not.toBe(lexicalHash('otters hold hands.'));
  });

  it('are usable only for the text they were counted from and a dictionary holding their terms', () => {
    const h = lexicalHash('otters hold hands');
    expect(usableBag(bag(), h, 6)).toEqual({ ids: Uint32Array.of(0, 2, 5), tfs: Uint16Array.of(1, 3, 1), length: 5 });
    expect(usableBag(undefined, h, 6)).toBeUndefined();
    expect(usableBag(bag(), lexicalHash('other text'), 6)).toBeUndefined();
    expect(usableBag(bag(), h, 5)).toBeUndefined(); // term 5 unknown to this dictionary
  });

  it('reject malformed bags: unsorted ids, zero counts, mismatched arrays, a length below the counts', () => {
    const h = lexicalHash('otters hold hands');
    expect(usableBag(bag({ ids: Uint32Array.of(2, 0, 5) }), h, 6)).toBeUndefined();
    expect(usableBag(bag({ tfs: Uint16Array.of(1, 0, 1) }), h, 6)).toBeUndefined();
    expect(usableBag(bag({ tfs: Uint16Array.of(1, 3) }), h, 6)).toBeUndefined();
    expect(usableBag(bag({ length: 4 }), h, 6)).toBeUndefined();
  });
});
