/**
 * The player's transcript in another subtitle language, in a real browser (Debian chromium through
 * playwright-core) against a real vidx: an MKV with English and German subtitles shows the English
 * transcript with a labelled language choice; German shows the German lines, which seek like any line.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { launchBrowser, screenshot, unlabelled, watchedPage, type WatchedPage, signIn } from '../support/browser.js';
import { ADMIN_KEY, startTestServer, waitFor, type TestServer } from '../support/server.js';
import { makeTwoTrackFilm } from '../support/subtitled-media.js';

const UI = { timeout: 15_000, interval: 100 };

let s: TestServer;
let browser: Browser;
let w: WatchedPage;
let page: Page;

beforeAll(async () => {
  await buildWeb({ ifStale: true });
  s = await startTestServer({ queryEmbedder: null });
  const film = await makeTwoTrackFilm(s.mediaDir);
  await s.call('POST', '/collections', { json: { collection_id: 'films', name: 'Films' } });
  const r = await s.call('POST', '/index', { form: { collection: 'films', index_language: 'en', video: { path: film, media_id: 'film' } } });
  const done = await waitFor(async () => {
    const t = (await s.call('GET', `/tasks/${r.body.task_id}`)).body;
    return t.status === 'completed' || t.status === 'failed' ? t : undefined;
  }, 90_000, 'indexing');
  expect(done.status).toBe('completed');
  browser = await launchBrowser();
  w = await watchedPage(browser, { width: 1280, height: 800 });
  page = w.page;
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('transcript language', () => {
  it('shows the transcript, offers the other subtitle language and shows its lines', async () => {
    await signIn(page, s.url, ADMIN_KEY);
    await page.goto(`${s.url}/#/c/films/play/film`);
    const transcript = page.locator('ol.transcript');
    await expect.poll(() => transcript.textContent(), UI).toContain('In the evening it will rain.');
    const choice = page.getByLabel('Transcript language');
    expect(await choice.locator('option').allTextContents()).toEqual(['English', 'German']);
    expect(await choice.inputValue()).toBe('en');

    await choice.selectOption('de');
    await expect.poll(() => transcript.textContent(), UI).toContain('Am Abend wird es regnen.');
    expect(await transcript.textContent()).not.toContain('rain.');
    expect(await choice.inputValue()).toBe('de');
    // A German line seeks to its own time.
    await page.getByRole('button', { name: /Am Abend wird es regnen/ }).click();
    await expect.poll(() => page.evaluate(() => document.querySelector('video')?.currentTime ?? 0), UI).toBeGreaterThanOrEqual(6.7);
    await page.evaluate(() => document.querySelector('video')?.pause());
    await screenshot(page, 'player-transcript-german');
    expect(await unlabelled(page)).toEqual([]);
    expect(w.errors).toEqual([]);
    expect([...w.origins]).toEqual([s.url]);
  });
});
