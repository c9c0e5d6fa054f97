/**
 * Issue 34: the search on a 360 px phone (740 px high) in a real browser (Debian chromium through
 * playwright-core): the first result is on the first screen, the controls are one bar, the filters and tips
 * are folded away until opened; the date filter is written as the page's language writes dates (a German
 * page showed mm/dd/yyyy). English and German. The index holds hand-built fixtures, so no media is decoded.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, unlabelled } from '../support/browser.js';
import { type DemoPage, startDemoPage } from '../support/demo-page.js';
import type { TestServer } from '../support/server.js';

const UI = { timeout: 15_000, interval: 100 };
const PHONE = { width: 360, height: 740 };
let demo: DemoPage;
let s: TestServer;
let page: Page;

/** Where an element is on the page, in CSS pixels. */
const box = async (p: Page, selector: string) => (await p.locator(selector).first().boundingBox())!;

beforeAll(async () => {
  demo = await startDemoPage(PHONE);
  ({ s, page } = demo);
}, 180_000);

afterAll(() => demo?.close());

describe('the menu on a phone (issue 42)', () => {
  for (const [lang, views] of [['en', ['Collections', 'Search', 'Explore', 'People', 'Add videos', 'Tasks', 'Models']], ['de', ['Sammlungen', 'Suche', 'Entdecken', 'Personen', 'Videos hinzufügen', 'Aufgaben', 'Modelle']]] as const) {
    it(`shows every view whole, one tap away, without sideways scrolling (${lang})`, async () => {
      await page.goto(`${s.url}/#/`);
      await page.evaluate((l) => localStorage.setItem('vidx.lang', l), lang);
      await page.reload();
      const nav = page.getByRole('navigation');
      await nav.getByRole('link').first().waitFor();
      expect(await nav.getByRole('link').allTextContents()).toEqual([...views]);
      for (const name of views) {
        const link = nav.getByRole('link', { name, exact: true });
        const b = (await link.boundingBox())!;
        expect(b.x, name).toBeGreaterThanOrEqual(0);
        expect(b.x + b.width, name).toBeLessThanOrEqual(PHONE.width);
        expect(b.y + b.height, name).toBeLessThanOrEqual(PHONE.height / 3);
        // What a finger lands on at the link's middle is the link itself: not cut off, not under something else.
        expect(await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.textContent, [b.x + b.width / 2, b.y + b.height / 2])).toBe(name);
        expect(b.height, name).toBeGreaterThanOrEqual(32);
      }
      expect(await nav.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await screenshot(page, `phone-menu-${lang}`);
      await nav.getByRole('link', { name: views[5], exact: true }).click();
      await page.getByRole('heading', { name: views[5], exact: true }).waitFor();
    });
  }
});

describe('search on a phone', () => {
  for (const lang of ['en', 'de'] as const) {
    it(`shows the first result on the first screen, with the controls in one bar (${lang})`, async () => {
      await page.goto(`${s.url}/#/`);
      await page.evaluate((l) => localStorage.setItem('vidx.lang', l), lang);
      await page.goto(`${s.url}/#/c/demo/search?q=penalty`);
      await page.reload();
      await page.locator('[data-result]').first().waitFor();
      const first = await box(page, '[data-result]');
      expect(first.y + Math.min(first.height, 80)).toBeLessThanOrEqual(PHONE.height);
      // The words, the picture button and Search share one line.
      const [words, picture, search] = [await box(page, '#q'), await box(page, '.pick-picture label'), await box(page, '.search-form button[type=submit]')];
      expect(Math.abs(words.y - picture.y)).toBeLessThan(8);
      expect(Math.abs(words.y - search.y)).toBeLessThan(8);
      // The picture button keeps its words as its name.
      expect(await page.getByText(lang === 'de' ? 'Mit Bild suchen' : 'Search by picture').count()).toBe(1);
      // Filters and tips are folded away, and there to open.
      const more = page.locator('details.search-more');
      expect(await more.getAttribute('open')).toBeNull();
      expect(await page.locator('#f-type').isVisible()).toBe(false);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await screenshot(page, `phone-search-${lang}`);
      await more.locator('summary').click();
      await page.locator('#f-type').waitFor();
      expect(await page.locator('#search-in').isVisible()).toBe(true);
      expect(await page.locator('#picture-hint').isVisible()).toBe(true);
      await screenshot(page, `phone-search-open-${lang}`);
      await page.emulateMedia({ colorScheme: 'dark' });
      await screenshot(page, `phone-search-open-${lang}-dark`);
      await page.emulateMedia({ colorScheme: 'light' });
      expect(await unlabelled(page)).toEqual([]);
    });
  }

  it('takes the German date as Germans write it, and says how when it is not a date', async () => {
    // The page is German from the previous test.
    await page.goto(`${s.url}/#/c/demo/search?q=penalty`);
    await page.reload();
    await page.locator('[data-result]').first().waitFor();
    await page.locator('details.search-more summary').click();
    const after = page.getByLabel('Aufgenommen nach');
    expect(await after.getAttribute('placeholder')).toBe('TT.MM.JJJJ');
    expect(await after.getAttribute('type')).toBe('text');
    const searches: string[] = [];
    page.on('request', (r) => { if (r.url().endsWith('/search') && r.method() === 'POST') searches.push(r.postData() ?? ''); });
    await after.fill('31.02.2024');
    await after.blur();
    await page.getByText('Schreibe das Datum als TT.MM.JJJJ.').waitFor();
    expect(await after.getAttribute('aria-invalid')).toBe('true');
    await after.fill('1.5.2024');
    await after.blur();
    await expect.poll(() => searches.some((b) => b.includes('"captured_after":"2024-05-01T00:00:00.000Z"')), UI).toBe(true);
    expect(await after.getAttribute('aria-invalid')).toBeNull();
    await screenshot(page, 'phone-date-de');
    // In English the same day reads day first, as the page's other dates.
    await page.getByLabel('Sprache').selectOption('en');
    await expect.poll(() => page.getByLabel('Taken after').inputValue(), UI).toBe('01/05/2024');
    expect(await page.getByLabel('Taken after').getAttribute('placeholder')).toBe('dd/mm/yyyy');
    expect(demo.errors).toEqual([]);
  });

  it('keeps the filters and tips open on a wide screen', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    // A fresh load: the viewport is read when the view is made.
    await page.reload();
    await page.locator('[data-result]').first().waitFor();
    expect(await page.locator('details.search-more').getAttribute('open')).toBe('');
    expect(await page.locator('#f-type').isVisible()).toBe(true);
    await screenshot(page, 'wide-search');
    await page.setViewportSize(PHONE);
  });
});
