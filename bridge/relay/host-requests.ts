import { LithosError } from '../../shared/errors';
import type { Sampler } from '../../shared/learning/reflection-wording';
import type { Interpret } from '../../shared/protocol/interpret';
import type { Message } from '../../shared/protocol/messages';
import type { Sample } from '../../shared/protocol/sample';
import { toWireError } from '../../shared/protocol/wire-error';
import type { Interpreter } from '../../shared/retrieval/terrace2';

/**
 * The host's requests for the MCP client's sampling during a call of this bridge: `interpret` (terrace 2 of
 * retrieval) and `sample` (reflection's wording, shared/learning/reflection-wording.ts). Sampling spends the
 * person's model, so only for a call this bridge made and still waits for; any failure is an ok:false answer.
 */
export async function answerHostRequest(
  msg: Interpret | Sample,
  d: { interpreter: Interpreter | null; sampler: Sampler | null; inFlight(callId: string): boolean },
): Promise<Message> {
  try {
    if (!(msg.type === 'interpret' ? d.interpreter : d.sampler)) throw new LithosError('unavailable', "this bridge's MCP client does not support sampling", { retryable: false });
    if (!d.inFlight(msg.call_id)) throw new LithosError('invalid_argument', `no call "${msg.call_id}" of this bridge is in flight`, { retryable: false });
    if (msg.type === 'interpret') return { type: 'interpreted', id: msg.id, ok: true, interpretation: await d.interpreter!.interpret(msg.request) };
    const r = msg.request;
    return { type: 'sampled', id: msg.id, ok: true, text: await d.sampler!.sample({ system: r.system, prompt: r.prompt, maxTokens: r.max_tokens, timeoutMs: r.timeout_ms }) };
  } catch (err) {
    return failedAnswer(msg, err);
  }
}

/** The ok:false answer to a host request. */
export function failedAnswer(msg: Interpret | Sample, err: unknown): Message {
  return msg.type === 'interpret' ? { type: 'interpreted', id: msg.id, ok: false, error: toWireError(err) } : { type: 'sampled', id: msg.id, ok: false, error: toWireError(err) };
}
