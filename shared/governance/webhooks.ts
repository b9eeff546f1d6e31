/**
 * Webhooks (docs/events.md): the vault policy lists endpoints, and each public event (public-events.ts) is
 * POSTed to those that want it as JSON, signed with HMAC-SHA256 when the endpoint has a secret.
 *
 * Per endpoint, events go out one at a time in order; a network error, 408, 429 or 5xx is retried with
 * exponential backoff, any other answer or the last failed attempt drops the event and audits
 * `webhook.failed`. The queue is bounded: past it the oldest waiting event is dropped, and the count is audited
 * (`webhook.dropped`) once the queue drains. Only loopback hosts, or https hosts the policy allows by name, are
 * ever contacted (policy.ts refuses others when the policy is set).
 */
import type { Clock, Logger, Timers } from '../ports';
import type { AuditLog } from './audit';
import type { LithosEvent, PublicEventType } from './public-events';

export interface WebhookSpec {
  url: string;
  /** Event types to send; all when absent. */
  events?: PublicEventType[];
  /** Signs each body (header X-Lithos-Signature: sha256=<hex HMAC>) so the receiver can tell it came from here. */
  secret?: string;
}

/** The host's HTTP POST; null where the host cannot make requests (then webhooks are reported, not sent). */
export type HttpPost = (url: string, body: string, headers: Record<string, string>) => Promise<{ status: number }>;

export interface WebhookOptions {
  /** Events waiting per endpoint before the oldest are dropped. */
  maxQueue: number;
  maxAttempts: number;
  /** First retry delay; each next one doubles, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const WEBHOOK_DEFAULTS: Readonly<WebhookOptions> = Object.freeze({ maxQueue: 1000, maxAttempts: 6, baseDelayMs: 1000, maxDelayMs: 5 * 60_000 });

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Why a webhook URL may not be used, or null: loopback over http(s), or an https host named in `allowedHosts`. */
export function webhookUrlProblem(url: string, allowedHosts: readonly string[]): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `"${url}" is not a URL`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `"${url}" must be http(s)`;
  if (u.username || u.password) return `"${url}" must not carry credentials (use "secret" to sign instead)`;
  if (LOOPBACK.test(u.hostname)) return null;
  if (!allowedHosts.some((h) => h.toLowerCase() === u.hostname.toLowerCase())) {
    return `"${u.hostname}" is neither a loopback host nor listed in webhook_hosts`;
  }
  return u.protocol === 'https:' ? null : `"${url}" must use https (only loopback hosts may use http)`;
}

const enc = new TextEncoder();

/** Lower-case hex HMAC-SHA256 of `body` under `secret` (Web Crypto: Node, Electron and mobile alike). */
export async function signBody(secret: string, body: string): Promise<string> {
  const key = await globalThis.crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, enc.encode(body)));
  let hex = '';
  for (const b of mac) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/** The URL as the audit trail keeps it: no query string or fragment (they may hold tokens). */
