import { z } from 'zod';

/** Liveness check at the protocol level, either direction; the peer echoes the nonce. */
export const PingSchema = z.object({ type: z.literal('ping'), nonce: z.string().max(100) });
export const PongSchema = z.object({ type: z.literal('pong'), nonce: z.string().max(100) });
export type Ping = z.infer<typeof PingSchema>;
export type Pong = z.infer<typeof PongSchema>;
