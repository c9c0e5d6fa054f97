/** The /docs page: Swagger UI from this server's own files, configured to talk to this server only. */

/**
 * The HTML of GET /docs. No inline script or style (the CSP forbids both): it loads the renderer and init.js, nothing else.
 * @example
 * app.get('/docs', (c) => c.html(DOCS_PAGE, 200, docsSecurityHeaders()));
 */
export const DOCS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>vidx API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head><body>
<div id="swagger-ui"><p>Loading the API reference of <a href="/openapi.json">/openapi.json</a>…</p></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body></html>`;

/**
 * Swagger UI's settings. The document is this server's own /openapi.json, whose only server is the address
 * the page came from; requests to any other origin are stopped here as well as by the CSP. The key is
 * entered once under "Authorize" and kept in the page's memory only (persistAuthorization off: nothing is
 * written to storage). validatorUrl null: no badge fetched from validator.swagger.io. queryConfigEnabled
 * false: ?url= or ?configUrl= in the address cannot point the page at another document.
 * @example
 * c.body(DOCS_INIT, 200, { 'content-type': 'text/javascript; charset=utf-8' }); // GET /docs/assets/init.js
 */
export const DOCS_INIT = `'use strict';
(function () {
  var sameOrigin = function (url) { return new URL(url, location.href).origin === location.origin; };
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    deepLinking: true,
    validatorUrl: null,
    queryConfigEnabled: false,
    persistAuthorization: false,
    displayRequestDuration: true,
    defaultModelsExpandDepth: 0,
    requestInterceptor: function (req) {
      if (!sameOrigin(req.url)) throw new Error('vidx docs send requests to this server only, not to ' + req.url);
      return req;
    }
  });
})();
`;

/**
 * Scripts, styles, fonts and connections from this server only. Images also from data: URLs, because
 * Swagger UI's stylesheet draws its icons (arrows, checkboxes, the loading spinner) as inline SVG/PNG data,
 * which is no request to any host.
 * @example
 * return c.html(DOCS_PAGE, 200, docsSecurityHeaders());
 */
export function docsSecurityHeaders(): Record<string, string> {
  return {
    'content-security-policy': [
      "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "font-src 'self'",
      "connect-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
  };
}
