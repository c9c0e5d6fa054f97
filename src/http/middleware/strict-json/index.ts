import type { MiddlewareHandler } from 'hono';
import { parseRequestJson, utf8Text } from '../../json-body.js';

/** A worker's delivery is checked before its body is read, and read by its own reader (src/http/delivery-body.ts). */
const DELIVERY = /^\/worker\/jobs\/[^/]+\/result$/;

/**
 * Checks every `application/json` body before a route's validator reads it: UTF-8 (refused, not
 * replaced, when broken), JSON nested at most MAX_BODY_DEPTH levels, strings well-formed. The strictly
 * decoded text is left in Hono's body cache, so `c.req.json()` and the validators read that text.
 * `/mcp` is left to the MCP transport, which answers in JSON-RPC's own error shape, and a delivery to its reader.
 * @example
 * app.use('*', strictJsonBodies());
 */
export function strictJsonBodies(): MiddlewareHandler {
  return async (c, next) => {
    const type = (c.req.header('content-type') ?? '').toLowerCase();
    if (!type.startsWith('application/json') || c.req.path === '/mcp' || DELIVERY.test(c.req.path) || !c.req.raw.body) return next();
    const text = utf8Text(await c.req.arrayBuffer(), 'body');
    if (text.trim() !== '') parseRequestJson(text, 'body');
    // Hono keeps promises in its body cache although its typings name the values.
    (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(text);
    await next();
  };
}
