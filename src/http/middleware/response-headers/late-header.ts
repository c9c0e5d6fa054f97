import type { Context } from 'hono';

/**
 * Sets a header on the answer a handler already made, in place. Hono's `c.header` after the answer exists
 * copies it into a new Response whose body is a web stream: @hono/node-server then writes the body chunk
 * by chunk instead of in one piece, and each search answer paid for both (about 4 % of a search over HTTP
 * in the small collections of bench:load, by a CPU profile). Headers a Response refuses to change (a fetched one's) go
 * through `c.header` as before.
 * @example
 * await next();
 * setLateHeader(c, 'x-request-id', id);
 */
export function setLateHeader(c: Context, name: string, value: string): void {
  try {
    c.res.headers.set(name, value);
  } catch {
    c.header(name, value);
  }
}
