/**
 * A test vidx without a socket: the whole server over a fresh data dir, with `call` answered by the hono app
 * in-process. For tests of validation, error shapes and small routes, which need no port, no TCP round trip
 * and no HTTP client; tests of streaming, uploads over the wire, signed links or other processes listen.
 */
import { startTestServer, type TestServer } from './server.js';

/**
 * Starts vidx without listening; `call`, `newKey` and `close` work as on a listening test server.
 * @example
 * const s = await startTestApp();
 * expect((await s.call('GET', '/collections/none')).status).toBe(404);
 */
export function startTestApp(opts: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  return startTestServer({ ...opts, listen: false });
}
