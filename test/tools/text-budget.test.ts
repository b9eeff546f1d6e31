import { DEFAULT_MAX_CHARS, pageInfo, pageOf } from '../../shared/tools/text-budget';

/** The paging rule every tool returning long text follows (shared/tools/text-budget.ts). */

/** A surrogate half without its partner. */
const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const lines = (n: number, width = 39): string => Array.from({ length: n }, (_, i) => `${String(i).padStart(5, '0')} ${'x'.repeat(width - 6)}`).join('\n') + '\n';

describe('pageOf', () => {
  test('a text within the budget comes back whole, not truncated, with no next page', () => {
    expect(pageOf('short note\n', { offset: 0, max_chars: DEFAULT_MAX_CHARS })).toEqual({ text: 'short note\n', truncated: false, total_chars: 11, offset: 0, next_offset: null });
  });

  test('a long text is cut after a whole line, and the pages read in order give back exactly the text', () => {
    const text = lines(1000); // 40 characters a line
    const first = pageOf(text, { offset: 0, max_chars: 1010 });
    expect(first.text.length).toBe(1000); // 25 whole lines, not 1010 characters ending mid-line
    expect(first.text.endsWith('\n')).toBe(true);
    expect(first).toMatchObject({ truncated: true, total_chars: 40_000, offset: 0, next_offset: 1000 });
    let read = '';
    let offset: number | null = 0;
    while (offset !== null) {
      const p = pageOf(text, { offset, max_chars: 1010 });
      read += p.text;
      offset = p.next_offset;
    }
    expect(read).toBe(text);
  });

  test('a text without a newline near the cut is cut at the budget, never inside a surrogate pair', () => {
    const text = 'a' + '😀'.repeat(50); // each emoji is two UTF-16 units
    const p = pageOf(text, { offset: 0, max_chars: 4 });
    expect(p.text).toBe('a😀'); // 'a' + one emoji + half of the next would be 4 units
    expect(p.next_offset).toBe(3);
    expect(pageOf(text, { offset: 4, max_chars: 10 }).offset).toBe(3); // an offset inside a pair starts at the pair
    let read = '';
    let offset: number | null = 0;
    while (offset !== null) {
      const q = pageOf(text, { offset, max_chars: 5 });
      expect(q.text).not.toMatch(lone); // no lone surrogate: the page is valid text
      read += q.text;
      offset = q.next_offset;
    }
    expect(read).toBe(text);
  });

  test('an offset past the end gives an empty, truncated page at the end', () => {
    expect(pageOf('abc', { offset: 10, max_chars: 5 })).toEqual({ text: '', truncated: true, total_chars: 3, offset: 3, next_offset: null });
  });
});

test('pageInfo tells where the page is and how to read on, without the text', () => {
  const info = pageInfo(pageOf(lines(100), { offset: 0, max_chars: 400 }), 'Call again with offset 400.');
  expect(info).toEqual({ truncated: true, total_chars: 4000, offset: 0, next_offset: 400, hint: 'Showing characters 0–400 of 4000. Call again with offset 400.' });
  expect(pageInfo(pageOf('abc', { offset: 0, max_chars: 5 }), 'unused').hint).toBeNull();
});
