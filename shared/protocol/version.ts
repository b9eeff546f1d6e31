/**
 * The bridge protocol's version. Bump it on any change a peer of the previous version would misread;
 * both sides refuse a peer of another version with `protocol_mismatch`, naming both versions.
 */
export const PROTOCOL_VERSION = 1;
