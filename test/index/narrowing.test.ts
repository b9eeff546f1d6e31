import { LexicalIndex } from '../../shared/index/lexical-index';

/**
 * How far a query's known words narrow the index down to one note (the temperature's narrowing signal):
 * Σ ln(N/df) over the query's terms that note holds, over ln N.
 */
const docs = [
  { id: 'a', text: 'cell biology of the cell membrane' },
  { id: 'b', text: 'cellular respiration in plants' },
  { id: 'c', text: 'membrane proteins and transport across membranes in the cell' },
  { id: 'd', text: 'stars galaxies and dark matter' },
];
const idx = LexicalIndex.create();
idx.addMany(docs);
const N = docs.length;

test('a word one note holds singles it out (1); a word two notes hold narrows half as far', () => {
  expect(idx.narrowing('galaxies', idx.slotOf('d'))).toBeCloseTo(1, 10);
  expect(idx.narrowing('membrane', idx.slotOf('a'))).toBeCloseTo(Math.log(N / 2) / Math.log(N), 10);
});

test('words add up, but only those the note holds: scattered words narrow less than words in one note', () => {
  const together = idx.narrowing('membrane biology', idx.slotOf('a'));
  const scattered = idx.narrowing('galaxies biology', idx.slotOf('a'));
  expect(together).toBeCloseTo((Math.log(N / 2) + Math.log(N)) / Math.log(N), 10);
  expect(scattered).toBeCloseTo(1, 10);
  expect(scattered).toBeLessThan(together);
});

test('words the index never saw narrow nothing', () => {
  expect(idx.narrowing('xyzzy plugh', idx.slotOf('a'))).toBe(0);
  expect(idx.narrowing('xyzzy galaxies', idx.slotOf('d'))).toBeCloseTo(1, 10);
});
