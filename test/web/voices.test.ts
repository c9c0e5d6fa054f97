/**
 * Issue 45 on the page: voices grouped across a collection. The People view's voices setting, a person heard
 * in several recordings with their voices to play, the transcript naming the person, and a result's "Said by"
 * chip that keeps only what they say; in English, German and at 360 px. A real vidx (speakers step on its
 * thread, no model) and Debian's chromium through playwright-core; the talks are espeak-ng voices with SRTs.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { keyedPage, launchBrowser, screenshot, unlabelled } from '../support/browser.js';
import { BOAT_TALK, type Turn } from '../support/conversation.js';
import { indexTalk } from '../support/talks.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../support/server.js';

const UI = { timeout: 15_000, interval: 100 };
const DAD = { voice: 'en+m3', pitch: 35 };
const ANNA = { voice: 'en+f2', pitch: 70 };
const RADIO: readonly Turn[] = [
  { speaker: 1, text: 'This is the weather report for the harbour. The wind turns north tonight and the sea gets rough.' },
  { speaker: 1, text: 'Small boats should stay in the harbour until Sunday morning, when the storm has passed.' },
];

let s: TestServer;
let browser: Browser;
let dad: string;

beforeAll(async () => {
  await buildWeb({ ifStale: true });
  s = await startTestServer({ queryEmbedder: null });
  await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } });
  expect((await s.call('PUT', '/collections/home/voices', { json: { enabled: true } })).status).toBe(200);
  await indexTalk(s, 'home', 'boat', [DAD, ANNA], BOAT_TALK);
  await indexTalk(s, 'home', 'radio', [DAD], RADIO);
  const analysis = await s.call('GET', '/collections/home/items/boat/analysis');
  dad = analysis.body.speakers.find((t: { speaker: number }) => t.speaker === 1).person_id;
  expect((await s.call('PUT', `/collections/home/people/${dad}`, { json: { name: 'Dad' } })).status).toBe(200);
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('voices on the page', () => {
  it('lists people heard, with their voices to play, in English, German and at 360 px', async () => {
    for (const [lang, width] of [['en', 1280], ['de', 360]] as const) {
      const w = await keyedPage(browser, { width, height: 800 }, ADMIN_KEY);
      if (lang === 'de') await w.context.addInitScript(() => localStorage.setItem('vidx.lang', 'de'));
      await w.page.goto(`${s.url}/#/c/home/people`);
      const card = w.page.locator(`[data-person="${dad}"]`);
      await expect.poll(() => card.locator('[data-voices]').textContent(), UI).toMatch(lang === 'de' ? /^in 2 Aufnahmen zu hören · 0:\d\d$/ : /^heard in 2 recordings · 0:\d\d$/);
      expect(await w.page.locator('[data-voices-setting]').isChecked()).toBe(true);
      expect(await w.page.locator('[data-person]').count()).toBe(2);
      if (width === 360) expect(await w.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await screenshot(w.page, `people-voices-${lang}-${width}`);
      expect(await unlabelled(w.page)).toEqual([]);

      await w.page.goto(`${s.url}/#/c/home/people/${dad}`);
      const samples = w.page.locator('[data-voice] audio');
      await expect.poll(() => samples.count(), UI).toBe(2);
      for (const src of await samples.evaluateAll((els) => els.map((e) => (e as HTMLAudioElement).src))) expect(src).toMatch(/\/files\/.*#t=\d+(\.\d)?,\d+(\.\d)?$/);
      // The sample plays from its start: the browser reads the media fragment.
      const first = samples.first();
      await first.evaluate((a) => (a as HTMLAudioElement).load());
      await expect.poll(() => first.evaluate((a) => (a as HTMLAudioElement).readyState), UI).toBeGreaterThan(0);
      const start = Number(/#t=([\d.]+)/.exec(await first.evaluate((a) => (a as HTMLAudioElement).src))![1]);
      expect(await first.evaluate((a) => (a as HTMLAudioElement).currentTime)).toBeCloseTo(start, 0);
      await screenshot(w.page, `person-voices-${lang}-${width}`);
      expect(await unlabelled(w.page)).toEqual([]);
      expect(w.errors).toEqual([]);
      await w.context.close();
    }
  });

  it('names the person in the transcript, and keeps only what they say from a result’s chip', async () => {
    const w = await keyedPage(browser, { width: 1280, height: 800 }, ADMIN_KEY);
    await w.page.goto(`${s.url}/#/c/home/play/boat`);
    const names = w.page.locator('ol.transcript .speaker');
    await expect.poll(() => names.count(), UI).toBe(4);
    expect(await names.allTextContents()).toEqual(['Dad', 'Speaker 2', 'Dad', 'Speaker 2']);

    await w.page.goto(`${s.url}/#/c/home/search?q=harbour`);
    const results = w.page.locator('[data-result]');
    await expect.poll(() => results.count(), UI).toBe(3);
    const chip = w.page.locator(`button[data-speaker="${dad}"]`).first();
    expect(await chip.textContent()).toBe('Said by Dad');
    await screenshot(w.page, 'search-said-by');
    await chip.click();
    await expect.poll(() => w.page.locator('[data-speaker-filter]').count(), UI).toBe(1);
    await expect.poll(() => results.count(), UI).toBe(2);
    expect(await w.page.locator('button[data-speaker]').allTextContents()).toEqual(['Said by Dad', 'Said by Dad']);
    await screenshot(w.page, 'search-only-dad');
    await w.page.locator('[data-speaker-filter] button').click();
    await expect.poll(() => results.count(), UI).toBe(3);
    expect(await unlabelled(w.page)).toEqual([]);
    expect(w.errors).toEqual([]);
    await w.context.close();
  });
});
