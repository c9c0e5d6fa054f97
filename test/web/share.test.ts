/**
 * Sharing a moment in a real browser (Debian chromium through playwright-core) against a real vidx: the
 * owner makes a 1-day link from the player's current time, copies it, sees it listed with its expiry; the
 * link opens in a fresh browser context with no key at all and plays from the moment with chapters and
 * transcript; a browser that refuses autoplay shows a big Play button; after Revoke the link says plainly
 * that it no longer works, and so does an unknown one. German, 360 px, labels, console, hosts.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { keyedPage, launchBrowser, screenshot, unlabelled, watchedPage, type WatchedPage } from '../support/browser.js';
import { ensureCorpus } from '../support/corpus.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../support/server.js';
import { indexedFolder } from '../support/web-media.js';

const UI = { timeout: 15_000, interval: 100 };
const C = 'trip';

let s: TestServer;
let browser: Browser;
let w: WatchedPage;
let page: Page;
let mediaId: string;
let link: string;

/** What the page's <video> is doing. */
const video = (p: Page) =>
  p.evaluate(() => {
    const v = document.querySelector('video');
    return v ? { paused: v.paused, time: v.currentTime } : null;
  });

/** Opens `url` in a fresh context (no storage, no key) and returns it with every request's key header. */
async function stranger(b: Browser, url: string, viewport = { width: 1280, height: 800 }): Promise<WatchedPage & { keys: (string | undefined)[] }> {
  const other = await watchedPage(b, viewport);
  const keys: (string | undefined)[] = [];
  other.page.on('request', (r) => keys.push(r.headers()['x-api-key']));
  await other.page.goto(url);
  return { ...other, keys };
}

