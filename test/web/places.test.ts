/**
 * The Places view in a real browser (Debian chromium through playwright-core): the places of a collection
 * with their counts and the GeoNames credit, a place opening the grid of its items, and an item's place in
 * its details. The fixture items get GPS points and the server fills in their places at start, as it does
 * for items stored before places existed.
 */
import type { Browser, Page } from 'playwright-core';
import { v7 as uuid7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { indexFixtures } from '../search/fixtures.js';
import { keyedPage, launchBrowser, screenshot } from '../support/browser.js';
import { ADMIN_KEY, startTestServer, waitFor, type TestServer } from '../support/server.js';

const UI = { timeout: 15_000, interval: 100 };
let s: TestServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  await buildWeb({ ifStale: true });
  const first = await startTestServer({ queryEmbedder: null });
  expect((await first.call('POST', '/collections', { json: { collection_id: 'demo', name: 'Demo' } })).status).toBe(201);
  indexFixtures(first.vidx, first.dataDir, 'demo');
  const gps = first.vidx.store.db.prepare('UPDATE items SET latitude = ?, longitude = ?, place = NULL, place_words = NULL WHERE media_id = ?');
  gps.run(38.7223, -9.1393, 'cup-final');
  gps.run(38.71, -9.14, 'backen');
  gps.run(48.137, 11.575, 'lake-trip');
  const dataDir = first.dataDir;
  await first.close({ keepData: true });
  s = await startTestServer({ dataDir, queryEmbedder: null });
  await waitFor(async () => ((await s.call('GET', '/collections/demo/places')).body.places.length === 2 ? true : undefined), 30_000, 'places filled in');
  browser = await launchBrowser();
  ({ page } = await keyedPage(browser, { width: 1280, height: 800 }, ADMIN_KEY));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('the Places view', () => {
  it('lists places with counts and the credit, in English and German, and opens the items of one', async () => {
    await page.goto(`${s.url}/#/c/demo`);
    await page.getByRole('link', { name: 'Places', exact: true }).click();
    const lisbon = page.locator('[data-place="Lisbon"]');
    await expect.poll(() => lisbon.textContent(), UI).toBe('Lisbon, Portugal2 items');
    expect(await page.locator('[data-place="Munich"]').textContent()).toBe('Munich, Germany · Bavaria1 item');
    expect(await page.locator('[data-credit]').textContent()).toMatch(/GeoNames, CC BY 4\.0.*geonames\.org/);
    await screenshot(page, 'places');

    await page.evaluate(() => localStorage.setItem('vidx.lang', 'de'));
    await page.reload();
    // Named as GeoNames names them in German: the city, the region and the country.
    await expect.poll(() => page.locator('[data-place="München"]').textContent(), UI).toBe('München, Deutschland · Bayern1 Eintrag');
    expect(await page.locator('[data-place="Lissabon"]').textContent()).toBe('Lissabon, Portugal2 Einträge');
    await screenshot(page, 'places-de');
    await page.evaluate(() => localStorage.setItem('vidx.lang', 'en'));
    await page.reload();

    await lisbon.getByRole('link').click();
    await expect.poll(() => page.locator('[data-near]').textContent(), UI).toBe('Near Lisbon, PortugalShow all items');
    await expect.poll(() => page.locator('.cards li').count(), UI).toBe(2);
    await page.locator('[data-near] a').click();
    await expect.poll(() => page.locator('.cards li').count(), UI).toBe(3);
  });

  it("shows an item's place in its details, in English and German", async () => {
    await page.goto(`${s.url}/#/c/demo/play/lake-trip`);
    await expect.poll(() => page.locator('[data-place]').textContent(), UI).toBe('Munich, Germany');
    await page.evaluate(() => localStorage.setItem('vidx.lang', 'de'));
    await page.reload();
    await expect.poll(() => page.locator('[data-place]').textContent(), UI).toBe('München, Deutschland');
    await screenshot(page, 'item-place-de');
    await page.evaluate(() => localStorage.setItem('vidx.lang', 'en'));
  });

  it('opens a search that matches only the place at the start of the item, named in the page language', async () => {
    await page.evaluate(() => localStorage.setItem('vidx.lang', 'de'));
    await page.goto(`${s.url}/#/c/demo/search?q=M%C3%BCnchen`);
    const lake = page.locator('[data-result]').filter({ hasText: 'Lake day' });
    await expect.poll(() => lake.count(), UI).toBe(1);
    expect(await lake.textContent()).toContain('bei 0:00');
    expect(await lake.textContent()).toContain('München, Deutschland');
    expect(await lake.textContent()).toContain('München, Bayern, Deutschland — We drove for hours to get out of town.');
    await screenshot(page, 'search-place-de');
    await page.evaluate(() => localStorage.setItem('vidx.lang', 'en'));
    await page.reload();
    await expect.poll(() => lake.textContent(), UI).toContain('Munich, Bavaria, Germany — We drove for hours to get out of town.');
    expect(await lake.textContent()).toContain('at 0:00');
    await screenshot(page, 'search-place');
  });

  it('groups places close together into one dot that parts on a click, and lists the first 100 places', async () => {
    expect((await s.call('POST', '/collections', { json: { collection_id: 'atlas', name: 'Atlas' } })).status).toBe(201);
    const pk = s.vidx.store.collections.findById('atlas')!.pk;
    // 148 villages a few km apart in one valley (one dot on the whole world), and Lisbon and Porto.
    const villages = Array.from({ length: 148 }, (_, i) => ({ city: `Village ${i}`, latitude: 46 + Math.floor(i / 12) * 0.02, longitude: 7 + (i % 12) * 0.02, country: 'Switzerland', country_code: 'CH' }));
    const portugal = [{ city: 'Lisbon', latitude: 38.72, longitude: -9.14 }, { city: 'Porto', latitude: 41.16, longitude: -8.63 }].map((c) => ({ ...c, country: 'Portugal', country_code: 'PT' }));
    const at = '2024-05-03T09:00:00.000Z';
    for (const [i, c] of [...villages, ...portugal].entries()) {
      s.vidx.store.items.insert({
        cursor: uuid7(), collection_pk: pk, media_id: `p${i}`, type: 'image', title: null, src: null, thumbnail: null, duration: null, additional_metadata: null,
        created_at: at, updated_at: at, captured_at: at, captured_at_source: 'metadata', latitude: c.latitude, longitude: c.longitude,
        place: JSON.stringify({ city: c.city, district: null, region: null, country: c.country, country_code: c.country_code }), place_words: c.city,
      });
    }
    await page.goto(`${s.url}/#/c/atlas/places`);
    const map = page.locator('[data-map]');
    await expect.poll(() => map.getAttribute('data-drawn'), UI).toBe('150');
    expect(await map.locator('[data-cluster]').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-cluster')).sort())).toEqual(['148', '2']);
    expect(await map.locator('[data-dot]').count()).toBe(0);
    await screenshot(page, 'map-groups');

    await map.getByRole('button', { name: '2 places, 2 items: zoom in' }).click();
    await expect.poll(() => map.locator('[data-dot]').evaluateAll((as) => as.map((a) => a.getAttribute('data-dot')).sort()), UI).toEqual(['PT//Lisbon', 'PT//Porto']);
    expect(Number(await map.locator('svg > g').getAttribute('transform').then((tr) => /scale\(([\d.]+)\)/.exec(tr ?? '')?.[1]))).toBeGreaterThan(1);
    await screenshot(page, 'map-parted');
    await map.locator('[data-dot="PT//Porto"]').click();
    await expect.poll(() => page.locator('[data-near]').textContent(), UI).toContain('Porto');

    await page.goto(`${s.url}/#/c/atlas/places`);
    await expect.poll(() => page.locator('[data-place]').count(), UI).toBe(100);
    await page.getByRole('button', { name: 'Show all 150 places' }).click();
    await expect.poll(() => page.locator('[data-place]').count(), UI).toBe(150);
  });
});
