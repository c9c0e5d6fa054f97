import type { MiddlewareHandler } from 'hono';
import type { Caller } from '../../../services/caller.js';
import { TooManyRequests } from '../../../services/errors.js';
import { msg } from '../../../messages/index.js';

/** What a refused request is told to wait: about one heartbeat, when a request of the key has likely ended. */
const RETRY_AFTER_SECONDS = 1;

/**
 * Bounds the requests one worker key has in flight at once (`allowed(keyId)`): one more answers 429
 * `worker_busy` with `Retry-After` before anything of its body is read, so no key can hold the server's
 * memory or threads with many deliveries at once. Other keys pass untouched. A request counts until its
 * handler has answered (a delivery: until it is read and committed).
 * @example
 * app.use('*', workerRequestLimit((keyId) => broker.requestsAllowed(keyId)));
 */
export function workerRequestLimit(allowed: (keyId: string) => number): MiddlewareHandler<{ Variables: { caller: Caller } }> {
  const inFlight = new Map<string, number>();
  return async (c, next) => {
    const caller = c.get('caller');
    if (caller?.role !== 'worker') return next();
    const now = inFlight.get(caller.id) ?? 0;
    const max = allowed(caller.id);
    if (now >= max) {
      // Its body is not read: the connection goes with the answer.
      c.header('connection', 'close');
      throw new TooManyRequests(msg('worker_requests_in_flight', { max }), RETRY_AFTER_SECONDS, 'worker_busy');
    }
    inFlight.set(caller.id, now + 1);
    try {
      await next();
    } finally {
      const left = (inFlight.get(caller.id) ?? 1) - 1;
      if (left > 0) inFlight.set(caller.id, left);
      else inFlight.delete(caller.id);
    }
  };
}
