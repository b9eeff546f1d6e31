import { keepTrailingSeparator } from '../../../shared/index/embedders/transformers-tokens';

const SEP = 3;

function tensor(rows: number[][], bigint: boolean) {
  const flat = rows.flat();
  return { dims: [rows.length, rows[0].length], data: bigint ? BigInt64Array.from(flat.map(BigInt)) : Int32Array.from(flat) };
}

describe('keepTrailingSeparator', () => {
  it.each([true, false])('puts [SEP] back only in rows that were cut at the limit (bigint data: %s)', (bigint) => {
    const ids = tensor(
      [
        [2, 10, 11, 12, 13], // cut: ended on a content token
        [2, 10, 11, 12, SEP], // fitted exactly
        [2, 10, SEP, 0, 0], // padded
      ],
      bigint,
    );
    const mask = tensor(
      [
        [1, 1, 1, 1, 1],
        [1, 1, 1, 1, 1],
        [1, 1, 1, 0, 0],
      ],
      bigint,
    );
    keepTrailingSeparator(ids, mask, SEP, 5);
    expect(Array.from(ids.data, Number)).toEqual([2, 10, 11, 12, SEP, 2, 10, 11, 12, SEP, 2, 10, SEP, 0, 0]);
    if (bigint) expect(typeof ids.data[4]).toBe('bigint');
  });

  it('leaves a batch alone when its longest row is shorter than the limit', () => {
    const ids = tensor([[2, 10, 11]], false);
    const mask = tensor([[1, 1, 1]], false);
    keepTrailingSeparator(ids, mask, SEP, 5);
    expect(Array.from(ids.data, Number)).toEqual([2, 10, 11]);
  });
});
