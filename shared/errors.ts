/**
 * The one error type of the engine. `code` is stable API: agents and the CLI branch on it,
 * so codes are only ever added, never renamed.
 */
export type ErrorCode =
  | 'invalid_argument'
  | 'not_found'
  /** The caller may not do this (governance policy); the message names the rule. */
  | 'forbidden'
  | 'conflict'
  | 'path_outside_vault'
  | 'vault_unavailable'
  | 'vault_locked'
  | 'note_too_large'
  | 'binary_file'
  | 'store_corrupt'
  | 'model_missing'
  | 'embedding_failed'
  /** A model download failed; `data.reason` is http, network, disk, truncated, checksum or manifest. */
  | 'download_failed'
  /** The person (or the host) stopped a long operation before it finished. */
  | 'cancelled'
  | 'unsupported'
  | 'internal'
  // Bridge transport (shared/protocol). `unavailable` and `timeout` carry `data.retryable`.
  | 'unauthorized'
  | 'timeout'
  | 'unavailable'
  | 'protocol_mismatch'
  | 'protocol_error'
  | 'payload_too_large';

export class LithosError extends Error {
  readonly code: ErrorCode;
  readonly data: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, data: Record<string, unknown> = {}) {
    super(message);
    this.name = 'LithosError';
    this.code = code;
    this.data = data;
  }

  toJSON(): { code: ErrorCode; message: string; data: Record<string, unknown> } {
    return { code: this.code, message: this.message, data: this.data };
  }
}

/** Wraps anything thrown into a LithosError without losing the original message. */
export function asLithosError(err: unknown, fallback: ErrorCode = 'internal'): LithosError {
  if (err instanceof LithosError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new LithosError(fallback, message);
}
