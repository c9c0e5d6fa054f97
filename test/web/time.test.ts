/**
 * Issue 47 on the page, in Debian's chromium through playwright-core: a collection's Time view (events with
 * their covers and titles, one event's items and a name of one's own, the timeline whose month opens the grid
 * of that month) and the On this day card on the collection's grid; in English, German, dark mode and at 360 px.
 * Photos with EXIF dates and GPS written by exiftool, scanned by a real vidx on 127.0.0.1.
 */
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { keyedPage, launchBrowser, screenshot, unlabelled } from '../support/browser.js';
import { makePhoto } from '../support/folder-media.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../support/server.js';
import { indexedFolder } from '../support/web-media.js';

const UI = { timeout: 15_000, interval: 100 };

/** Today's month and day a few years back: the On this day card has something to show whenever the test runs. */
const now = new Date();
const pad = (n: number) => String(n).padStart(2, '0');
const thisDay = (yearsBack: number, hour: number) => `${now.getFullYear() - yearsBack}:${pad(now.getMonth() + 1)}:${pad(now.getDate())} ${pad(hour)}:00:00`;

const PHOTOS: [string, string, { latitude: number; longitude: number }][] = [
  ['lisbon-1', '2024:05:03 09:00:00', { latitude: 38.7223, longitude: -9.1393 }],
  ['lisbon-2', '2024:05:04 12:00:00', { latitude: 38.7223, longitude: -9.1393 }],
  ['home', '2024:05:06 10:00:00', { latitude: 52.52, longitude: 13.405 }],
  ['birthday', thisDay(3, 15), { latitude: 52.52, longitude: 13.405 }],
  ['garden', '2022:08:14 16:00:00', { latitude: 52.52, longitude: 13.405 }],
];

let s: TestServer;
let browser: Browser;

beforeAll(async () => {
  await buildWeb({ ifStale: true });
  s = await startTestServer({ queryEmbedder: null });
  await indexedFolder(s, 'roll', async (dir) => {
    for (const [name, date, where] of PHOTOS) await makePhoto(join(dir, `${name}.jpg`), name.toUpperCase(), { dateTimeOriginal: date, ...where });
  });
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('the archive by time on the page', () => {
  it('lists events newest first, opens one, names it, and opens a month of the timeline as its grid', async () => {
    const w = await keyedPage(browser, { width: 1280, height: 900 }, ADMIN_KEY);
    await w.page.goto(`${s.url}/#/c/roll/time`);
    const titles = w.page.locator('[data-events] [data-event-title]');
    await expect.poll(() => titles.count(), UI).toBe(4);
    // Newest first: home on 6 May 2024 comes before the Lisbon trip it ended.
    expect((await titles.allTextContents()).slice(0, 2)).toEqual(['Berlin, 6 May 2024', 'Lisbon, 3\u2009–\u20094 May 2024']);
    const years = new Set(PHOTOS.map(([, date]) => date.slice(0, 4)));
    expect(await w.page.locator('[data-timeline] [data-year]').count()).toBe(years.size);
    expect(await unlabelled(w.page)).toEqual([]);
    await screenshot(w.page, 'time-en');

    await titles.nth(1).click();
    await expect.poll(() => w.page.locator('[data-item], .cards.grid li').count(), UI).toBe(2);
    await w.page.getByRole('button', { name: 'Rename' }).click();
    await w.page.getByLabel('Name of the event').fill('Lisbon with Anna');
    await w.page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => w.page.locator('h3[data-event-title]').textContent(), UI).toBe('Lisbon with Anna');

    await w.page.goto(`${s.url}/#/c/roll/time`);
    await w.page.locator('[data-month="2024-5"]').click();
    await expect.poll(() => w.page.locator('[data-span]').textContent(), UI).toContain('Recorded in May 2024');
    await expect.poll(() => w.page.locator('.cards.grid li').count(), UI).toBe(3);
    expect(w.errors).toEqual([]);
    await w.context.close();
  });

  it('shows On this day on the collection\'s grid, in German, dark and at 360 px', async () => {
    const w = await keyedPage(browser, { width: 360, height: 800 }, ADMIN_KEY);
    await w.context.addInitScript(() => localStorage.setItem('vidx.lang', 'de'));
    await w.page.emulateMedia({ colorScheme: 'dark' });
    await w.page.goto(`${s.url}/#/c/roll`);
    const card = w.page.locator('[data-on-this-day]');
    await expect.poll(() => card.count(), UI).toBe(1);
    expect(await card.locator('h3').textContent()).toMatch(/^An diesem Tag, \d+\. /);
    expect(await card.locator('[data-year] strong').first().textContent()).toBe(`Vor 3 Jahren (${now.getFullYear() - 3})`);
    expect(await w.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(w.page, 'on-this-day-de-360-dark');
    await w.page.goto(`${s.url}/#/c/roll/time`);
    await expect.poll(() => w.page.locator('[data-events] [data-event-title]').first().textContent(), UI).toMatch(/\d{4}$/);
    expect(await w.page.locator('#events-h').textContent()).toBe('Ereignisse');
    expect(await w.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(w.page, 'time-de-360-dark');
    expect(w.errors).toEqual([]);
    await w.context.close();
  });

  it('draws the places on an offline world map that zooms, and a dot opens the items there', async () => {
    const w = await keyedPage(browser, { width: 1280, height: 900 }, ADMIN_KEY);
    await w.page.goto(`${s.url}/#/c/roll/places`);
    const dots = w.page.locator('[data-map] [data-dot]');
    await expect.poll(() => dots.count(), UI).toBe(2);
    expect(await w.page.locator('[data-map] path.country').count()).toBeGreaterThan(150);
    expect(await w.page.locator('[data-map-credit]').textContent()).toContain('Natural Earth');
    await w.page.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(() => w.page.locator('[data-map] svg > g').getAttribute('transform'), UI).toMatch(/scale\(1\.6/);
    await screenshot(w.page, 'map-en');
    await w.page.locator('[data-dot^="PT/"]').click();
    await expect.poll(() => w.page.locator('[data-near]').textContent(), UI).toContain('Lisbon');
    await expect.poll(() => w.page.locator('.cards.grid li').count(), UI).toBe(2);
    // Only this vidx was asked for anything: no tiles, no fonts from elsewhere.
    expect([...w.origins]).toEqual([s.url]);
    expect(w.errors).toEqual([]);
    await w.context.close();

    const de = await keyedPage(browser, { width: 360, height: 800 }, ADMIN_KEY);
    await de.context.addInitScript(() => localStorage.setItem('vidx.lang', 'de'));
    await de.page.emulateMedia({ colorScheme: 'dark' });
    await de.page.goto(`${s.url}/#/c/roll/places`);
    await expect.poll(() => de.page.locator('[data-map] [data-dot]').count(), UI).toBe(2);
    expect(await de.page.getByRole('img').first().getAttribute('aria-label')).toBe('Weltkarte mit 2 Orten');
    expect(await de.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await unlabelled(de.page)).toEqual([]);
    await screenshot(de.page, 'map-de-360-dark');
    await de.context.close();
  });
});
