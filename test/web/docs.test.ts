/**
 * GET /docs in a real browser (Debian chromium through playwright-core): Swagger UI from vidx's own files,
 * the key entered once under "Authorize", a try-it request that reaches the server with the key and whose
 * answer shows on the page, and not one request to any other origin. The screenshot lands in test/.tmp/web-screenshots
 * (api-docs.png; docs/screenshots/api-docs.png is a copy of it, renewed by hand like the web page's, so a test run
 * never changes a tracked file).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { launchBrowser, screenshot, watchedPage, type WatchedPage } from '../support/browser.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../support/server.js';

let s: TestServer;
let browser: Browser;
let w: WatchedPage;
let page: Page;
/** Every request the vidx server logged, as the request-log middleware writes it. */
const served: { method: string; path: string; status: number; key_id?: string }[] = [];
/** Every URL the page asked for. */
const requested: string[] = [];

const UI = { timeout: 15_000 };

beforeAll(async () => {
  // dist/web/docs holds the renderer as the binary embeds it; build it when stale so that copy is the one tested.
  await buildWeb({ ifStale: true });
  s = await startTestServer({
    logger: (msg, fields) => {
      if (msg === 'request' && fields) served.push(fields as (typeof served)[number]);
    },
  });
  await s.call('POST', '/collections', { json: { collection_id: 'trips', name: 'Trips', description: 'Summer 2025' } });
  browser = await launchBrowser();
  w = await watchedPage(browser, { width: 1280, height: 900 });
  page = w.page;
  page.on('request', (r) => requested.push(r.url()));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('/docs', () => {
  it('is served without a key under a CSP that allows only this server, with no inline script', async () => {
    const res = await fetch(`${s.url}/docs`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    for (const d of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "font-src 'self'", "connect-src 'self'", "img-src 'self' data:"]) expect(csp).toContain(d);
    expect(csp).not.toContain('unsafe');
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/https?:\/\//);
    for (const name of ['swagger-ui-bundle.js', 'swagger-ui.css', 'init.js', 'favicon-32x32.png']) {
      expect((await fetch(`${s.url}/docs/assets/${name}`)).status, name).toBe(200);
    }
    for (const path of ['/docs/assets/package.json', '/docs/assets/..%2F..%2Fvidx.db', '/docs/assets/swagger-ui-bundle.js.map', '/docs/assets/LICENSE']) {
      expect((await fetch(`${s.url}${path}`)).status, path).toBe(404);
    }
  });

  it('takes the key once under Authorize and runs a try-it request against this server', async () => {
    await page.goto(`${s.url}/docs`);
    await page.locator('.swagger-ui .info .title').getByText('vidx').waitFor(UI);
    // The only server offered is the one the page came from.
    expect(await page.locator('.servers select option').allTextContents()).toEqual([expect.stringContaining(s.url)]);

    await page.locator('.auth-wrapper button.authorize').click();
    await page.locator('.modal-ux input[type="text"]').fill(ADMIN_KEY);
    await page.locator('.modal-ux .auth-btn-wrapper button.authorize').click();
    await page.locator('.modal-ux button.btn-done').click();

    const op = page.locator('#operations-collections-listCollections');
    await op.locator('.opblock-summary-control').click();
    await op.locator('button.try-out__btn').click();
    await op.locator('button.execute').click();
    const answer = op.locator('.live-responses-table .response-col_description pre');
    await expect.poll(() => answer.first().textContent(), UI).toContain('"collection_id": "trips"');
    await expect.poll(() => op.locator('.live-responses-table tbody .response-col_status').first().textContent(), UI).toContain('200');

    // The server got it, with the key (the log names the key's id, never the key).
    const me = (await s.call('GET', '/me')).body as { id: string };
    expect(served.filter((r) => r.method === 'GET' && r.path === '/collections')).toContainEqual(expect.objectContaining({ status: 200, key_id: me.id }));

    await op.scrollIntoViewIfNeeded();
    await screenshot(page, 'api-docs');
  });

  it('made no request to any other origin, stored no key and logged no error', async () => {
    const origin = new URL(s.url).origin;
    expect(requested.length).toBeGreaterThan(3);
    expect(requested.filter((u) => !u.startsWith('data:') && new URL(u).origin !== origin)).toEqual([]);
    expect([...w.origins]).toEqual([origin]);
    // persistAuthorization is off: the key lives in the page's memory only.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(stored).not.toContain(ADMIN_KEY);
    expect(w.errors).toEqual([]);
  });
});
