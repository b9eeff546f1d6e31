const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_RE.test(value);
}

/** RFC 4122 v4 UUID from the host's Web Crypto (present in Node ≥ 19, Electron and mobile webviews). */
export function newId(): string {
  return globalThis.crypto.randomUUID();
}
