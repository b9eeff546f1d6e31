import { plain, table } from '../../bridge/commands/output';

/** What people read: plain words and aligned columns, never JSON. */

test('plain: lists with commas, records as key value pairs, null as (none), fractions to three decimals', () => {
  expect(plain(['a', 'b'])).toBe('a, b');
  expect(plain([])).toBe('(none)');
  expect(plain(null)).toBe('(none)');
  expect(plain({ debug: -0.3, design: 0.1234567 })).toBe('debug -0.3, design 0.123');
  expect(plain(true)).toBe('yes');
  expect(plain('archived')).toBe('archived');
  expect(plain(42)).toBe('42');
});

test('table: columns padded to the widest cell, the last one left as it is', () => {
  expect(table([['a', 'bb', 'c'], ['ccc', 'd', 'e']])).toBe('a    bb  c\nccc  d   e');
  expect(table([])).toBe('');
});
