import { msg } from '../../../messages/index.js';
import type { MiddlewareHandler } from 'hono';
import { isLoopbackHost, onAllowList, type AllowList } from '../../../media/index.js';
import { Problem } from '../../../services/errors.js';

/**
 * The host name a request names (port and IPv6 brackets left off, lower case): its `Host` header, or the
 * host of its URL where it has none (in-process requests). Null when the header is not a host at all.
 */
function requestHost(hostHeader: string | undefined, url: string): string | null {
  try {
    return new URL(hostHeader === undefined ? url : `http://${hostHeader}`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return null;
  }
}

/**
 * Refuses a request whose `Host` is not a loopback name or address and not on `allowed` (VIDX_ALLOWED_HOSTS,
 * the public URL's host, the bound address): a page whose DNS name was rebound to 127.0.0.1 sends its own
 * name, and must read nothing, not even /health or the page. Ports are not compared: only names.
 * @example
 * app.use('*', hostCheck(servedHosts(config)));
 */
export function hostCheck(allowed: AllowList): MiddlewareHandler {
  return async (c, next) => {
    const given = c.req.header('host');
    const host = requestHost(given, c.req.url);
    if (host !== null && (isLoopbackHost(host) || onAllowList(host, allowed))) return next();
    const named = host ?? given ?? '';
    throw new Problem('forbidden', msg('host_not_allowed', { host: named }), [], 'host_not_allowed');
  };
}
