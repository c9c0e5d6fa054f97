/**
 * The player's transcript in another subtitle language, in a real browser (Debian chromium through
 * playwright-core) against a real vidx: an MKV with English and German subtitles shows the English
 * transcript with a labelled language choice; German shows the German lines, which seek like any line.
 * Issue 42: the lines are captions on the video too; the German page opens on the German track, with the
 * summary and chapters told from it; the clock never runs past the length the player plays; the sign-in hint
 * and the header fit a server whose admin key came from VIDX_ADMIN_KEY.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { keyedPage, launchBrowser, screenshot, unlabelled, watchedPage, type WatchedPage, signIn } from '../support/browser.js';
import { ADMIN_KEY, startTestServer, waitFor, type TestServer } from '../support/server.js';
import { makeOverlongFilm, makeTwoTrackFilm } from '../support/subtitled-media.js';

const UI = { timeout: 15_000, interval: 100 };

let s: TestServer;
let browser: Browser;
let w: WatchedPage;
let page: Page;

async function index(path: string, mediaId: string): Promise<void> {
  const r = await s.call('POST', '/index', { form: { collection: 'films', index_language: 'en', video: { path, media_id: mediaId } } });
  const done = await waitFor(async () => {
    const t = (await s.call('GET', `/tasks/${r.body.task_id}`)).body;
    return t.status === 'completed' || t.status === 'failed' ? t : undefined;
  }, 90_000, 'indexing');
  expect(done.status, done.error?.message).toBe('completed');
}

/** The video's captions: each track's language, mode and cue texts, as the browser holds them. */
const captions = (p: Page) =>
  p.evaluate(() =>
    [...(document.querySelector('video')?.textTracks ?? [])].map((tr) => ({ language: tr.language, mode: tr.mode, cues: [...(tr.cues ?? [])].map((c) => (c as VTTCue).text) })),
  );

