import { forEachProseLine, maskInlineCode } from '../../shared/model/markdown-lines';

function prose(body: string): [number, string][] {
  const out: [number, string][] = [];
  forEachProseLine(body, (_line, masked, index) => out.push([index, masked]));
  return out;
}

describe('forEachProseLine', () => {
  it('skips fenced blocks (fence lines included) and keeps body line numbers', () => {
    expect(prose('a\n```js\ncode\n```\nb')).toEqual([
      [0, 'a'],
      [4, 'b'],
    ]);
  });

  it('does not close a backtick fence with tildes or a shorter run', () => {
    expect(prose('````\n~~~~\n```\nstill code\n````\nout')).toEqual([[5, 'out']]);
  });

  it('does not treat a backtick run with backticks after it as a fence', () => {
    expect(prose('```inline``` text')).toEqual([[0, `${' '.repeat(12)} text`]]);
  });

  it('handles fences inside block quotes', () => {
    expect(prose('> ```\n> [[x]]\n> ```\nafter')).toEqual([[3, 'after']]);
  });

  it('strips the CR of CRLF lines', () => {
    expect(prose('a\r\nb\r\n')).toEqual([
      [0, 'a'],
      [1, 'b'],
      [2, ''],
    ]);
  });
});

describe('maskInlineCode', () => {
  it.each([
    ['a single span', 'a `b` c', 'a     c'],
    ['two spans', '`x` and `y`', '    and    '],
    ['a double-backtick span holding a backtick', 'a ``b ` c`` d', 'a           d'],
    ['an unmatched run left as text', 'a ` b', 'a ` b'],
    ['runs of different lengths do not pair', 'a `` b ` c', 'a `` b ` c'],
    ['a later run of the same length pairs', 'x `` y ` z `` w', `x ${' '.repeat(11)} w`],
  ])('%s', (_name, line, masked) => {
    const out = maskInlineCode(line);
    expect(out).toBe(masked);
    expect(out).toHaveLength(line.length);
  });
});
