import type { MiddlewareHandler } from 'hono';
import type { Caller } from '../../../services/caller.js';
import { Problem } from '../../../services/errors.js';
import type { KeyService } from '../../../services/keys.js';
import { msg } from '../../../messages/index.js';

/**
 * Paths served without a key: health, the API description and its reference page (with the page's files),
 * signed file links (which carry their own signature), share links (their token is the secret) and the web page's static files (the page asks for the key itself and sends it only here).
 */
const OPEN = [/^\/health$/, /^\/openapi\.json$/, /^\/docs\/?$/, /^\/docs\/assets\//, /^\/files\//, /^\/shared\/[^/]+$/, /^\/$/, /^\/index\.html$/, /^\/assets\//];

const TOUCH_EVERY_MS = 60_000;

/** The job endpoints: what a worker key reaches, and only it. */
const WORKER_PATHS = /^\/worker\//;

function workerOnly(): Problem {
  return new Problem('forbidden', msg('worker_key_only_jobs'));
}

/**
 * The API key a request carries: `x-api-key`, else `Authorization: Bearer <key>` (what MCP and other HTTP
 * clients send by habit).
 * @example
 * const key = requestKey((name) => c.req.header(name));
 */
export function requestKey(header: (name: string) => string | undefined): string | undefined {
  const key = header('x-api-key');
  if (key) return key;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header('authorization') ?? '');
  return bearer?.[1];
}

/**
 * Checks the key (`x-api-key` or a Bearer token) on every request but the open paths and sets `caller`; 401 when missing or unknown.
 * A `worker` key reaches the job endpoints under `/worker/` and nothing else (403), and only it reaches them.
 * @example
 * app.use('*', apiKeyAuth(keys));
 * app.get('/me', (c) => c.json(c.get('caller')));
 */
export function apiKeyAuth(keys: KeyService): MiddlewareHandler<{ Variables: { caller: Caller } }> {
  const touched = new Map<string, number>();
  return async (c, next) => {
    const key = requestKey((name) => c.req.header(name));
    if (OPEN.some((re) => re.test(c.req.path))) {
      // A worker key reads nothing but its jobs, not even what is open to everyone; signed links are its media.
      if (key && !c.req.path.startsWith('/files/') && keys.verify(key)?.role === 'worker') throw workerOnly();
      return next();
    }
    if (!key) throw new Problem('unauthorized', msg('key_missing'));
    const caller = keys.verify(key);
    if (!caller) throw new Problem('unauthorized', msg('key_unknown'));
    if ((caller.role === 'worker') !== WORKER_PATHS.test(c.req.path)) throw caller.role === 'worker' ? workerOnly() : new Problem('forbidden', msg('jobs_need_worker_key'));
    const last = touched.get(caller.id) ?? 0;
    if (Date.now() - last > TOUCH_EVERY_MS) {
      touched.set(caller.id, Date.now());
      keys.touch(caller.id);
    }
    c.set('caller', caller);
    await next();
  };
}

/**
 * Refuses non-admin callers with 403.
 * @example
 * app.use('/keys/*', adminOnly());
 */
export function adminOnly(): MiddlewareHandler<{ Variables: { caller: Caller } }> {
  return async (c, next) => {
    if (c.get('caller')?.role !== 'admin') throw new Problem('forbidden', msg('admin_only'));
    await next();
  };
}
