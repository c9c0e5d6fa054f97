/**
 * The search view in a real browser (Debian chromium through playwright-core) says what a search could not
 * look for (the answer's notices, in the page's language) and, when words were corrected, which words the
 * results are for. The index holds hand-built fixtures, so no media is decoded.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser.js';
import { type DemoPage, startDemoPage } from '../support/demo-page.js';
import type { TestServer } from '../support/server.js';

const UI = { timeout: 15_000, interval: 100 };
let demo: DemoPage;
let s: TestServer;
let page: Page;

beforeAll(async () => {
  demo = await startDemoPage({ width: 1280, height: 800 });
  ({ s, page } = demo);
}, 180_000);

afterAll(() => demo?.close());

describe('search notices on the page', () => {
  it('shows the notices beside the results, in English and in German', async () => {
    await page.goto(`${s.url}/#/c/demo/search?q=penalty`);
    const notice = page.locator('[data-notice="image_text_missing"]');
    await expect.poll(() => notice.textContent(), UI).toMatch(/^What is only seen \(not said or written\) cannot be found by words/);
    expect(await page.locator('[data-corrected]').count()).toBe(0);
    // The page's way to the model is its Models view, not a command for the server's shell (issue 42).
    expect(await notice.getByRole('link', { name: 'Install one under Models, then re-index.' }).getAttribute('href')).toBe('#/models');
    expect(await notice.textContent()).not.toMatch(/`|vidx models pull/);
    await screenshot(page, 'search-notices');
    await page.evaluate(() => localStorage.setItem('vidx.lang', 'de'));
    await page.reload();
    await expect.poll(() => notice.textContent(), UI).toMatch(/^Was nur zu sehen ist/);
  });

  it('says which words the results are for when the server corrected some, and offers the words as typed, in German and in English', async () => {
    // "Penallty" is in no moment: the server searches the collection's nearest word instead.
    await page.goto(`${s.url}/#/c/demo/search?q=Penallty%20shot`);
    const corrected = page.locator('[data-corrected]');
    await expect.poll(() => corrected.textContent(), UI).toBe('Ergebnisse für penalty shot. Stattdessen nach Penallty shot suchen');
    await screenshot(page, 'search-corrected-de');
    await page.evaluate(() => localStorage.setItem('vidx.lang', 'en'));
    await page.reload();
    await expect.poll(() => corrected.textContent(), UI).toBe('Showing results for penalty shot. Search for Penallty shot instead');
    // The passage marks the word searched, not the word typed.
    expect(await page.locator('[data-result] mark').allTextContents()).toEqual(['penalty', 'shot']);
    await screenshot(page, 'search-corrected');
    // The link searches the words as typed: nothing corrected, and only "shot" is marked.
    await page.locator('[data-search-instead]').click();
    await expect.poll(() => page.evaluate(() => location.hash), UI).toBe('#/c/demo/search?q=Penallty+shot&exact=1');
    // The previous answer stays on screen until the new one arrives, so wait for the new one's marks.
    await expect.poll(() => page.locator('[data-result] mark').allTextContents(), UI).toEqual(['shot']);
    expect(await corrected.count()).toBe(0);
    expect(await page.locator('#q').inputValue()).toBe('Penallty shot');
    await screenshot(page, 'search-as-typed');
    // A new search from the box corrects again.
    await page.locator('#q').fill('Penallty');
    await page.locator('#q').press('Enter');
    await expect.poll(() => corrected.textContent(), UI).toBe('Showing results for penalty. Search for Penallty instead');
  });
});
