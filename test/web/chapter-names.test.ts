/**
 * Chapters without words on the page (issue 34): a voice memo in which nothing is said lists "Voice memo,
 * part 1", "part 2", never a bare "0:00"; German in a German item, also on a 360 px phone.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { keyedPage, launchBrowser, screenshot, unlabelled } from '../support/browser.js';
import { ADMIN_KEY, settledTask, startTestServer, type TestServer } from '../support/server.js';

let s: TestServer;
let browser: Browser;

/** The labels of the chapter list, without their time ranges. */
const chapterLabels = (page: import('playwright-core').Page) =>
  page.locator('.chapters .line').evaluateAll((lines) => lines.map((l) => l.querySelector('span:last-child')?.textContent?.trim() ?? ''));

beforeAll(async () => {
  await buildWeb({ ifStale: true });
  s = await startTestServer({ queryEmbedder: null });
  const memo = join(s.mediaDir, 'memo.m4a');
  // Nothing is said: a tone, then a lower one.
  await promisify(execFile)('ffmpeg', ['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=14', '-f', 'lavfi', '-i', 'sine=frequency=220:duration=14',
    '-filter_complex', '[0:a][1:a]concat=n=2:v=0:a=1[a]', '-map', '[a]', '-c:a', 'aac', '-b:a', '64k', memo]);
  for (const [collection, language] of [['memos', 'en'], ['notizen', 'de']] as const) {
    expect((await s.call('POST', '/collections', { json: { collection_id: collection, name: collection } })).status).toBe(201);
    const r = await s.call('POST', '/index', { form: { collection, index_language: language, video: { path: memo, media_id: 'memo' } } });
    const t = await settledTask(s, r.body.task_id);
    expect(t.status, t.error?.message).toBe('completed');
  }
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('chapters without words', () => {
  it('are named by what they are on the page, in English and German, on a phone too', async () => {
    for (const [collection, lang, width, part] of [['memos', 'en', 1280, 'Voice memo, part'], ['notizen', 'de', 360, 'Sprachmemo, Teil']] as const) {
      const { page, context } = await keyedPage(browser, { width, height: 800 }, ADMIN_KEY);
      await context.addInitScript((l) => localStorage.setItem('vidx.lang', l), lang);
      await page.goto(`${s.url}/#/c/${collection}/play/memo`);
      await page.locator('.chapters .line').first().waitFor();
      const labels = await chapterLabels(page);
      expect(labels.length).toBeGreaterThanOrEqual(2);
      expect(labels).toEqual(labels.map((_, i) => `${part} ${i + 1}`));
      expect(await page.locator('.timeline .mark').first().getAttribute('title')).toMatch(new RegExp(`^0:00 ${part} 1$`));
      await page.locator('.chapters').scrollIntoViewIfNeeded();
      await screenshot(page, `chapters-memo-${lang}-${width}`);
      expect(await unlabelled(page)).toEqual([]);
      await context.close();
    }
  });
});
