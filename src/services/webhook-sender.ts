import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { allowedAddresses, pinnedLookup, systemResolver, type EgressPolicy, type Resolver } from '../media/index.js';
import type { WebhookRepository } from '../store/webhooks.js';
import { nowIso } from './timestamps.js';

/** Delivery policy: per-attempt timeout and the waits before each retry (their count bounds the attempts). */
export interface DeliveryPolicy {
  timeoutMs: number;
  retryDelaysMs: number[];
  /** Delivered and failed deliveries older than this are deleted (default DELIVERY_RETENTION_MS). */
  keepFinishedMs?: number;
}

/** Finished (delivered or failed) deliveries are kept 30 days, then pruned; pending ones are never pruned. */
export const DELIVERY_RETENTION_MS = 30 * 24 * 3600 * 1000;

/** How often the sender prunes finished deliveries. */
const PRUNE_EVERY_MS = 3600 * 1000;

/** 1 try + 5 retries over about 36 minutes. */
export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = {
  timeoutMs: 10_000,
  retryDelaysMs: [5_000, 30_000, 120_000, 600_000, 1_800_000],
};

/**
 * The `x-vidx-signature` value: `sha256=` and the hex HMAC-SHA256, with the webhook's secret, of
 * `<timestamp>.<raw body>` (`timestamp` is the `x-vidx-timestamp` header, Unix seconds). Signing the time
 * lets a receiver refuse a replayed delivery.
 * @example
 * signBody('whsec_..', '1767225600', '{"id":"..."}'); // 'sha256=3f1c…'
 */
export function signBody(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex')}`;
}

/** Posts a delivery to an address the policy allows, connecting to the checked address; resolves the status. */
async function post(url: URL, body: string, headers: Record<string, string>, egress: EgressPolicy, resolver: Resolver, timeoutMs: number): Promise<number> {
  let addresses: string[];
  try {
    addresses = await allowedAddresses(url.hostname, egress, resolver);
  } catch {
    throw new Error('the receiver cannot be reached or its address is not allowed (see VIDX_URL_ALLOW)');
  }
  return new Promise((resolve, reject) => {
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: pinnedLookup(addresses), signal: AbortSignal.timeout(timeoutMs) }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('error', reject);
    req.end(body);
  });
}

const BATCH = 16;

/**
 * Sends queued webhook deliveries from SQLite, beside the tasks: a slow or dead receiver only delays its
 * own deliveries. Pending deliveries survive a restart.
 * @example
 * const sender = new WebhookSender(repo, DEFAULT_DELIVERY_POLICY, '0.1.0', egressPolicy({ loopback: true }));
 * sender.start(); // later: sender.wake() after queueing
 */
export class WebhookSender {
  private timer: NodeJS.Timeout | null = null;
  private pruneTimer: NodeJS.Timeout | null = null;
  private readonly inFlight = new Set<string>();
  private stopped = true;

  constructor(
    private readonly repo: WebhookRepository,
    private readonly policy: DeliveryPolicy,
    private readonly version: string,
    /** Receivers on loopback and public addresses; never private or link-local ones unless allowed. */
    private readonly egress: EgressPolicy,
    private readonly resolver: Resolver = systemResolver,
  ) {}

  start(): void {
    this.stopped = false;
    this.prune();
    this.pruneTimer = setInterval(() => this.prune(), PRUNE_EVERY_MS);
    this.pruneTimer.unref();
    this.wake();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    this.pruneTimer = null;
  }

  /** Deletes finished deliveries older than the policy keeps them; returns how many. */
  prune(now = Date.now()): number {
    const keep = this.policy.keepFinishedMs ?? DELIVERY_RETENTION_MS;
    return this.repo.pruneFinished(new Date(now - keep).toISOString());
  }

  /** Looks for due deliveries now and sets a timer for the next one. */
  wake(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const due = this.repo.dueDeliveries(Date.now(), BATCH + this.inFlight.size).filter((d) => !this.inFlight.has(d.id));
    for (const d of due.slice(0, BATCH)) {
      this.inFlight.add(d.id);
      void this.send(d).finally(() => {
        this.inFlight.delete(d.id);
        this.wake();
      });
    }
    const next = this.repo.nextDueAt();
    if (next !== null && due.length === 0) {
      this.timer = setTimeout(() => this.wake(), Math.max(10, Math.min(next - Date.now(), 60_000)));
      this.timer.unref();
    }
  }

  private async send(d: { id: string; url: string; secret: string; body: string; event: string; attempts: number }): Promise<void> {
    let error: string | null = null;
    let status: number | null = null;
    try {
      const timestamp = String(Math.floor(Date.now() / 1000));
      const headers = {
        'content-type': 'application/json',
        'user-agent': `vidx/${this.version}`,
        'x-vidx-event': d.event,
        'x-vidx-delivery': d.id,
        'x-vidx-timestamp': timestamp,
        'x-vidx-signature': signBody(d.secret, timestamp, d.body),
      };
      // Redirects are not followed: a receiver answers where it was registered.
      status = await post(new URL(d.url), d.body, headers, this.egress, this.resolver, this.policy.timeoutMs);
      if (status < 200 || status >= 300) error = `receiver answered ${status}`;
    } catch (err) {
      error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    }
    const attempts = d.attempts + 1;
    const retryIn = this.policy.retryDelaysMs[attempts - 1];
    const outcome =
      error === null
        ? { status: 'delivered' as const, nextAttemptAt: Date.now() }
        : retryIn === undefined
          ? { status: 'failed' as const, nextAttemptAt: Date.now() }
          : { status: 'pending' as const, nextAttemptAt: Date.now() + retryIn };
    if (this.stopped && outcome.status === 'pending') outcome.nextAttemptAt = Math.min(outcome.nextAttemptAt, Date.now());
    try {
      this.repo.recordAttempt(d.id, { ...outcome, attempts, error, responseStatus: status }, nowIso());
    } catch {
      // The database closed under us during shutdown: the delivery stays pending and goes out next start.
    }
  }
}
