import { z } from 'zod';
import { RequestIdSchema } from './call';
import { WireErrorSchema } from './wire-error';

/**
 * A reply to a message that could not be handled (garbled, unknown, out of order, refused handshake).
 * `id` names the call it concerns when one could be read, so that call fails at once instead of timing out.
 */
export const ProtocolErrorSchema = z.object({ type: z.literal('error'), id: RequestIdSchema.nullable(), error: WireErrorSchema });
export type ProtocolError = z.infer<typeof ProtocolErrorSchema>;
