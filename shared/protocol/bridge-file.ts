import { z } from 'zod';

/**
 * `<vault>/.lithos/bridge.json`: how a local bridge finds and authenticates to the plugin's host.
 * Written by the host (owner-only, atomically) while it listens, removed when it stops.
 */
export const BRIDGE_FILE = 'bridge.json';

export const BridgeFileSchema = z.object({
  port: z.number().int().min(1).max(65_535),
  /** 256-bit bearer token, hex. */
  token: z.string().regex(/^[0-9a-f]{64}$/),
  /** The process hosting the server (Obsidian), so a client can tell a stale file from a live host. */
  pid: z.number().int().positive(),
  protocol_version: z.number().int(),
  plugin_version: z.string(),
});
export type BridgeFile = z.infer<typeof BridgeFileSchema>;