beforeAll(async () => {
  await buildWeb({ ifStale: true });
  s = await startTestServer({ queryEmbedder: null });
  await s.call('POST', '/collections', { json: { collection_id: 'films', name: 'Films' } });
  await index(await makeTwoTrackFilm(s.mediaDir), 'film');
  await index(await makeOverlongFilm(s.mediaDir), 'overlong');
  browser = await launchBrowser();
  w = await watchedPage(browser, { width: 1280, height: 800 });
  page = w.page;
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('transcript language', () => {
  it('says on sign-in where this server’s admin key is, and shows no setting as the person’s name', async () => {
    await page.goto(`${s.url}/`);
    const hint = page.locator('#key-hint');
    await expect.poll(() => hint.textContent(), UI).toMatch(/^The admin key of this vidx is the value of VIDX_ADMIN_KEY in the environment it was started with; no key file was written\./);
    expect(await hint.textContent()).not.toContain('admin.key');
    await screenshot(page, 'signin-env-key');
    await page.getByLabel('Language').selectOption('de');
    await expect.poll(() => hint.textContent(), UI).toMatch(/^Der Admin-Schlüssel dieses vidx ist der Wert von VIDX_ADMIN_KEY/);
    await page.setViewportSize({ width: 360, height: 740 });
    await screenshot(page, 'signin-env-key-360-de');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByLabel('Sprache').selectOption('en');
    await signIn(page, s.url, ADMIN_KEY);
    expect(await page.locator('header .who').textContent()).toBe('admin');
  });

  it('shows the transcript, offers the other subtitle language and shows its lines, as captions too', async () => {
    await page.goto(`${s.url}/#/c/films/play/film`);
    const transcript = page.locator('ol.transcript');
    await expect.poll(() => transcript.textContent(), UI).toContain('In the evening it will rain.');
    const choice = page.getByLabel('Transcript language');
    expect(await choice.locator('option').allTextContents()).toEqual(['English', 'German']);
    expect(await choice.inputValue()).toBe('en');
    await expect.poll(() => captions(page), UI).toEqual([{ language: 'en', mode: 'showing', cues: ['Good morning from Berlin.', 'In the evening it will rain.'] }]);
    expect(await page.locator('[data-summary] p').getAttribute('lang')).toBe('en');

    await choice.selectOption('de');
    await expect.poll(() => transcript.textContent(), UI).toContain('Am Abend wird es regnen.');
    expect(await transcript.textContent()).not.toContain('rain.');
    expect(await choice.inputValue()).toBe('de');
    await expect.poll(() => captions(page), UI).toEqual([{ language: 'de', mode: 'showing', cues: ['Guten Morgen aus Berlin.', 'Am Abend wird es regnen.'] }]);
    // The summary is told from the German lines, and the page says it is German.
    expect(await page.locator('[data-summary] p').textContent()).toContain('Guten Morgen aus Berlin.');
    expect(await page.locator('[data-summary] p').getAttribute('lang')).toBe('de');
    // A German line seeks to its own time.
    await transcript.getByRole('button', { name: /Am Abend wird es regnen/ }).click();
    await expect.poll(() => page.evaluate(() => document.querySelector('video')?.currentTime ?? 0), UI).toBeGreaterThanOrEqual(6.7);
    await page.evaluate(() => document.querySelector('video')?.pause());
    await screenshot(page, 'player-transcript-german');
    expect(await unlabelled(page)).toEqual([]);
    expect(w.errors).toEqual([]);
    expect([...w.origins]).toEqual([s.url]);
  });

  it('opens on the German track on the German page, summary and chapters told from it, captions on the video', async () => {
    for (const width of [1280, 360]) {
      const german = await keyedPage(browser, { width, height: 800 }, ADMIN_KEY);
      await german.context.addInitScript(() => localStorage.setItem('vidx.lang', 'de'));
      await german.page.goto(`${s.url}/#/c/films/play/film?t=2`);
      const transcript = german.page.locator('ol.transcript');
      await expect.poll(() => transcript.textContent(), UI).toContain('Am Abend wird es regnen.');
      expect(await german.page.getByLabel('Sprache des Transkripts').inputValue()).toBe('de');
      const chapters = german.page.locator('ol.chapters');
      expect(await chapters.getAttribute('lang')).toBe('de');
      expect(await chapters.textContent()).toMatch(/Guten Morgen|Abend/);
      expect(await chapters.textContent()).not.toMatch(/morning|rain/);
      expect(await german.page.locator('[data-summary] p').textContent()).toContain('Guten Morgen aus Berlin.');
      await expect.poll(() => captions(german.page), UI).toEqual([{ language: 'de', mode: 'showing', cues: ['Guten Morgen aus Berlin.', 'Am Abend wird es regnen.'] }]);
      // The caption of the moment shows on the picture.
      await german.page.evaluate(() => {
        const v = document.querySelector('video')!;
        v.pause();
        v.currentTime = 2;
      });
      await expect.poll(() => german.page.evaluate(() => [...(document.querySelector('video')!.textTracks[0]?.activeCues ?? [])].map((c) => (c as VTTCue).text)), UI).toEqual(['Guten Morgen aus Berlin.']);
      if (width === 360) expect(await german.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await screenshot(german.page, `player-captions-de-${width}`);
      expect(await unlabelled(german.page)).toEqual([]);
      expect(german.errors).toEqual([]);
      await german.context.close();
    }
  });

  it('never shows the clock past the length the player plays (a file longer than its picture)', async () => {
    await page.goto(`${s.url}/#/c/films/play/overlong?t=11`);
    // The page was on another item's player: a hash change keeps that <video> until this item has loaded.
    await page.locator('video[src*="overlong"]').waitFor();
    await page.evaluate(async () => {
      const v = document.querySelector('video')!;
      if (v.readyState < 1) await new Promise((r) => v.addEventListener('loadedmetadata', r, { once: true }));
      v.currentTime = 11;
      await v.play();
    });
    await expect.poll(() => page.evaluate(() => document.querySelector('video')!.ended), { timeout: 20_000, interval: 200 }).toBe(true);
    const played = await page.evaluate(() => document.querySelector('video')!.duration);
    expect(played).toBeGreaterThan(12.5);
    const [now, total] = ((await page.locator('[data-clock]').textContent()) ?? '').split(' / ');
    expect(total).toBe(`0:${String(Math.floor(played)).padStart(2, '0')}`);
    expect(now).toBe(total);
    await screenshot(page, 'player-overlong-end');
  });
});
