import type { IncomingMessage } from 'node:http';
import type { HostRuntime } from './host-runtime';
import { tokenMatches } from './token';

export interface Refusal {
  status: 401 | 403;
  message: string;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Decides an upgrade request before any websocket exists. Refused:
 * - any `Origin` header: browsers always send one, so no web page can reach the vault (403);
 * - a `Host` that is not loopback: a DNS-rebinding page talks to us under a foreign name (403);
 * - a missing or wrong `Authorization: Bearer <token>` (401).
 */
export function checkUpgrade(rt: HostRuntime, req: IncomingMessage, expected: Buffer): Refusal | null {
  if (req.headers.origin !== undefined) {
    return { status: 403, message: 'Browser origins may not connect to the Lithos bridge.' };
  }
  const host = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
  if (!LOOPBACK_HOSTS.has(host)) {
    return { status: 403, message: 'The Lithos bridge answers on 127.0.0.1 only.' };
  }
  const auth = req.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  if (!match) return { status: 401, message: 'Missing "Authorization: Bearer <token>" (the token is in <vault>/.lithos/bridge.json).' };
  if (!tokenMatches(rt, match[1], expected)) return { status: 401, message: 'Wrong bridge token for this vault.' };
  return null;
}
