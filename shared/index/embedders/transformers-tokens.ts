/**
 * Truncation as sentence-transformers does it. transformers.js truncates the finished
 * `[CLS] … [SEP]` sequence by cutting its end, which drops the closing [SEP]; the Python
 * tokenizer instead truncates the text and keeps `[CLS] t1 … t(n-2) [SEP]`. Putting [SEP] back
 * in the last slot of every row that was cut gives exactly the Python tokens.
 */
import type { TensorLike } from './transformers-types';

/** Mutates `input_ids` in place; rows shorter than `maxTokens` (padded or exact fits) are untouched. */
export function keepTrailingSeparator(inputIds: TensorLike, attentionMask: TensorLike, sepId: number, maxTokens: number): void {
  const [rows, cols] = inputIds.dims;
  if (cols !== maxTokens) return; // no row reached the limit, so none was cut
  const ids = inputIds.data as unknown as { [i: number]: number | bigint };
  for (let r = 0; r < rows; r++) {
    const last = r * cols + cols - 1;
    if (Number(attentionMask.data[last]) === 0) continue; // padded row: ends before the limit
    if (Number(ids[last]) === sepId) continue; // fitted exactly
    ids[last] = typeof ids[last] === 'bigint' ? BigInt(sepId) : sepId;
  }
}
