import type { HttpPost } from '../shared/governance/webhooks';

/** How long a webhook endpoint has to answer before the attempt counts as failed (and is retried). */
const TIMEOUT_MS = 10_000;

/**
 * Webhook POSTs from Node (governance/webhooks.ts). Redirects are not followed: one could lead off the hosts
 * the policy allows, so a 3xx is an answer like any other non-2xx (not retried).
 */
export const nodePost: HttpPost = async (url, body, headers) => {
  const r = await fetch(url, { method: 'POST', body, headers, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  await r.body?.cancel().catch(() => undefined);
  return { status: r.status };
};
