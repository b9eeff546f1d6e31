/**
 * Terrace 2 of retrieval over MCP sampling: the bridge asks the connected client's own model, with
 * `sampling/createMessage`, to pick and connect the notes that serve a query (shared/retrieval/terrace2.ts).
 * Wired only when the client declared the `sampling` capability at initialize. Whatever goes wrong (refusal,
 * timeout, an answer that is not the JSON asked for) is a LithosError, which retrieve() records on the
 * receipt as "skipped: interpreter failed (…)", keeping the terrace-1 ranking: a pass is never faked.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError, type CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { LithosError } from '../../shared/errors';
import type { Logger } from '../../shared/ports';
import type { InterpretRequest, Interpretation, Interpreter } from '../../shared/retrieval/terrace2';
import type { Sampler } from '../../shared/learning/reflection-wording';
import { mcpSampler } from './reflection-sampler';

/**
 * Below the 45 s call deadline even when the interpreter is asked twice (a follow-up round), with time
 * left for the scans.
 */
export const SAMPLING_TIMEOUT_MS = 20_000;
/** The answer is a short JSON object; this bounds what the client's model may spend on it. */
const MAX_TOKENS = 1_500;
/** Per candidate: enough text to judge it, short enough that 30 candidates stay a compact prompt. */
const EXCERPT_CHARS = 280;
/** Shown in error messages, so a receipt says what came back without storing the whole answer. */
const QUOTE_CHARS = 80;

type CreateMessage = (params: CreateMessageRequest['params'], options?: { timeout?: number }) => Promise<unknown>;

export interface SamplingInterpreterOptions {
  timeoutMs?: number;
  logger?: Logger;
}

const SYSTEM_PROMPT =
  'You help an agent gather memory from a notes vault. You receive a query and candidate notes ranked by a fast scorer. ' +
  'Answer with one JSON object and nothing else: no prose, no Markdown.';

const answerSchema = z.object({
  selected: z.array(z.string().trim().min(1).max(200)).min(1).max(50),
  bridges: z
    .array(z.object({ a: z.string().trim().min(1).max(200), b: z.string().trim().min(1).max(200), why: z.string().trim().min(1).max(500) }))
    .max(50)
    .default([]),
  confidence: z.number().min(0).max(1),
  follow_up_queries: z.array(z.string().trim().min(1).max(500)).max(5).default([]),
});

export class SamplingInterpreter implements Interpreter {
  private readonly timeoutMs: number;

  /** `createMessage`: the MCP server's own (Server.createMessage), bound. */
  constructor(
    private readonly createMessage: CreateMessage,
    private readonly opts: SamplingInterpreterOptions = {},
  ) {
    this.timeoutMs = opts.timeoutMs ?? SAMPLING_TIMEOUT_MS;
  }

  async interpret(req: InterpretRequest): Promise<Interpretation> {
    let result: unknown;
    try {
      result = await this.createMessage(
        {
          messages: [{ role: 'user', content: { type: 'text', text: samplingPrompt(req) } }],
          systemPrompt: SYSTEM_PROMPT,
          includeContext: 'none',
          temperature: 0,
          maxTokens: MAX_TOKENS,
          modelPreferences: { intelligencePriority: 0.6, speedPriority: 0.6, costPriority: 0.3 },
        },
        { timeout: this.timeoutMs },
      );
    } catch (err) {
      throw samplingFailure(err, this.timeoutMs);
    }
    const answer = parseInterpretation(result, req);
    this.opts.logger?.debug(`terrace 2 via sampling: ${answer.selected.length} selected, confidence ${answer.confidence}`);
    return answer;
  }
}

/** The prompt: the query, its class and temperature, and each candidate as id, title, type and excerpt. */
export function samplingPrompt(req: InterpretRequest): string {
  const lines = req.candidates.map((c, i) => {
    const excerpt = c.excerpt.replace(/\s+/g, ' ').trim().slice(0, EXCERPT_CHARS);
    return `${i + 1}. id=${c.id} | ${c.title} | ${c.note_type}${excerpt ? `\n   ${excerpt}` : ''}`;
  });
  const range = req.min >= req.max ? `${req.max}` : `${req.min} to ${req.max}`;
  return [
    `Query (${req.query_class}): ${req.query}`,
    `The fast ranking is unsure (temperature ${req.temperature.toFixed(2)} on a 0–1 scale), so choose with judgement.`,
    '',
    `Candidates, best first by the fast ranking (${req.candidates.length}):`,
    ...lines,
    '',
    `Select the ${range} candidates that best serve the query, most useful first, by their ids.`,
    'Name bridges: pairs of selected notes whose connection matters for the query, with why in a few words.',
    'Give your confidence (0 to 1) that the selection covers what the query needs, and, if something is missing, up to 2 short search queries that would find it.',
    'Answer with exactly this JSON shape:',
    '{"selected": ["<id>", ...], "bridges": [{"a": "<id>", "b": "<id>", "why": "..."}], "confidence": 0.0, "follow_up_queries": ["..."]}',
  ].join('\n');
}

