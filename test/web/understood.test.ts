/**
 * Issue 47 part 5 on the page, in a real browser (Debian chromium through playwright-core): the place and the
 * date a search read in its words are chips in the search bar ("in Lisbon ×", "2019 ×"), in English and German,
 * named for screen readers, fitting a 360 px phone; removing one searches the words as typed. The fixture items
 * get GPS points and dates in the database, and the server fills in their places at start.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { indexFixtures } from '../search/fixtures.js';
import { keyedPage, launchBrowser, screenshot, unlabelled } from '../support/browser.js';
import { ADMIN_KEY, startTestServer, waitFor, type TestServer } from '../support/server.js';

const UI = { timeout: 15_000, interval: 100 };
let s: TestServer;
let browser: Browser;

/** The media ids of the results shown. */
const shown = (page: Page) => page.locator('[data-result]').evaluateAll((els) => els.map((e) => /\/play\/([^?]+)/.exec(e.getAttribute('href') ?? '')?.[1]));
/** The understood chips' texts, without their remove buttons. */
const chips = (page: Page) => page.locator('[data-understood-part]').evaluateAll((els) => els.map((e) => (e.firstChild?.textContent ?? '').trim()));

beforeAll(async () => {
  await buildWeb({ ifStale: true });
  const first = await startTestServer({ queryEmbedder: null });
  expect((await first.call('POST', '/collections', { json: { collection_id: 'demo', name: 'Demo' } })).status).toBe(201);
  indexFixtures(first.vidx, first.dataDir, 'demo');
  const set = first.vidx.store.db.prepare('UPDATE items SET latitude = ?, longitude = ?, captured_at = ?, place = NULL, place_words = NULL WHERE media_id = ?');
  set.run(38.7223, -9.1393, '2019-07-14T12:00:00.000Z', 'cup-final');
  set.run(38.71, -9.14, '2020-05-01T12:00:00.000Z', 'backen');
  set.run(48.137, 11.575, '2019-08-01T12:00:00.000Z', 'lake-trip');
  const dataDir = first.dataDir;
  await first.close({ keepData: true });
  s = await startTestServer({ dataDir, queryEmbedder: null });
  await waitFor(async () => ((await s.call('GET', '/collections/demo/places')).body.places.length === 2 ? true : undefined), 30_000, 'places filled in');
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('what a search understood, as chips', () => {
  it('shows "in Lisbon ×" and "2019 ×", and removing one searches the words as typed (English)', async () => {
    const { page } = await keyedPage(browser, { width: 1280, height: 800 }, ADMIN_KEY);
    await page.goto(`${s.url}/#/c/demo/search?q=${encodeURIComponent('Lisbon 2019')}`);
    await expect.poll(() => chips(page), UI).toEqual(['in Lisbon', '2019']);
    await expect.poll(() => shown(page), UI).toEqual(['cup-final']);
    expect(await page.getByRole('group', { name: 'Read in your words' }).count()).toBe(1);
    expect(await unlabelled(page)).toEqual([]);
    await screenshot(page, 'understood-en');
    await page.getByRole('button', { name: 'Remove “2019”: search the words as typed' }).click();
    await expect.poll(() => page.evaluate(() => location.hash), UI).toContain('exact=1');
    await expect.poll(() => page.locator('[data-understood]').count(), UI).toBe(0);
    // As typed, "Lisbon" is a word again: the Lisbon item of 2020 is found too.
    await expect.poll(async () => (await shown(page)).includes('backen'), UI).toBe(true);
    await page.close();
  });

  it('names the chips and their buttons in German', async () => {
    const { page } = await keyedPage(browser, { width: 1280, height: 800 }, ADMIN_KEY);
    await page.goto(`${s.url}/#/`);
    await page.evaluate(() => localStorage.setItem('vidx.lang', 'de'));
    await page.goto(`${s.url}/#/c/demo/search?q=${encodeURIComponent('Lissabon Mai 2020')}`);
    await page.reload();
    await expect.poll(() => chips(page), UI).toEqual(['in Lissabon', 'Mai 2020']);
    await expect.poll(() => shown(page), UI).toEqual(['backen']);
    expect(await page.getByRole('group', { name: 'In Ihren Wörtern erkannt' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: '„in Lissabon“ entfernen: die Wörter wie getippt suchen' }).count()).toBe(1);
    await screenshot(page, 'understood-de');
    await page.close();
  });

  for (const lang of ['en', 'de'] as const) {
    it(`fits a 360 px phone (${lang})`, async () => {
      const { page } = await keyedPage(browser, { width: 360, height: 740 }, ADMIN_KEY);
      await page.goto(`${s.url}/#/`);
      await page.evaluate((l) => localStorage.setItem('vidx.lang', l), lang);
      await page.goto(`${s.url}/#/c/demo/search?q=${encodeURIComponent(lang === 'de' ? 'München im Sommer 2019' : 'Munich summer 2019')}`);
      await page.reload();
      await expect.poll(() => chips(page), UI).toEqual(lang === 'de' ? ['in München', '1. Juni – 31. Aug. 2019'] : ['in Munich', '1 Jun – 31 Aug 2019']);
      await expect.poll(() => shown(page), UI).toEqual(['lake-trip']);
      for (const b of await page.locator('[data-understood-part]').all()) {
        const box = (await b.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(360);
        const remove = (await b.getByRole('button').boundingBox())!;
        expect(Math.min(remove.width, remove.height)).toBeGreaterThanOrEqual(24);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      expect(await unlabelled(page)).toEqual([]);
      await screenshot(page, `understood-phone-${lang}`);
      await page.close();
    });
  }
});
