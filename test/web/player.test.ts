/**
 * The player in a real browser (Debian chromium through playwright-core) against a real vidx with real
 * indexed media: a search hit plays at once from its moment with the focus on the player; the chapters are
 * reached with the keyboard without going through the video's controls; a photo opens in the picture
 * viewer with no clock, chapters or timeline anywhere; audio shows its waveform; details and rename; German,
 * 360 px, dark; every control labelled, no console error, no other host.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { launchBrowser, screenshot, unlabelled, watchedPage, type WatchedPage, signIn } from '../support/browser.js';
import { ensureCorpus, type CorpusManifest } from '../support/corpus.js';
import { makeHeic, makePhoto, makeSpeech } from '../support/folder-media.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../support/server.js';
import { indexedFolder, type ListedItem } from '../support/web-media.js';

const UI = { timeout: 15_000, interval: 100 };
const C = 'home';

let s: TestServer;
let corpus: CorpusManifest;
let browser: Browser;
let w: WatchedPage;
let page: Page;
let items: Map<string, ListedItem>;

/** What the page's <video> or <audio> is doing. */
const playing = (p: Page) =>
  p.evaluate(() => {
    const m = document.querySelector<HTMLMediaElement>('video, audio');
    return m ? { paused: m.paused, time: m.currentTime } : null;
  });

/** A short description of the focused element: tag, class and text. */
const focused = (p: Page) =>
  p.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    return a ? `${a.tagName.toLowerCase()}.${a.className} ${a.textContent?.trim().slice(0, 40) ?? ''}`.trim() : '';
  });

/** A media clock (0:00, 1:15), not a time of day (09:30). */
const CLOCK = /(^|[^\d])\d:\d\d(?!\d)/;

const noOverflow = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

