import { z } from 'zod';
import { asLithosError, LithosError, type ErrorCode } from '../errors';

/** A LithosError as it crosses the wire: `{code, message, data}`, the shape agents see. */
export const WireErrorSchema = z.object({
  code: z.string().min(1).max(100),
  message: z.string().max(10_000),
  data: z.record(z.string(), z.unknown()),
});
export type WireError = z.infer<typeof WireErrorSchema>;

/** Messages are capped so an error reply always fits the schema and the frame limit. */
export const MAX_ERROR_MESSAGE_CHARS = 4000;

export function toWireError(err: unknown): WireError {
  const e = asLithosError(err);
  const message = e.message.length > MAX_ERROR_MESSAGE_CHARS ? `${e.message.slice(0, MAX_ERROR_MESSAGE_CHARS)}…` : e.message;
  return { code: e.code, message, data: e.data };
}

/** Codes are passed through as received: a newer peer may use one this side does not know yet. */
export function fromWireError(w: WireError): LithosError {
  return new LithosError(w.code as ErrorCode, w.message, w.data);
}
