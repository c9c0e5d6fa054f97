import type { MiddlewareHandler } from 'hono';
import { setLateHeader } from './late-header.js';

/**
 * What a stored file may do when opened as a page of its own: nothing. `sandbox` gives it an opaque origin
 * with no scripts, forms or plugins; only the picture or media itself may load (a browser shows a video
 * opened directly in a page it makes around it). A `<video>` or `<img>` in the web page is not governed by
 * this header, so playback there is unchanged.
 * @example
 * res.headers.get('content-security-policy') === FILE_CSP; // on every /files/… answer
 */
export const FILE_CSP = "sandbox; default-src 'none'; img-src 'self'; media-src 'self'";

/**
 * Headers on every answer, errors included: `x-content-type-options: nosniff` (a browser never takes a
 * thumbnail or a JSON answer for HTML or script), and on `/files/…` the sandboxing FILE_CSP.
 * @example
 * app.use('*', responseHeaders());
 */
export function responseHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    setLateHeader(c, 'x-content-type-options', 'nosniff');
    if (c.req.path.startsWith('/files/')) setLateHeader(c, 'content-security-policy', FILE_CSP);
  };
}
