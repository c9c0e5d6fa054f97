/**
 * Issue 46 on the page: a question typed in the search box gets an answer card above the moments, built around
 * the line that says it, with that moment to play; German questions get German answers; nothing found says so.
 * A real vidx and Debian's chromium through playwright-core; the memos are espeak-ng talks with SRTs.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openAsBlob, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { makeFixtureModels, type FixtureSet } from '../../scripts/make-fixture-models.js';
import { modelArchiveForm } from '../../src/client/upload.js';
import { keyedPage, launchBrowser, screenshot, unlabelled } from '../support/browser.js';
import { BOAT_TALK, GEBURTSTAG } from '../support/conversation.js';
import { indexTalk } from '../support/talks.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../support/server.js';

const UI = { timeout: 15_000, interval: 100 };
let s: TestServer;
let browser: Browser;
let tmp: string;
let fixtures: FixtureSet;

beforeAll(async () => {
  await buildWeb({ ifStale: true });
  tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'web-ask-'));
  fixtures = await makeFixtureModels(join(tmp, 'hub'));
  s = await startTestServer({ queryEmbedder: null, env: { VIDX_MODELS_MANIFEST: fixtures.manifestPath } });
  await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } });
  const talks = [
    ['boat', [{ voice: 'en+m3', pitch: 35 }, { voice: 'en+f2', pitch: 70 }], BOAT_TALK],
    ['geburtstag', [{ voice: 'de+m1', pitch: 40 }, { voice: 'de+f3', pitch: 75 }], GEBURTSTAG],
  ] as const;
  for (const [name, voices, turns] of talks) await indexTalk(s, 'home', name, voices, turns);
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('the answer card', () => {
  it('answers a question above the moments and opens the player at the line, in English, German and at 360 px', async () => {
    for (const [lang, width, question, answer] of [
      ['en', 1280, 'When do we leave the harbour?', /^At nine — in “boat” at 0:\d\d/],
      ['de', 360, 'Wann wird Oma neunzig?', /^Im März — in „geburtstag“ bei 0:\d\d/],
    ] as const) {
      const w = await keyedPage(browser, { width, height: 800 }, ADMIN_KEY);
      if (lang === 'de') await w.context.addInitScript(() => localStorage.setItem('vidx.lang', 'de'));
      await w.page.goto(`${s.url}/#/c/home/search?q=${encodeURIComponent(question)}`);
      const text = w.page.locator('[data-answer-text]');
      await expect.poll(() => text.textContent(), UI).toMatch(answer);
      await expect.poll(() => w.page.locator('[data-result]').count(), UI).toBeGreaterThan(0);
      if (width === 360) expect(await w.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await screenshot(w.page, `answer-${lang}-${width}`);
      expect(await unlabelled(w.page)).toEqual([]);
      await w.page.locator('[data-citation]').click();
      await expect.poll(() => w.page.evaluate(() => location.hash), UI).toMatch(/^#\/c\/home\/play\/(boat|geburtstag)\?t=\d/);
      expect(w.errors).toEqual([]);
      await w.context.close();
    }
  });

  it('says that nothing says so, and shows no card for words that ask nothing', async () => {
    const w = await keyedPage(browser, { width: 1280, height: 800 }, ADMIN_KEY);
    await w.page.goto(`${s.url}/#/c/home/search?q=${encodeURIComponent('Where did we eat the sardines?')}`);
    await expect.poll(() => w.page.locator('[data-answer-text]').textContent(), UI).toBe('Nothing in this collection says so.');
    expect(await w.page.locator('[data-citation]').count()).toBe(0);
    await w.page.goto(`${s.url}/#/c/home/search?q=harbour`);
    await expect.poll(() => w.page.locator('[data-result]').count(), UI).toBeGreaterThan(0);
    expect(await w.page.locator('[data-answer]').count()).toBe(0);
    expect(w.errors).toEqual([]);
    await w.context.close();
  });

  it('shows who wrote an answer once a local model is installed, in English, German and at 360 px', async () => {
    // Brought in as an archive (no hub needed): the tiny GGUF writes noise, held to JSON; the card shows it as written.
    execFileSync('tar', ['-cf', join(tmp, 'llm.tar'), '-C', join(fixtures.hubDir, 'vidx-test', 'tiny-llm'), '.']);
    expect((await s.call('POST', '/models/import', { body: modelArchiveForm(await openAsBlob(join(tmp, 'llm.tar')), 'llm.tar', 'tiny-llm') })).status).toBe(200);
    for (const [lang, width, question, where, by] of [
      ['en', 1280, 'When do we leave the harbour?', / — in “boat” at 0:\d\d$/, 'Written by tiny-llm from these moments; the time and date are the index’s.'],
      ['de', 360, 'Wann wird Oma neunzig?', / — in „geburtstag“ bei 0:\d\d$/, 'Geschrieben von tiny-llm aus diesen Stellen; Zeit und Datum stammen aus dem Index.'],
    ] as const) {
      const w = await keyedPage(browser, { width, height: 800 }, ADMIN_KEY);
      if (lang === 'de') await w.context.addInitScript(() => localStorage.setItem('vidx.lang', 'de'));
      await w.page.goto(`${s.url}/#/c/home/search?q=${encodeURIComponent(question)}`);
      await expect.poll(() => w.page.locator('[data-answer-model]').textContent(), UI).toBe(by);
      expect(await w.page.locator('[data-answer-text]').textContent()).toMatch(where);
      expect(await w.page.locator('[data-answer]').getAttribute('aria-busy')).toBe('false');
      if (width === 360) expect(await w.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await screenshot(w.page, `answer-model-${lang}-${width}`);
      expect(w.errors).toEqual([]);
      await w.context.close();
    }
  });
});