const auditUrl = (url: string): string => url.replace(/[?#].*$/, '');

interface Endpoint {
  spec: WebhookSpec;
  queue: LithosEvent[];
  attempts: number;
  busy: boolean;
  timer: unknown;
  dropped: number;
}

export interface WebhookDeps {
  post: HttpPost | null;
  timers: Timers;
  clock: Clock;
  audit: AuditLog;
  logger: Logger;
  /** The endpoints in force (read at each event, so a policy change applies at once). */
  endpoints: () => readonly WebhookSpec[];
}

export class WebhookSender {
  private readonly endpoints = new Map<string, Endpoint>();
  private readonly o: WebhookOptions;
  private closed = false;
  private warnedNoPost = false;
  private readonly inflight = new Set<Promise<void>>();

  constructor(
    private readonly d: WebhookDeps,
    options: Partial<WebhookOptions> = {},
  ) {
    this.o = { ...WEBHOOK_DEFAULTS, ...options };
  }

  /** Queues the event for every endpoint that wants it. */
  send(event: LithosEvent): void {
    if (this.closed) return;
    const specs = this.d.endpoints();
    if (specs.length === 0) return;
    if (!this.d.post) {
      if (!this.warnedNoPost) this.d.logger.warn('webhooks are listed in the policy, but this host cannot make HTTP requests: none is sent.');
      this.warnedNoPost = true;
      return;
    }
    const live = new Set(specs.map((s) => s.url));
    for (const [url, ep] of this.endpoints) if (!live.has(url) && !ep.busy) this.forget(url, ep);
    for (const spec of specs) {
      if (spec.events && !spec.events.includes(event.type)) continue;
      let ep = this.endpoints.get(spec.url);
      if (!ep) this.endpoints.set(spec.url, (ep = { spec, queue: [], attempts: 0, busy: false, timer: null, dropped: 0 }));
      ep.spec = spec;
      if (ep.queue.length >= this.o.maxQueue) {
        // The oldest waiting event goes; the one being sent (index 0) is left to finish.
        ep.queue.splice(ep.busy || ep.timer ? 1 : 0, 1);
        if (ep.dropped++ === 0) this.d.logger.warn(`webhook ${auditUrl(spec.url)}: more than ${this.o.maxQueue} events waiting; the oldest are dropped.`);
      }
      ep.queue.push(event);
      this.pump(ep);
    }
  }

  /** Resolves once no request is in flight (events waiting for a retry stay queued). */
  async settled(): Promise<void> {
    while (this.inflight.size > 0) await Promise.all([...this.inflight]);
  }

  /** Events still waiting, per endpoint URL. */
  waiting(): Record<string, number> {
    return Object.fromEntries([...this.endpoints].map(([url, ep]) => [url, ep.queue.length]));
  }

  /** Stops retries; what is still queued is not sent (logged). */
  close(): void {
    this.closed = true;
    for (const [url, ep] of this.endpoints) this.forget(url, ep);
  }

  private forget(url: string, ep: Endpoint): void {
    if (ep.timer) this.d.timers.clearTimeout(ep.timer);
    ep.timer = null;
    if (ep.queue.length) this.d.logger.warn(`webhook ${auditUrl(url)}: ${ep.queue.length} event(s) not sent (closed or removed from the policy).`);
    this.endpoints.delete(url);
  }

  private pump(ep: Endpoint): void {
    if (this.closed || ep.busy || ep.timer || ep.queue.length === 0) return;
    ep.busy = true;
    const run = this.deliver(ep).finally(() => this.inflight.delete(run));
    this.inflight.add(run);
  }

  private async deliver(ep: Endpoint): Promise<void> {
    const event = ep.queue[0];
    const body = JSON.stringify(event);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-lithos-event': event.type,
      'x-lithos-delivery': String(event.seq),
      'x-lithos-attempt': String(ep.attempts + 1),
    };
    let retry = false;
    let error: string | null = null;
    try {
      if (ep.spec.secret) headers['x-lithos-signature'] = `sha256=${await signBody(ep.spec.secret, body)}`;
      const r = await this.d.post!(ep.spec.url, body, headers);
      if (r.status < 200 || r.status >= 300) {
        error = `HTTP ${r.status}`;
        retry = r.status === 408 || r.status === 429 || r.status >= 500;
      }
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
      retry = true;
    }
    ep.busy = false;
    if (this.closed) return;
    if (error === null) {
      ep.queue.shift();
      ep.attempts = 0;
    } else if (retry && ep.attempts + 1 < this.o.maxAttempts) {
      const delay = Math.min(this.o.maxDelayMs, this.o.baseDelayMs * 2 ** ep.attempts);
      ep.attempts++;
      ep.timer = this.d.timers.setTimeout(() => {
        ep.timer = null;
        this.pump(ep);
      }, delay);
      return;
    } else {
      ep.queue.shift();
      const attempts = ep.attempts + 1;
      ep.attempts = 0;
      await this.audit('webhook.failed', ep, { event: event.type, seq: event.seq, attempts, error });
    }
    if (ep.queue.length === 0 && ep.dropped > 0) {
      const dropped = ep.dropped;
      ep.dropped = 0;
      await this.audit('webhook.dropped', ep, { dropped, queue_limit: this.o.maxQueue });
    }
    this.pump(ep);
  }

  private async audit(action: 'webhook.failed' | 'webhook.dropped', ep: Endpoint, data: Record<string, unknown>): Promise<void> {
    try {
      await this.d.audit.append({ action, actor: { kind: 'system', id: null }, target: auditUrl(ep.spec.url), data });
    } catch (err) {
      this.d.logger.warn(`webhook ${auditUrl(ep.spec.url)}: could not audit ${action} (${String(err)}).`);
    }
  }
}
