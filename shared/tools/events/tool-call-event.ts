/**
 * The record of one tool call (an episodic `tool_call` event, session/events-room.ts): the tool, its arguments
 * summarised, and how it ended. Never a secret, never a copy: a field whose name says key, token, secret,
 * password or credential is left out; a string that looks like a credential (a long unbroken token, a bearer
 * header, a known key prefix) is replaced; text longer than a label (a note's content, an output) is recorded
 * as its length; arrays and objects are cut. A retrieval's receipt is named by its id, not copied.
 */
import type { ToolCallRecord } from '../../session/events-room';

/** Strings up to this long are kept (titles, ids, queries); longer ones are recorded as their length. */
const KEEP_CHARS = 120;
const MAX_ITEMS = 5;
const MAX_DEPTH = 2;
const SECRET_KEY = /key|token|secret|passw|credential|auth|cookie|signature/i;
// Long unbroken runs (API keys, hashes of credentials), bearer headers and the common key prefixes.
const SECRET_TEXT = /(bearer\s+\S+|\b(sk|pk|rk|ghp|gho|ghs|xox[abpr]|AKIA|AIza|glpat)[-_][A-Za-z0-9_-]{6,}|[A-Za-z0-9_+/=-]{32,})/gi;

export function summariseArgs(args: unknown, depth = 0): unknown {
  if (typeof args === 'string') {
    if (args.length > KEEP_CHARS) return `<${args.length} chars>`;
    return args.replace(SECRET_TEXT, '[redacted]');
  }
  if (args === null || typeof args !== 'object') return args;
  if (depth >= MAX_DEPTH) return Array.isArray(args) ? `<${args.length} items>` : '<object>';
  if (Array.isArray(args)) {
    const items = args.slice(0, MAX_ITEMS).map((x) => summariseArgs(x, depth + 1));
    return args.length > MAX_ITEMS ? [...items, `<${args.length - MAX_ITEMS} more>`] : items;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) out[k] = SECRET_KEY.test(k) ? '[redacted]' : summariseArgs(v, depth + 1);
  return out;
}

/** The record of a finished call: its result's receipt id (a retrieval) or its error code. */
export function toolCallRecord(tool: string, args: unknown, outcome: { result: unknown } | { code: string }): ToolCallRecord {
  const summary = summariseArgs(args);
  const task = (args as { task_id?: unknown } | null)?.task_id;
  const rec: ToolCallRecord = { tool, args: summary, ok: 'result' in outcome };
  if ('code' in outcome) rec.code = outcome.code;
  else {
    const receipt = (outcome.result as { receipt_id?: unknown } | null)?.receipt_id;
    if (typeof receipt === 'string') rec.receipt_id = receipt;
  }
  if (typeof task === 'string') rec.task_id = task.slice(0, KEEP_CHARS);
  return rec;
}
