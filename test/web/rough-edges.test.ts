/**
 * Issue 34, what a new user met on the page, in a real browser (Debian chromium through playwright-core)
 * against a real vidx with real media: the speech notice only on an item without a transcript, worded for a
 * voice memo; a folder scan that completed while a file failed says so in Tasks; a photo just added is
 * opened, not played; the folder error is one sentence; the delete dialog says the transcript and chapters
 * go too. English and German, 360 px.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { keyedPage, launchBrowser, screenshot, unlabelled, type WatchedPage } from '../support/browser.js';
import { ensureCorpus } from '../support/corpus.js';
import { makePhoto, makeSpeech } from '../support/folder-media.js';
import { ADMIN_KEY, settledTask, startTestServer, type TestServer } from '../support/server.js';
import { indexedFolder, type ListedItem } from '../support/web-media.js';

const UI = { timeout: 15_000, interval: 100 };
const C = 'home';
let s: TestServer;
let browser: Browser;
let w: WatchedPage;
let page: Page;
let items: Map<string, ListedItem>;
let tmp: string;

/** Switches the page's language through its own switch (German: "Sprache"). */
const speak = async (p: Page, lang: 'en' | 'de') => p.locator('select[aria-label="Language"], select[aria-label="Sprache"]').selectOption(lang);