beforeAll(async () => {
  await buildWeb({ ifStale: true });
  corpus = await ensureCorpus();
  s = await startTestServer({ queryEmbedder: null });
  ({ items } = await indexedFolder(s, C, async (dir) => {
    copyFileSync(corpus.slides.path, join(dir, 'beach-day.mp4'));
    mkdirSync(join(dir, 'town'), { recursive: true });
    await makePhoto(join(dir, 'town', 'bakery.jpg'), 'BAKERY', { dateTimeOriginal: '2019:07:14 09:30:00' });
    // Converted by libheif, as most HEIC photos that are not an iPhone's own are (issue 42).
    await makeHeic(join(dir, 'town', 'tram.heic'), 'TRAM', { dateTimeOriginal: '2018:05:20 16:45:00', latitude: 38.7223, longitude: -9.1393 }, '800x300', 'libheif');
    await makeSpeech(join(dir, 'memo.m4a'), 'Remember to buy oat milk and fresh bread on the way home');
  }));
  browser = await launchBrowser();
  w = await watchedPage(browser, { width: 1280, height: 800 });
  page = w.page;
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('player', () => {
  it('plays a search hit from its moment at once, with the focus on the video', async () => {
    await signIn(page, s.url, ADMIN_KEY);
    const { body } = await s.call('POST', '/search', { form: { query: 'goalkeeper', collection: C } });
    const expected = body.results[0].start_time as number;
    expect(expected).toBeGreaterThan(4);

    await page.goto(`${s.url}/#/c/${C}/search`);
    const box = page.getByRole('searchbox');
    await box.fill('goalkeeper');
    await box.press('Enter');
    await page.locator('[data-result]').first().waitFor();
    await box.press('ArrowDown');
    await page.keyboard.press('Enter');
    // Playing, near the moment, and the keyboard is on the player.
    await expect.poll(async () => (await playing(page))?.paused, UI).toBe(false);
    const at = (await playing(page))!.time;
    expect(at).toBeGreaterThanOrEqual(expected - 0.5);
    expect(at).toBeLessThan(expected + 3);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('VIDEO');
  });

  it('reaches the chapters by keyboard without going through the video controls; Enter seeks', async () => {
    await page.locator('.chapters .line').first().waitFor();
    // Shift+Tab from the video: the skip button sits right before the player's controls.
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toContain('Skip to chapters');
    await screenshot(page, 'player-skip');
    await page.keyboard.press('Enter');
    expect(await focused(page)).toMatch(/^button\.line/);
    const chapters = await page.locator('.chapters .line').evaluateAll((bs) => bs.map((b) => Number(b.getAttribute('data-start'))));
    expect(chapters.length).toBeGreaterThanOrEqual(2);
    // From the current chapter to the last one by Tab, then Enter seeks there.
    for (let i = 0; i < chapters.length; i++) {
      if (Number(await page.evaluate(() => document.activeElement?.getAttribute('data-start'))) === chapters.at(-1)) break;
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await playing(page))!.time, UI).toBeGreaterThanOrEqual(chapters.at(-1)!);
    expect((await playing(page))!.paused).toBe(false);

    // From the start of the view, Tab reaches the skip button before it reaches the video.
    await page.evaluate(() => document.getElementById('main')?.focus());
    const order: string[] = [];
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      const f = await focused(page);
      order.push(f);
      if (f.startsWith('video')) break;
    }
    const skip = order.findIndex((f) => f.includes('Skip to chapters'));
    expect(skip, order.join(' | ')).toBeGreaterThanOrEqual(0);
    expect(skip).toBe(order.length - 2);
    await page.evaluate(() => document.querySelector('video')?.pause());
    await page.locator('.chapters .line').first().focus();
    await page.evaluate(() => scrollTo(0, 0));
    await screenshot(page, 'player-moment');
    expect(await unlabelled(page)).toEqual([]);
  });

  it('shows the details and renames the item', async () => {
    const details = page.locator('dl.details');
    await expect.poll(() => details.textContent(), UI).toContain('beach-day.mp4');
    expect(await details.textContent()).toMatch(/Size\d+(\.\d)? (kB|MB)/);
    const before = (await playing(page))!.time;
    await page.getByRole('button', { name: 'Rename: beach-day' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Beach day with Sam');
    await page.getByLabel('Title', { exact: true }).press('Enter');
    await page.getByRole('heading', { name: 'Beach day with Sam' }).waitFor();
    // The keyboard is back on Rename, and the player was not reloaded (it would start over at ?t=).
    await expect.poll(() => focused(page), UI).toContain('Rename');
    expect((await playing(page))!.time).toBe(before);
    const id = items.get('beach-day')!.media_id;
    expect((await s.call('GET', `/collections/${C}/items/${id}`)).body.title).toBe('Beach day with Sam');
  });

  it('opens a photo as a picture: no clock, chapters, timeline or time badges anywhere', async () => {
    await page.goto(`${s.url}/#/c/${C}`);
    const card = page.locator('.item', { hasText: 'bakery' });
    await card.waitFor();
    expect(await card.locator('.badge').count()).toBe(0);
    expect(await card.textContent()).not.toContain('0:00');
    await card.getByRole('link', { name: 'bakery' }).click();
    const frame = page.locator('.photo-frame');
    await frame.waitFor();
    await expect.poll(() => frame.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), UI).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.classList.contains('photo-frame'))).toBe(true);
    const main = page.locator('main');
    await expect.poll(() => main.textContent(), UI).toContain('BAKERY'); // its on-screen text
    const text = (await main.textContent()) ?? '';
    // No m:ss clock anywhere (the capture time of day, 09:30, is not one).
    expect(text).not.toMatch(CLOCK);
    expect(text).not.toContain('Link to this moment');
    expect(await page.locator('.chapters, .timeline, .transcript, video, audio').count()).toBe(0);
    expect(text).toContain('recorded 14 Jul 2019');
    expect(text).toContain('town/bakery.jpg');
    // Fit, then full size (wider than the frame fits at 1280 px? the picture is 300×800: taller than the screen).
    const fitHeight = await frame.locator('img').evaluate((img: HTMLImageElement) => img.getBoundingClientRect().height);
    await page.getByRole('button', { name: 'Full size' }).click();
    await expect.poll(() => frame.locator('img').evaluate((img: HTMLImageElement) => img.getBoundingClientRect().height), UI).toBeGreaterThan(fitHeight);
    await page.getByRole('button', { name: 'Full size' }).click();
    await screenshot(page, 'photo');
    expect(await unlabelled(page)).toEqual([]);

    // A photo found by search: no time badge, no "at 0:00", and its link carries no moment.
    await page.goto(`${s.url}/#/c/${C}/search?q=bakery`);
    const hit = page.locator('[data-result]', { hasText: 'bakery' }).first();
    await hit.waitFor({ timeout: 15_000 });
    expect(await hit.locator('.badge').count()).toBe(0);
    expect(await hit.textContent()).not.toMatch(CLOCK);
    expect(await hit.getAttribute('href')).not.toContain('t=');
  });

  it('shows a HEIC photo: fitted, at full size and on its own as a JPEG, with its date and place; the original one link away', async () => {
    await page.goto(`${s.url}/#/c/${C}`);
    const card = page.locator('.item', { hasText: 'tram' });
    await card.waitFor();
    await card.getByRole('link', { name: 'tram' }).click();
    const img = page.locator('.photo-frame img');
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : -1)), UI).toBe(800);
    const main = page.locator('main');
    await expect.poll(() => main.textContent(), UI).toContain('recorded 20 May 2018');
    expect(await main.textContent()).toContain('Lisbon');
    await page.getByRole('button', { name: 'Full size' }).click();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.getBoundingClientRect().width), UI).toBe(800);
    await page.getByRole('button', { name: 'Full size' }).click();
    // "Open the picture on its own" is the JPEG; the original HEIC is offered for download.
    const own = await page.getByRole('link', { name: 'Open the picture on its own' }).getAttribute('href');
    const original = await page.getByRole('link', { name: 'Download the original file' }).getAttribute('href');
    const types = await page.evaluate(async (urls) => Promise.all(urls.map(async (u) => (await fetch(u)).headers.get('content-type'))), [own!, original!]);
    expect(types).toEqual(['image/jpeg', 'image/heic']);
    await screenshot(page, 'photo-heic');
    expect(await unlabelled(page)).toEqual([]);
  });

  it('shows the waveform of an audio item in the grid and as the player’s picture, and plays it', async () => {
    await page.goto(`${s.url}/#/c/${C}`);
    const card = page.locator('.item', { hasText: 'memo' });
    await card.waitFor();
    await expect.poll(() => card.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), UI).toBe(true);
    await card.getByRole('link', { name: 'memo' }).click();
    const wave = page.locator('img.wave');
    await wave.waitFor();
    await expect.poll(() => wave.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), UI).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('AUDIO');
    await expect.poll(async () => (await playing(page))?.paused, UI).toBe(false);
    await page.evaluate(() => document.querySelector('audio')?.pause());
    await screenshot(page, 'player-audio');
    expect(await unlabelled(page)).toEqual([]);
  });

  it('speaks German, fits 360 px and follows the dark setting', async () => {
    const id = items.get('beach-day')!.media_id;
    await page.getByLabel('Language').selectOption('de');
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${s.url}/#/c/${C}/play/${id}?t=9`);
    await page.locator('.chapters .line').first().waitFor();
    await page.getByRole('heading', { name: 'Kapitel' }).waitFor();
    await expect.poll(() => page.locator('dl.details').textContent(), UI).toContain('Größe');
    expect(await page.getByRole('button', { name: 'Zu den Kapiteln springen' }).count()).toBe(1);
    expect(await noOverflow(page)).toBeLessThanOrEqual(0);
    await page.evaluate(() => document.querySelector('video')?.pause());
    await screenshot(page, 'player-360-de');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${s.url}/#/c/${C}/play/${items.get('bakery')!.media_id}`);
    await page.locator('.photo-frame img').waitFor();
    expect(await noOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'photo-360-dark');
    expect(await unlabelled(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByLabel('Sprache').selectOption('en');
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(w.errors).toEqual([]);
    expect([...w.origins]).toEqual([s.url]);
  });
});