beforeAll(async () => {
  await buildWeb({ ifStale: true });
  const corpus = await ensureCorpus();
  s = await startTestServer({ queryEmbedder: null });
  const { items } = await indexedFolder(s, C, async (dir) => copyFileSync(corpus.slides.path, join(dir, 'beach-day.mp4')));
  mediaId = items.get('beach-day')!.media_id;
  browser = await launchBrowser();
  w = await keyedPage(browser, { width: 1280, height: 800 }, ADMIN_KEY);
  page = w.page;
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('share links', () => {
  it('the owner shares the moment for a day from the player and sees the link listed', async () => {
    await page.goto(`${s.url}/#/c/${C}/play/${mediaId}?t=9`);
    await expect.poll(async () => (await video(page))?.paused, UI).toBe(false);
    await page.evaluate(() => {
      const v = document.querySelector('video')!;
      v.pause();
      v.currentTime = 9;
    });
    await page.getByText('Share', { exact: true }).click();
    await page.getByLabel('1 day').check();
    await page.getByRole('button', { name: 'Share from 0:09' }).click();
    const field = page.getByLabel('Link to give');
    await field.waitFor();
    link = await field.inputValue();
    expect(link).toMatch(new RegExp(`^${s.url}/#/s/[A-Za-z0-9_-]{20,}$`));
    const row = page.locator('[data-share]');
    await expect.poll(() => row.count(), UI).toBe(1);
    expect(await row.textContent()).toMatch(/Link from 0:09 · expires \d+ \w+ \d{4}/);
    const { body } = await s.call('GET', `/collections/${C}/items/${mediaId}/shares`);
    expect(body.shares).toHaveLength(1);
    expect(body.shares[0].start_time).toBe(9);
    const hours = (Date.parse(body.shares[0].expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23);
    expect(hours).toBeLessThanOrEqual(24);
    await field.focus();
    await screenshot(page, 'share');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'share-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await unlabelled(page)).toEqual([]);
  });

  it('shares from the start once the video has played to its end, not from its last frame', async () => {
    // Issue 34: after the video ended, Share offered its end (0:38 of 0:38).
    await page.evaluate(() => {
      const v = document.querySelector('video')!;
      v.currentTime = Math.max(0, v.duration - 0.4);
      void v.play();
    });
    await expect.poll(() => page.evaluate(() => document.querySelector('video')!.ended), UI).toBe(true);
    await page.getByRole('button', { name: 'Share from 0:00' }).waitFor();
    expect(await page.getByLabel('the start (the video has ended)').isChecked()).toBe(true);
    await screenshot(page, 'share-ended');
    // The moment it was opened at (?t=9) is one choice away.
    await page.getByLabel('the moment opened (0:09)').check();
    await page.getByRole('button', { name: 'Share from 0:09' }).waitFor();
    expect(await unlabelled(page)).toEqual([]);
    // Back in the video, the button follows the position again.
    await page.evaluate(() => { document.querySelector('video')!.currentTime = 9; });
    await page.getByRole('button', { name: 'Share from 0:09' }).waitFor();
  });

  it('opens in a fresh browser without any key and plays from the moment, with chapters and transcript', async () => {
    const other = await stranger(browser, link);
    try {
      const p = other.page;
      await p.getByRole('heading', { name: 'beach-day' }).waitFor();
      // A link opened from elsewhere usually may not start sound by itself: then the page offers its big
      // Play button (with the focus), and the person presses it. Either way it plays from the moment.
      const play = p.getByRole('button', { name: 'Play', exact: true });
      await expect.poll(async () => (await video(p))?.paused === false || (await play.count()) > 0, UI).toBe(true);
      if (await play.count()) await play.press('Enter');
      await expect.poll(async () => (await video(p))?.paused, UI).toBe(false);
      const at = (await video(p))!.time;
      expect(at).toBeGreaterThanOrEqual(8.5);
      expect(at).toBeLessThan(12);
      expect(await p.evaluate(() => document.activeElement?.tagName)).toBe('VIDEO');
      expect(await p.locator('[data-expires]').textContent()).toMatch(/^This link works until \d+ \w+ \d{4}, \d\d:\d\d\.$/);
      expect(await p.locator('.transcript .line').count()).toBeGreaterThanOrEqual(3);
      expect(await p.locator('.chapters .line').count()).toBeGreaterThanOrEqual(2);
      // Read-only: no sign-in, no navigation, no editing, no sharing.
      expect(await p.getByRole('navigation').count()).toBe(0);
      expect(await p.getByRole('button', { name: /Rename|Share|Delete|Sign/ }).count()).toBe(0);
      // A chapter seeks.
      await p.locator('.chapters .line').last().click();
      await expect.poll(async () => (await video(p))!.time, UI).toBeGreaterThanOrEqual(16);
      await p.evaluate(() => document.querySelector('video')?.pause());
      await screenshot(p, 'share-open');
      expect(await unlabelled(p)).toEqual([]);
      expect(other.keys.every((k) => k === undefined)).toBe(true);
      expect(await p.evaluate(() => [sessionStorage.getItem('vidx.key'), localStorage.getItem('vidx.key')])).toEqual([null, null]);
      // German and a phone's width.
      await p.getByLabel('Language').selectOption('de');
      await expect.poll(() => p.locator('[data-expires]').textContent(), UI).toMatch(/^Dieser Link gilt bis/);
      await p.setViewportSize({ width: 360, height: 740 });
      expect(await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await screenshot(p, 'share-360-de');
      await p.emulateMedia({ colorScheme: 'dark' });
      await screenshot(p, 'share-360-dark');
      expect(other.errors).toEqual([]);
      expect([...other.origins]).toEqual([s.url]);
    } finally {
      await other.context.close();
    }
  });

  it('shows a big Play button where the browser refuses to start playing by itself', async () => {
    // The browser's refusal, played by a stand-in: chromium's --autoplay-policy flag is not dependable here
    // (the page under playwright counts as activated by the time it loads the video), so the first play()
    // is refused with the error a browser gives, NotAllowedError; the button's play() is the real one.
    const other = await watchedPage(browser, { width: 1280, height: 800 });
    try {
      await other.context.addInitScript(() => {
        const real = HTMLMediaElement.prototype.play;
        let refused = false;
        HTMLMediaElement.prototype.play = function () {
          if (refused) return real.call(this);
          refused = true;
          return Promise.reject(new DOMException('play() can only be initiated by a user gesture.', 'NotAllowedError'));
        };
      });
      await other.page.goto(link);
      const play = other.page.getByRole('button', { name: 'Play', exact: true });
      await play.waitFor({ timeout: 15_000 });
      expect((await video(other.page))!.paused).toBe(true);
      // The keyboard is on the button, and the player already sits at the moment.
      expect(await other.page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('▶ Play');
      expect((await video(other.page))!.time).toBeCloseTo(9, 0);
      await screenshot(other.page, 'share-play-button');
      await other.page.keyboard.press('Enter');
      await expect.poll(async () => (await video(other.page))?.paused, UI).toBe(false);
      expect((await video(other.page))!.time).toBeGreaterThanOrEqual(8.5);
      // The button goes with the video's play event, which the browser dispatches a moment after paused turns false.
      await expect.poll(() => play.count(), UI).toBe(0);
      await expect.poll(() => other.page.evaluate(() => document.activeElement?.tagName), UI).toBe('VIDEO');
      expect(other.errors).toEqual([]);
    } finally {
      await other.context.close();
    }
  });

  it('stops working after Revoke, and says so; an unknown link says the same', async () => {
    const { body } = await s.call('GET', `/shared/${link.split('/#/s/')[1]}`, { key: null });
    const src = body.src as string;
    expect((await fetch(src, { headers: { range: 'bytes=0-99' } })).status).toBe(206);
    await page.getByRole('button', { name: /^Revoke: Link from 0:09/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('stops working at once');
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => page.locator('[data-share]').count(), UI).toBe(0);
    expect(await page.getByLabel('Link to give').count()).toBe(0);
    expect((await s.call('GET', `/collections/${C}/items/${mediaId}/shares`)).body.shares).toEqual([]);
    // The file link it handed out stops too.
    expect((await fetch(src, { headers: { range: 'bytes=0-99' } })).status).toBeGreaterThanOrEqual(400);

    for (const url of [link, `${s.url}/#/s/NoSuchTokenAtAll0000000`]) {
      const other = await stranger(browser, url);
      try {
        await other.page.getByRole('heading', { name: 'This link does not work (any more)' }).waitFor();
        expect(await other.page.locator('video').count()).toBe(0);
        expect(await other.page.getByRole('alert').textContent()).toContain('expired or was revoked');
        await screenshot(other.page, 'share-gone');
        // The one console line is the browser reporting the 404 of /shared/<token> itself.
        expect(other.errors.filter((e) => !/404/.test(e))).toEqual([]);
        expect([...other.origins]).toEqual([s.url]);
      } finally {
        await other.context.close();
      }
    }
    expect(w.errors).toEqual([]);
    expect([...w.origins]).toEqual([s.url]);
  });
});
