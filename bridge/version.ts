/** The bridge's version: named in protocol-mismatch messages and printed by `lithos --version`. */
export const BRIDGE_VERSION = '0.1.0';
