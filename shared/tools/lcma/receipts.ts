import { z } from 'zod';
import type { Receipt } from '../../retrieval/types';
import { READ_ONLY, defineTool } from '../knowledge/common';
import { clipText, cursorOf, cursorStarts, takePage } from '../text-budget';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

const time = (what: string) =>
  z.string().trim().min(1).max(64).optional().describe(`${what}: an ISO time ("2026-01-31", "2026-01-31T12:00:00Z") or a time ago ("30m", "2h", "3d", "1w").`);

const input = z.strictObject({
  since: time('Only receipts written at or after this time'),
  until: time('Only receipts written before this time'),
  agent: z.string().trim().min(1).max(200).optional().describe('Only retrievals made by this agent id.'),
  task: z.string().trim().min(1).max(200).optional().describe('Only retrievals made for this task id.'),
  node: z.string().trim().min(1).max(500).optional().describe('Only retrievals that returned this note (id or vault path).'),
  receipt_id: z.string().trim().min(1).max(200).optional().describe('One receipt, by the receipt_id lithos_retrieve returned.'),
  limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe(`Most receipts to return, newest first (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}).`),
  cursor: z.string().min(1).optional().describe('next_cursor of the previous page.'),
});

export const lithosReceipts = defineTool({
  name: 'lithos_receipts',
  title: 'Retrieval receipts',
  description: [
    'Past retrievals, newest first: each receipt lists the query, agent, task, query class, intent and temperature, the terrace reached and why terrace 2 ran or not,',
    'and the notes returned with their scouts and score terms.',
    'Use it to see what memory an earlier lithos_retrieve showed (yours or other agents\'), or which retrievals returned a note. Read-only.',
    'You see your own receipts, and other agents\' receipts only when every note they returned is one you may see.',
    'Returns {receipts:[…], skipped_lines} (skipped_lines counts damaged lines in the log).',
  ].join(' '),
  input,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof input>, ctx) {
    const [start] = cursorStarts(a.cursor, 1, 'lithos_receipts');
    // The page, plus one to know whether another follows.
    const limit = start + (a.limit ?? DEFAULT_LIMIT) + 1;
    const res = await ctx.memory.receipts.query({ since: a.since, until: a.until, agent: a.agent, task: a.task, node: a.node, receipt_id: a.receipt_id }, limit);
    const shown = res.receipts;
    const { page, next } = takePage(shown.slice(start, limit - 1).map(receiptJson), 0, a.limit ?? DEFAULT_LIMIT);
    const more = next !== null || shown.length > start + page.length;
    return { receipts: page, skipped_lines: res.skipped_lines, next_cursor: more ? cursorOf([start + page.length]) : null };
  },
});

/** Candidates shown per receipt (a receipt keeps up to a few hundred ids); the rest are counted. */
const MAX_CANDIDATES = 50;

/** A receipt within the budget: its query text cut to 1,000 characters, its candidates to MAX_CANDIDATES. */
function receiptJson(r: Receipt): Receipt & { candidates_total?: number; truncated?: true } {
  const query = clipText(r.query_text, 1_000);
  const cut = query !== r.query_text || r.candidates.length > MAX_CANDIDATES;
  if (!cut) return r;
  return { ...r, query_text: query, candidates: r.candidates.slice(0, MAX_CANDIDATES), candidates_total: r.candidates.length, truncated: true };
}
