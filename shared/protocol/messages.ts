import { z } from 'zod';
import { LithosError } from '../errors';
import { CallSchema, CancelSchema, ResultSchema } from './call';
import { HelloSchema, WelcomeSchema } from './handshake';
import { InterpretedSchema, InterpretSchema } from './interpret';
import { MAX_MESSAGE_BYTES, utf8ByteLength } from './limits';
import { PingSchema, PongSchema } from './ping';
import { SampledSchema, SampleSchema } from './sample';
import { ProtocolErrorSchema } from './protocol-error';

/** Every message of the bridge protocol, one JSON text frame each, discriminated by `type`. */
export const MessageSchema = z.discriminatedUnion('type', [
  HelloSchema,
  WelcomeSchema,
  CallSchema,
  ResultSchema,
  CancelSchema,
  PingSchema,
  PongSchema,
  ProtocolErrorSchema,
  InterpretSchema,
  InterpretedSchema,
  SampleSchema,
  SampledSchema,
]);
export type Message = z.infer<typeof MessageSchema>;

const TYPES: ReadonlySet<string> = new Set(['hello', 'welcome', 'call', 'result', 'cancel', 'ping', 'pong', 'error', 'interpret', 'interpreted', 'sample', 'sampled']);

export type Decoded =
  | { ok: true; message: Message }
  /** `type` and `id` as far as they could be read, so the reply can name the call it refuses. */
  | { ok: false; error: LithosError; type: string | null; id: string | null };

function tooLarge(what: string, bytes: number): LithosError {
  return new LithosError(
    'payload_too_large',
    `${what} is ${bytes} bytes, over the bridge's limit of ${MAX_MESSAGE_BYTES} bytes per message. Ask for less (a smaller page, one note at a time).`,
    { bytes, limit: MAX_MESSAGE_BYTES, retryable: false },
  );
}

/**
 * Serialises one message. A message over MAX_MESSAGE_BYTES is refused with `payload_too_large`
 * (`what` names it in the error); a value JSON cannot represent (a cycle, a BigInt) with `invalid_argument`.
 */
export function encodeMessage(msg: Message, what = 'The message'): string {
  let text: string;
  try {
    text = JSON.stringify(msg);
  } catch (err) {
    throw new LithosError('invalid_argument', `${what} cannot be sent as JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  // Cheap bound first: a UTF-16 unit is at most 3 UTF-8 bytes.
  if (text.length * 3 > MAX_MESSAGE_BYTES) {
    const bytes = utf8ByteLength(text);
    if (bytes > MAX_MESSAGE_BYTES) throw tooLarge(what, bytes);
  }
  return text;
}

/** Parses and validates one frame. Never throws: anything wrong becomes a `protocol_error` (or `payload_too_large`). */
export function decodeMessage(text: string): Decoded {
  // Cheap bound first: a UTF-16 unit is at most 3 UTF-8 bytes.
  const bytes = text.length * 3 > MAX_MESSAGE_BYTES ? utf8ByteLength(text) : 0;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    if (bytes > MAX_MESSAGE_BYTES) return { ok: false, error: tooLarge('The frame', bytes), type: null, id: null };
    return refused('The frame is not valid JSON.', null, null);
  }
  const head = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;
  const type = typeof head?.type === 'string' ? head.type : null;
  const id = typeof head?.id === 'string' && head.id.length > 0 && head.id.length <= 64 ? head.id : null;
  if (bytes > MAX_MESSAGE_BYTES) return { ok: false, error: tooLarge(type === 'call' ? 'The call' : 'The message', bytes), type, id };
  if (!head) return refused('A message must be a JSON object with a "type".', null, null);
  if (type === null) return refused('The message has no "type".', null, id);
  if (!TYPES.has(type)) return refused(`Unknown message type "${type.slice(0, 40)}".`, type, id);
  const parsed = MessageSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(message)'}: ${i.message}`);
    return refused(`Malformed "${type}" message: ${issues.join('; ')}.`, type, id);
  }
  return { ok: true, message: parsed.data };
}

function refused(message: string, type: string | null, id: string | null): Decoded {
  return { ok: false, error: new LithosError('protocol_error', message, { retryable: false }), type, id };
}
