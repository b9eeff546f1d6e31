import { z } from 'zod';
import { RequestIdSchema } from './call';
import { WireErrorSchema } from './wire-error';

/**
 * Terrace 2 of retrieval in relay mode: the plugin's engine has no model of its own, so while a call runs
 * it asks the bridge (whose MCP client declared sampling in the hello) to interpret the candidates.
 * Shapes mirror InterpretRequest / Interpretation (shared/retrieval/terrace2.ts).
 */
const IdSchema = z.string().min(1).max(1000);

export const InterpretRequestSchema = z.object({
  query: z.string(),
  query_class: z.string(),
  temperature: z.number(),
  candidates: z
    .array(z.object({ id: IdSchema, title: z.string(), path: z.string(), note_type: z.string(), score: z.number(), excerpt: z.string() }))
    .max(500),
  min: z.number().int().nonnegative(),
  max: z.number().int().nonnegative(),
});

export const InterpretationSchema = z.object({
  selected: z.array(IdSchema).max(500),
  bridges: z.array(z.object({ a: IdSchema, b: IdSchema, why: z.string().max(2000) })).max(500),
  confidence: z.number().min(0).max(1),
  follow_up_queries: z.array(z.string().max(2000)).max(20),
});

/** host → bridge: interpret for call `call_id` (one the bridge made and is still waiting for). `id` is the host's own. */
export const InterpretSchema = z.object({
  type: z.literal('interpret'),
  id: RequestIdSchema,
  call_id: RequestIdSchema,
  request: InterpretRequestSchema,
});
export type Interpret = z.infer<typeof InterpretSchema>;

const InterpretedOkSchema = z.object({ type: z.literal('interpreted'), id: RequestIdSchema, ok: z.literal(true), interpretation: InterpretationSchema });
const InterpretedErrSchema = z.object({ type: z.literal('interpreted'), id: RequestIdSchema, ok: z.literal(false), error: WireErrorSchema });

/** bridge → host: the one answer to an `interpret`. */
export const InterpretedSchema = z.discriminatedUnion('ok', [InterpretedOkSchema, InterpretedErrSchema]);
export type Interpreted = z.infer<typeof InterpretedSchema>;
