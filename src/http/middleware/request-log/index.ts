import type { MiddlewareHandler } from 'hono';
import { randomUUID } from 'node:crypto';
import type { Caller } from '../../../services/caller.js';
import { isClientAbort } from '../../errors.js';
import { setLateHeader } from '../response-headers/late-header.js';

/** Writes one log line; the server's logger prints JSON lines. */
export type LogFn = (msg: string, fields: Record<string, unknown>) => void;

/**
 * Gives each request an id (kept from a sane `x-request-id` header, else new), echoes it back,
 * and logs one JSON line per request with status and duration.
 * @example
 * app.use('*', requestLog(log));
 */
export function requestLog(log: LogFn): MiddlewareHandler<{ Variables: { requestId: string; caller?: Caller } }> {
  return async (c, next) => {
    const given = c.req.header('x-request-id');
    const id = given && /^[\w.-]{1,100}$/.test(given) ? given : randomUUID();
    c.set('requestId', id);
    const started = performance.now();
    await next();
    setLateHeader(c, 'x-request-id', id);
    log('request', {
      request_id: id,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      key_id: c.get('caller')?.id,
      // A body the client broke off: this line is the only one about it (no error, no stack).
      ...(c.error && isClientAbort(c.error) ? { aborted: true } : {}),
    });
  };
}