/**
 * The client's answer as an Interpretation, validated: text content holding the JSON object (a Markdown
 * code fence around it is tolerated), selected ids among the candidates (others dropped, none left is an
 * error), bridges only between candidates.
 */
export function parseInterpretation(result: unknown, req: InterpretRequest): Interpretation {
  const text = textOf(result);
  const body = text.trim().replace(/^```(?:json)?\s*\n?([\s\S]*?)\n?```$/i, '$1').trim();
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw malformed(`is not JSON: ${quote(text)}`);
  }
  const parsed = answerSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? issue.path.join('.') : 'the answer';
    throw malformed(`does not have the shape asked for: ${where}: ${issue.message}`);
  }
  const known = new Set(req.candidates.map((c) => c.id));
  const selected = [...new Set(parsed.data.selected)].filter((id) => known.has(id));
  if (selected.length === 0) {
    throw malformed(`selected none of the ${req.candidates.length} candidate ids (got ${quote(parsed.data.selected.join(', '))})`);
  }
  return {
    selected,
    bridges: parsed.data.bridges.filter((b) => known.has(b.a) && known.has(b.b) && b.a !== b.b),
    confidence: parsed.data.confidence,
    follow_up_queries: parsed.data.follow_up_queries.slice(0, 2),
  };
}

function textOf(result: unknown): string {
  const content = (result as { content?: unknown } | null)?.content;
  const blocks = (Array.isArray(content) ? content : [content]) as ({ type?: unknown; text?: unknown } | null | undefined)[];
  const texts = blocks.filter((b) => b?.type === 'text' && typeof b.text === 'string').map((b) => b!.text as string);
  if (texts.length === 0) {
    const kinds = blocks.map((b) => (typeof b?.type === 'string' ? b.type : 'nothing')).join(', ');
    throw malformed(`has no text content (got ${kinds})`);
  }
  return texts.join('\n');
}

function malformed(what: string): LithosError {
  return new LithosError('protocol_error', `the MCP client's sampling answer ${what}`);
}

function quote(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > QUOTE_CHARS ? `${flat.slice(0, QUOTE_CHARS)}…` : flat);
}

function samplingFailure(err: unknown, timeoutMs: number): LithosError {
  if (err instanceof LithosError) return err;
  if (err instanceof McpError && err.code === Number(ErrorCode.RequestTimeout)) {
    return new LithosError('timeout', `the MCP client did not answer sampling/createMessage within ${timeoutMs >= 1000 ? `${timeoutMs / 1000} s` : `${timeoutMs} ms`}`, { retryable: true });
  }
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof McpError && err.code === Number(ErrorCode.ConnectionClosed)) {
    return new LithosError('unavailable', `the MCP client disconnected during sampling/createMessage`, { retryable: true });
  }
  if (err instanceof Error && err.name === 'ZodError') {
    return new LithosError('protocol_error', `the MCP client's sampling answer is not a sampling/createMessage result`);
  }
  // A refusal (the person declined) or an error answer.
  return new LithosError('unavailable', `the MCP client did not sample: ${message}`);
}

/** Where an interpreter goes: the tool host hands it to the engine (now, or when the vault opens). */
export interface InterpreterSink {
  setInterpreter?(interpreter: Interpreter | null): void;
  /** Reflection's sampling (reflection-sampler.ts); a host whose engine lives elsewhere (relay) has none. */
  setSampler?(sampler: Sampler | null): void;
}

/**
 * Once the client has initialized: when it declared `sampling`, terrace 2 runs through it; otherwise no
 * interpreter is set, and receipts say terrace 2 was skipped because none is configured.
 */
export function wireSampling(server: Server, host: InterpreterSink, logger: Logger, opts: Omit<SamplingInterpreterOptions, 'logger'> = {}): void {
  const previous = server.oninitialized;
  server.oninitialized = () => {
    previous?.();
    const client = server.getClientVersion()?.name ?? 'the client';
    if (!host.setInterpreter) {
      logger.info(`terrace 2 of retrieval is off: this tool host cannot take an interpreter`);
    } else if (server.getClientCapabilities()?.sampling) {
      host.setInterpreter(new SamplingInterpreter((params, options) => server.createMessage(params, options), { ...opts, logger }));
      // Reflection words the procedures it finds with the same model (headless: the engine is here).
      host.setSampler?.(mcpSampler((params, options) => server.createMessage(params, options)));
      logger.info(`${client} supports sampling: terrace 2 of retrieval asks its model`);
    } else {
      host.setInterpreter(null);
      host.setSampler?.(null);
      logger.info(`${client} does not support sampling: terrace 2 of retrieval is skipped`);
    }
  };
}
