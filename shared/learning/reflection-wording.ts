/**
 * Reflection's sampling pass (docs/ledger.md, "Reflection"): where an MCP client offers sampling, its model is
 * asked to word a repeated procedure the rule-based pass found — a title, when it applies, what starts it, and
 * one line per step — or to reject it as no real workflow. The rule-based grouping stays the only source of
 * candidates and of the steps themselves: the model neither adds, drops nor reorders a step, and every
 * method line still names its tool, so "covered" keeps working on the words it wrote.
 *
 * Bounded: one short prompt per candidate (the group, the steps, at most PROMPT.titles task titles, each
 * clipped), a token cap, a timeout, and at most PROMPT.per_run requests per pass. Deterministic fallback:
 * without a sampler, on a timeout, a refusal or an answer not of the shape asked for, the rule-based text is
 * used, and the report says why.
 */
import type { Timers } from '../ports';

/** Sampling as the host offers it (bridge/mcp/reflection-sampler.ts: the MCP client's sampling/createMessage). */
export interface Sampler {
  /** The model's text answer to one prompt; throws on refusal or failure. */
  sample(req: { system: string; prompt: string; maxTokens: number; timeoutMs: number }): Promise<string>;
}

export const PROMPT = {
  /** Requests per reflection pass; further candidates keep the rule-based text. */
  per_run: 5,
  timeout_ms: 20_000,
  max_tokens: 800,
  /** Task titles shown as examples, and how much of each. */
  titles: 5,
  title_chars: 80,
} as const;

/** What the model may write, and how long each part may be. */
const LIMITS = { title: 80, context: 300, trigger: 200, step: 160, why: 300 } as const;

export interface Wording {
  title: string;
  context: string;
  trigger: string;
  /** One line per step, the step's tool named in each. */
  method: string;
}

export type WordingOutcome =
  | { kind: 'model'; wording: Wording }
  | { kind: 'rejected'; why: string }
  /** The rule-based text stands; `why` says why the model's did not (null: no sampler was offered). */
  | { kind: 'rule'; why: string | null };

const SYSTEM =
  'You name and describe workflows that software agents repeat, for a person who decides whether to keep them. ' +
  'Answer with one JSON object and nothing else: no prose, no Markdown.';

export function wordingPrompt(group: string, steps: readonly string[], titles: readonly string[]): string {
  const clip = (s: string) => {
    const flat = s.replace(/\s+/g, ' ').trim();
    return flat.length > PROMPT.title_chars ? `${flat.slice(0, PROMPT.title_chars - 1)}…` : flat;
  };
  return [
    `${titles.length} completed tasks on "${clip(group)}" took the same ${steps.length} steps (tool calls) in this order:`,
    ...steps.map((s, i) => `${i + 1}. ${s}`),
    '',
    'Some of the tasks:',
    ...titles.slice(0, PROMPT.titles).map((t) => `- ${clip(t)}`),
    '',
    'If this is a real, reusable workflow, word it: a short title, when it applies (context), what starts it (trigger),',
    `and one short imperative line per step, in the same order — exactly ${steps.length} lines, without the tool names.`,
    'If it is not a workflow worth keeping (an accident of how the tasks were done), reject it and say why in a sentence.',
    'Answer with exactly one of these JSON shapes:',
    '{"accept": true, "title": "...", "context": "...", "trigger": "...", "steps": ["...", ...]}',
    '{"accept": false, "why": "..."}',
  ].join('\n');
}

/**
 * The model's answer, validated: the JSON object asked for (a Markdown fence around it tolerated), each text
 * one line within its limit, exactly one line per step. Anything else: a reason (the rule-based text stands).
 */
export function parseWording(text: string, steps: readonly string[]): { ok: true; outcome: WordingOutcome } | { ok: false; why: string } {
  const body = text.trim().replace(/^```(?:json)?\s*\n?([\s\S]*?)\n?```$/i, '$1').trim();
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return { ok: false, why: `the answer is not JSON: ${quote(text)}` };
  }
  const o = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  if (!o || typeof o.accept !== 'boolean') return { ok: false, why: 'the answer has no "accept": true or false' };
  if (!o.accept) {
    const why = line(o.why, LIMITS.why);
    return why ? { ok: true, outcome: { kind: 'rejected', why } } : { ok: false, why: 'a rejection without a "why"' };
  }
  const title = line(o.title, LIMITS.title);
  const context = line(o.context, LIMITS.context);
  const trigger = line(o.trigger, LIMITS.trigger);
  if (!title || !context || !trigger) return { ok: false, why: `"title", "context" and "trigger" must each be one line of text (at most ${LIMITS.title}, ${LIMITS.context} and ${LIMITS.trigger} characters)` };
  const lines = Array.isArray(o.steps) ? o.steps.map((s) => line(s, LIMITS.step)) : [];
  if (lines.length !== steps.length || lines.some((s) => s === null)) return { ok: false, why: `"steps" must be ${steps.length} lines of text, one per step (at most ${LIMITS.step} characters each)` };
  const method = steps.map((s, i) => `${i + 1}. ${lines[i]} (${s})`).join('\n');
  return { ok: true, outcome: { kind: 'model', wording: { title, context, trigger, method } } };
}

/** Asks the sampler once, bounded by PROMPT.timeout_ms on this side too; never throws. */
export async function wordProcedure(sampler: Sampler, timers: Timers, group: string, steps: readonly string[], titles: readonly string[]): Promise<WordingOutcome> {
  let handle: unknown;
  const timeout = new Promise<never>((_, reject) => {
    handle = timers.setTimeout(() => reject(new Error(`no answer within ${PROMPT.timeout_ms / 1000} s`)), PROMPT.timeout_ms);
  });
  try {
    const text = await Promise.race([sampler.sample({ system: SYSTEM, prompt: wordingPrompt(group, steps, titles), maxTokens: PROMPT.max_tokens, timeoutMs: PROMPT.timeout_ms }), timeout]);
    const parsed = parseWording(text, steps);
    return parsed.ok ? parsed.outcome : { kind: 'rule', why: parsed.why };
  } catch (err) {
    return { kind: 'rule', why: `sampling failed: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    timers.clearTimeout(handle);
  }
}

/** A string of one line within `max` characters (trimmed), else null. */
function line(v: unknown, max: number): string | null {
  if (typeof v !== 'string') return null;
  const s = v.trim();
  return s.length > 0 && s.length <= max && !/[\r\n]/.test(s) ? s : null;
}

function quote(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > 80 ? `${flat.slice(0, 80)}…` : flat);
}
