/**
 * A browser on a page of a test vidx whose collection `demo` holds the hand-built search fixtures (no media
 * decoded): the setup the search page's browser tests share.
 */
import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { indexFixtures } from '../search/fixtures.js';
import { keyedPage, launchBrowser, type WatchedPage } from './browser.js';
import { ADMIN_KEY, startTestServer, type TestServer } from './server.js';

/** The server, the browser and the signed-in page of {@link startDemoPage}; `close` ends the browser and the server. */
export interface DemoPage extends WatchedPage {
  s: TestServer;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Builds the page when stale, starts a server (words only) with the fixtures in `demo`, and opens a page of
 * this size signed in with the admin key.
 * @example
 * const demo = await startDemoPage({ width: 360, height: 740 });
 * await demo.page.goto(`${demo.s.url}/#/c/demo/search?q=penalty`);
 * await demo.close();
 */
export async function startDemoPage(viewport: { width: number; height: number }): Promise<DemoPage> {
  await buildWeb({ ifStale: true });
  const s = await startTestServer({ queryEmbedder: null });
  expect((await s.call('POST', '/collections', { json: { collection_id: 'demo', name: 'Demo' } })).status).toBe(201);
  indexFixtures(s.vidx, s.dataDir, 'demo');
  const browser = await launchBrowser();
  const w = await keyedPage(browser, viewport, ADMIN_KEY);
  return {
    ...w,
    s,
    browser,
    async close() {
      await browser.close();
      await s.close();
    },
  };
}
