/** Sizes and deadlines of the bridge protocol, shared by the host and the relay client. */

/**
 * One message, as UTF-8 JSON, may not exceed this. Larger calls and results are refused with
 * `payload_too_large` rather than chunked: tool results are notes and lists an agent can page through.
 */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

/**
 * Frames up to this size are still read so the refusal can name the call it belongs to; a bigger
 * frame closes the connection (websocket close 1009) before it is buffered whole.
 */
export const HARD_FRAME_BYTES = 4 * MAX_MESSAGE_BYTES;

/** Per-call deadline: below the 60 s most MCP clients wait, so the agent gets our `timeout`, not theirs. */
export const DEFAULT_CALL_DEADLINE_MS = 45_000;

/**
 * How long the host waits for the bridge's answer to one `interpret`: just over the bridge's own sampling
 * timeout (20 s, so its clearer error normally arrives first), and twice this (retrieve may ask again after
 * follow-up queries) still fits the call deadline.
 */
export const INTERPRET_DEADLINE_MS = 21_000;

/** UTF-8 length of a string without encoding it (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
