import { z } from 'zod';
import { LIMITS } from '../../coordination/coordination-validate';
import { MAX_CLAIM_TTL_MINUTES, DEFAULT_CLAIM_TTL_MINUTES } from '../../coordination/coordination-types';
import type { AgentRow, ClaimRow, FindingRow, TaskOutcomeRow, TaskRow } from '../../coordination/coordination-types';
import type { ToolAnnotations, ToolContext, ToolDef } from '../types';
import { boundJson, clipText, FIELD_MAX_CHARS, LIST_MAX_CHARS, takePage } from '../text-budget';

/** Keeps a tool's handler typed against its own schema while the catalog holds plain ToolDefs. */
export function defineTool<S extends z.ZodType>(def: ToolDef<S>): ToolDef {
  return def;
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Writes that a retry repeats harmlessly (register, claim, renew, release). */
export const IDEMPOTENT_WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Writes that add a new record on every call (create a task, post a finding). */
export const ADDITIVE_WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

// ── argument shapes ─────────────────────────────────────────────────────

export const agentArg = z
  .string()
  .trim()
  .min(1)
  .max(LIMITS.agentId)
  .optional()
  .describe('Your agent id. Optional when the bridge already knows it (--agent or LITHOS_AGENT_ID), and then it must be that id.');
export const taskIdArg = z.string().trim().min(1).max(LIMITS.nodeRef).describe('The task id returned by lithos_task_create or lithos_task_list.');
export const aspectArg = z
  .string()
  .trim()
  .min(1)
  .max(LIMITS.aspect)
  .describe('Which part of the task, in a few words, e.g. "tests", "docs", "investigate root cause". Compared exactly.');
export const ttlArg = z
  .number()
  .int()
  .min(1)
  .max(MAX_CLAIM_TTL_MINUTES)
  .optional()
  .describe(`Minutes until the claim lapses on its own (default ${DEFAULT_CLAIM_TTL_MINUTES}, at most ${MAX_CLAIM_TTL_MINUTES}).`);
/**
 * An ISO 8601 date or date-time. Date.parse alone also takes "1" (the year 2001) or "March 7, 2026",
 * whose meaning depends on the machine; those are refused.
 */
export function isIsoTime(s: string): boolean {
  // A date alone is read as UTC; a time needs its offset (Z or ±hh:mm), else it would be the machine's zone.
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/.exec(s);
  if (!m || !Number.isFinite(Date.parse(s))) return false;
  // A calendar date that exists: Date.parse turns 2026-02-30 into 2 March.
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(Date.UTC(y, mo - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === mo - 1 && day.getUTCDate() === d;
}

export const isoArg = (what: string) =>
  z
    .string()
    .refine(isIsoTime, { message: 'must be an ISO 8601 date or a date-time with its offset, e.g. "2026-01-31" or "2026-01-31T09:00:00Z"' })
    .optional()
    .describe(what);

// ── who is calling ──────────────────────────────────────────────────────

/**
 * Registers the calling agent, if the bridge named one, for tools that take no identity of their own
 * (lithos_retrieve, lithos_feedback; the coordination tools call ctx.memory.tasks.touch themselves).
 */
export async function touchCaller(ctx: ToolContext): Promise<void> {
  await ctx.memory.tasks.touch();
}

/** ms → ISO 8601, the only time format tools return. */
export const iso = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

// ── result shapes (stable) ──────────────────────────────────────────────

/** Metadata of up to 16 KB is cut to FIELD_MAX_CHARS (`truncated: true`): a list of agents must not carry each in full. */
export function agentJson(a: AgentRow) {
  const metadata = boundJson(a.metadata);
  return { id: a.id, name: a.name, type: a.type, registered_at: iso(a.registered_at), last_seen_at: iso(a.last_seen_at), metadata: metadata.value, ...(metadata.truncated ? { truncated: true } : {}) };
}

/** `whole`: the description uncut (one task's own view); in lists it is cut to FIELD_MAX_CHARS (`truncated: true`). */
export function taskJson(t: TaskRow, whole = true) {
  const description = t.description === null || whole ? t.description : clipText(t.description);
  return {
    id: t.id,
    title: t.title,
    description,
    status: t.status,
    created_by: t.created_by,
    created_at: iso(t.created_at),
    completed_at: isoOrNull(t.completed_at),
    tags: t.tags,
    metadata: t.metadata,
    ...(description !== t.description ? { truncated: true } : {}),
  };
}

/**
 * A list inside a result that also carries other things (claims, findings): the first items within
 * `budget` characters, with the total, so a task with hundreds of claims stays a bounded answer.
 */
export function boundedList<T>(items: readonly T[], budget: number = LIST_MAX_CHARS / 2): { items: T[]; total: number } {
  return { items: takePage(items, 0, items.length, budget).page, total: items.length };
}

/** A claim as agents see it, with the time it has left (0 once lapsed). */
export function claimJson(c: ClaimRow, now: number) {
  return {
    task_id: c.task_id,
    aspect: c.aspect,
    agent: c.agent_id,
    claimed_at: iso(c.claimed_at),
    expires_at: iso(c.expires_at),
    remaining_seconds: Math.max(0, Math.ceil((c.expires_at - now) / 1000)),
  };
}

/** A finding as tools return it (the tasks room has already cut the note it names to what the caller sees). */
export function findingJson(f: FindingRow) {
  return { id: f.id, task_id: f.task_id, agent: f.agent_id, summary: f.summary, knowledge_id: f.knowledge_id, created_at: iso(f.created_at) };
}

/** A completion outcome as tools return it (the tasks room has already cut its notes to what the caller sees). */
export function outcomeJson(o: TaskOutcomeRow) {
  return {
    agent: o.agent_id,
    receipt_id: o.receipt_id,
    cited_nodes: o.cited_nodes,
    misleading_nodes: o.misleading_nodes,
    // The agent's own answer, up to 100,000 characters: echoed only in part.
    output_text: o.output_text === null ? null : clipText(o.output_text, FIELD_MAX_CHARS),
    ...(o.output_text !== null && o.output_text.length > FIELD_MAX_CHARS ? { output_truncated: true } : {}),
    recorded_at: iso(o.recorded_at),
    learned_at: isoOrNull(o.learned_at),
  };
}

/** The claims a completion or cancellation released: the first within the budget, and how many in all. */
export function releasedJson<T>(claims: readonly T[]): { released_claims: T[]; released_total: number } {
  const r = boundedList(claims);
  return { released_claims: r.items, released_total: r.total };
}
