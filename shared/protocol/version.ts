/**
 * The bridge protocol's version. Bump it on any change a peer of the previous version would misread;
 * both sides refuse a peer of another version with `protocol_mismatch`, naming both versions.
 *
 * Not bumped for terrace 2 over the relay (hello.sampling, interpret/interpreted): an older host ignores
 * the hello's extra field and never sends `interpret`; an older bridge omits it, so the host never asks.
 */
export const PROTOCOL_VERSION = 1;
