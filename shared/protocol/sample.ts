import { z } from 'zod';
import { RequestIdSchema } from './call';
import { WireErrorSchema } from './wire-error';

/**
 * Reflection's wording in relay mode (shared/learning/reflection-wording.ts): the plugin's engine has no model of
 * its own, so while a call runs (the completion whose consolidation reflects) it asks the bridge, whose MCP client
 * declared sampling in the hello, for one text answer. Mirrors Sampler.sample.
 */
export const SampleRequestSchema = z.object({
  system: z.string().max(2_000),
  prompt: z.string().max(8_000),
  max_tokens: z.number().int().positive().max(4_000),
  timeout_ms: z.number().int().positive().max(60_000),
});

/** host → bridge: sample for call `call_id` (one the bridge made and is still waiting for). `id` is the host's own. */
export const SampleSchema = z.object({ type: z.literal('sample'), id: RequestIdSchema, call_id: RequestIdSchema, request: SampleRequestSchema });
export type Sample = z.infer<typeof SampleSchema>;

const SampledOkSchema = z.object({ type: z.literal('sampled'), id: RequestIdSchema, ok: z.literal(true), text: z.string().max(20_000) });
const SampledErrSchema = z.object({ type: z.literal('sampled'), id: RequestIdSchema, ok: z.literal(false), error: WireErrorSchema });

/** bridge → host: the one answer to a `sample`. */
export const SampledSchema = z.discriminatedUnion('ok', [SampledOkSchema, SampledErrSchema]);
export type Sampled = z.infer<typeof SampledSchema>;