beforeAll(async () => {
  await buildWeb({ ifStale: true });
  const corpus = await ensureCorpus();
  tmp = mkdtempSync(join(tmpdir(), 'vidx-edges-'));
  s = await startTestServer({ queryEmbedder: null });
  ({ items } = await indexedFolder(s, C, async (dir) => {
    copyFileSync(corpus.slides.path, join(dir, 'talk.mp4'));
    await makeSpeech(join(dir, 'memo.m4a'), 'Remember to buy oat milk and fresh bread tomorrow');
    // Not a video at all, though its name says so: the scan completes, with this file failed.
    writeFileSync(join(dir, 'kaputt.mp4'), Buffer.alloc(4096, 7));
  }));
  browser = await launchBrowser();
  w = await keyedPage(browser, { width: 1280, height: 800 }, ADMIN_KEY);
  page = w.page;
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('notices only where they apply', () => {
  it('tells on a voice memo without a transcript that speech recognition is missing, in words for audio', async () => {
    await page.goto(`${s.url}/#/c/${C}/play/${items.get('memo')!.media_id}`);
    const notice = page.locator('[data-notice="no-speech"]');
    await expect.poll(() => notice.textContent(), UI).toMatch(/^Speech recognition is not installed, so what is said in this voice memo or audio cannot be transcribed or found\./);
    expect(await notice.getByRole('link', { name: 'Install it under Models.' }).count()).toBe(1);
    await page.evaluate(() => document.querySelector('audio')?.pause());
    await screenshot(page, 'edges-memo-notice');
    await speak(page, 'de');
    await expect.poll(() => notice.textContent(), UI).toMatch(/^Die Spracherkennung ist nicht installiert, daher kann das Gesagte in dieser Sprachnotiz/);
    await page.setViewportSize({ width: 360, height: 740 });
    await screenshot(page, 'edges-memo-notice-360-de');
    await page.setViewportSize({ width: 1280, height: 800 });
    await speak(page, 'en');
  });

  it('names the items without a transcript in a search, with the way to Models rather than a command (issue 42)', async () => {
    await page.goto(`${s.url}/#/c/${C}/search?q=${encodeURIComponent('slides')}`);
    const notice = page.locator('[data-notice="speech_missing"]');
    await expect.poll(() => notice.textContent(), UI).toBe(
      'Speech in “memo” was never transcribed (no subtitles, and no speech recognition when indexed), so what is said there cannot be found. Install speech recognition under Models, then re-index it.',
    );
    expect(await notice.getByRole('link', { name: 'Install speech recognition under Models, then re-index it.' }).getAttribute('href')).toBe('#/models');
    expect(await notice.locator('code').count()).toBe(0);
    await screenshot(page, 'edges-search-speech');
    await speak(page, 'de');
    await expect.poll(() => notice.textContent(), UI).toMatch(/^Die Sprache in „memo“ wurde nie transkribiert .* Installiere die Spracherkennung unter Modelle und indiziere den Eintrag dann neu\.$/);
    // The other notice follows the page's language too, though the search was made in English.
    expect(await page.locator('[data-notice="image_text_missing"]').textContent()).toBe(
      'Was nur zu sehen ist (nicht gesagt oder geschrieben), ist mit Worten nicht auffindbar: Es ist kein Bild-Text-Modell installiert. Installiere eines unter Modelle und indiziere dann neu.',
    );
    await page.setViewportSize({ width: 360, height: 740 });
    await notice.scrollIntoViewIfNeeded();
    await screenshot(page, 'edges-search-speech-360-de');
    await page.setViewportSize({ width: 1280, height: 800 });
    await speak(page, 'en');
  });

  it('says nothing of the sort above a video whose subtitles are its transcript', async () => {
    await page.goto(`${s.url}/#/c/${C}/play/${items.get('talk')!.media_id}`);
    await expect.poll(() => page.locator('.transcript .line').count(), UI).toBeGreaterThanOrEqual(3);
    expect(await page.locator('[data-notice="no-speech"]').count()).toBe(0);
    await page.evaluate(() => document.querySelector('video')?.pause());
  });
});

describe('tasks, adding and deleting', () => {
  it('shows a folder scan that completed with a failed file as such, naming the file', async () => {
    await page.goto(`${s.url}/#/tasks`);
    const scan = page.locator('[data-kind="folder_scan"]').first();
    await expect.poll(() => scan.locator('[data-status]').textContent(), UI).toBe('completed, 1 file failed');
    expect(await scan.locator('[data-status]').getAttribute('data-status')).toBe('completed_with_failures');
    expect(await scan.locator('[data-failed-files] li').allTextContents()).toEqual([expect.stringMatching(/^kaputt\.mp4: “kaputt\.mp4” /)]);
    // Issue 42: the scan's end line says done, with its counts; the date is written as everywhere else on the page.
    expect(await scan.locator('[data-step]').textContent()).toBe('done: found 3 · added 2 · changed 0 · moved 0 · removed 0 · unchanged 0 · skipped 0 · failed 1');
    expect(await scan.locator('time').textContent()).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d$/);
    await screenshot(page, 'edges-tasks');
    await speak(page, 'de');
    await expect.poll(() => scan.locator('[data-status]').textContent(), UI).toBe('fertig, 1 Datei fehlgeschlagen');
    expect(await scan.locator('[data-step]').textContent()).toMatch(/^fertig: gefunden 3 · neu 2 · .* · fehlgeschlagen 1$/);
    expect(await scan.locator('time').textContent()).toMatch(/^\d{1,2}\. [A-Z][a-zä]{2,3}\.? \d{4}, \d\d:\d\d$/);
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'edges-tasks-360-de');
    await page.setViewportSize({ width: 1280, height: 800 });
    await speak(page, 'en');
  });

  it('offers Open, not Play, for a photo just added; says a refused folder in one sentence', async () => {
    const photo = join(tmp, 'bakery.jpg');
    await makePhoto(photo, 'BAKERY');
    await page.goto(`${s.url}/#/add?c=${C}`);
    await page.getByLabel('Collection', { exact: true }).selectOption(C);
    await page.locator('#files').setInputFiles(photo);
    const row = page.locator('[data-upload="bakery.jpg"]');
    await row.getByRole('link', { name: 'Open: bakery.jpg' }).waitFor({ timeout: 120_000 });
    expect(await row.getByRole('link', { name: /^Play/ }).count()).toBe(0);
    await page.getByLabel('Folder path on the server').fill('/etc');
    await page.getByRole('button', { name: 'Add folder' }).click();
    const refused = page.locator('#folder-refused');
    await expect.poll(() => refused.textContent(), UI).toBe(`The folder "/etc" is outside the configured media roots (VIDX_MEDIA_ROOTS); allowed: ${s.mediaDir}.`);
    await screenshot(page, 'edges-add');
    expect(await unlabelled(page)).toEqual([]);
    await speak(page, 'de');
    await page.getByRole('button', { name: 'Ordner hinzufügen' }).click();
    await expect.poll(() => refused.textContent(), UI).toBe(`Der Ordner „/etc“ liegt außerhalb der Medienordner (VIDX_MEDIA_ROOTS); erlaubt sind: ${s.mediaDir}.`);
    await speak(page, 'en');
  }, 180_000);

  it('shows a phone screenshot whole in the grid, its heading too, not cropped to its middle (issue 42)', async () => {
    const shot = join(s.mediaDir, 'settings-screenshot.png');
    // A phone's screenshot: its heading in a band at the very top, a long page under it.
    await sharp({ create: { width: 540, height: 1200, channels: 3, background: '#ffffff' } })
      .composite([{ input: { create: { width: 540, height: 140, channels: 3, background: '#1a3d8f' } }, top: 0, left: 0 }])
      .png()
      .toFile(shot);
    const r = await s.call('POST', '/index', { form: { collection: C, video: { path: shot, media_id: 'settings', title: 'Settings screenshot' } } });
    expect((await settledTask(s, r.body.task_id)).status).toBe('completed');
    for (const [lang, width] of [['en', 1280], ['de', 360]] as const) {
      await speak(page, lang);
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${s.url}/#/c/${C}`);
      const img = page.locator('.item', { hasText: 'Settings screenshot' }).locator('.thumb img');
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), UI).toBe(true);
      const shown = await img.evaluate((el: HTMLImageElement) => {
        const box = el.getBoundingClientRect();
        // The picture as drawn: scaled to fit the box whole (contain), centred.
        const scale = Math.min(box.width / el.naturalWidth, box.height / el.naturalHeight);
        return { fit: getComputedStyle(el).objectFit, natural: [el.naturalWidth, el.naturalHeight], drawnHeight: el.naturalHeight * scale, boxHeight: box.height };
      });
      expect(shown.fit).toBe('contain');
      expect(shown.natural).toEqual([144, 320]);
      expect(shown.drawnHeight).toBeCloseTo(shown.boxHeight, 0);
      await img.scrollIntoViewIfNeeded();
      await screenshot(page, `edges-screenshot-grid-${lang}-${width}`);
    }
    await speak(page, 'en');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('says in the delete dialog that the transcript and chapters are deleted too', async () => {
    await page.goto(`${s.url}/#/c/${C}`);
    await page.getByRole('button', { name: 'Delete: talk' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('its transcript, chapters, thumbnails and share links are deleted with it');
    await screenshot(page, 'edges-delete');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // Issue 42, on a phone: the backdrop dims the whole screen, header too, and the page behind it does not scroll away.
    await page.setViewportSize({ width: 360, height: 740 });
    const headerLight = async () => {
      const { data } = await sharp(await page.screenshot({ clip: { x: 0, y: 0, width: 360, height: 40 } })).greyscale().raw().toBuffer({ resolveWithObject: true });
      return data.reduce((a, b) => a + b, 0) / data.length;
    };
    await page.evaluate(() => scrollTo(0, 0));
    const before = await headerLight();
    // Opened from the top of the page, so the header is on the screen with the dialog (a click on a card below
    // would scroll the page to it first).
    await page.getByRole('button', { name: 'Delete: memo' }).evaluate((b: HTMLButtonElement) => b.click());
    await dialog.waitFor();
    expect(await page.evaluate(() => scrollY)).toBe(0);
    expect(await headerLight()).toBeLessThan(before * 0.6);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(740);
    await page.mouse.move(180, 700);
    await page.mouse.wheel(0, 500);
    await page.waitForTimeout(300); // a scroll that must not happen gets its chance
    expect(await page.evaluate(() => scrollY)).toBe(0);
    await screenshot(page, 'edges-delete-360');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.setViewportSize({ width: 1280, height: 800 });
    // The two console lines of the browser are the 422s of the refused folder, as asked for.
    expect(w.errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  });
});
