import { z } from 'zod';
import { WireErrorSchema } from './wire-error';

/** Request ids are chosen by the bridge and unique per connection. */
export const RequestIdSchema = z.string().min(1).max(64);

/** Matches ToolCaller (shared/tools/types.ts): who the call is made for. */
export const CallerSchema = z.object({
  kind: z.enum(['agent', 'human']),
  agent_id: z.string().min(1).max(200).nullable(),
});

/** bridge → host: run a tool. The host enforces min(deadline_ms, its own ceiling). */
export const CallSchema = z.object({
  type: z.literal('call'),
  id: RequestIdSchema,
  tool: z.string().min(1).max(200),
  args: z.unknown(),
  caller: CallerSchema,
  deadline_ms: z.number().int().positive().max(24 * 60 * 60 * 1000),
  /** The bridge's record of its MCP session (CallOptions.sessionRecord); absent: an agent's call. */
  session_record: z.boolean().optional(),
});
export type Call = z.infer<typeof CallSchema>;

const ResultOkSchema = z.object({ type: z.literal('result'), id: RequestIdSchema, ok: z.literal(true), result: z.unknown() });
const ResultErrSchema = z.object({ type: z.literal('result'), id: RequestIdSchema, ok: z.literal(false), error: WireErrorSchema });

/** host → bridge: the one answer to a call, unless it was cancelled. */
export const ResultSchema = z.discriminatedUnion('ok', [ResultOkSchema, ResultErrSchema]);
export type Result = z.infer<typeof ResultSchema>;

/** bridge → host: the caller gave up (its own deadline, or the MCP client cancelled); the host sends no result. */
export const CancelSchema = z.object({ type: z.literal('cancel'), id: RequestIdSchema });
export type Cancel = z.infer<typeof CancelSchema>;
