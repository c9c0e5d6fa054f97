/**
 * What the page calls things (issue 34): a voice memo in which nothing is said lists "Voice memo, part 1",
 * "part 2", never a bare "0:00" (German on the German page, whatever language the item was analysed in); explore counts a photo as a photo and names items
 * by title, never by id. English and German, also on a 360 px phone.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { renderFile } from '../ml/fixtures.js';
import { keyedPage, launchBrowser, screenshot, unlabelled } from '../support/browser.js';
import { makeVideo } from '../support/folder-media.js';
import { ADMIN_KEY, settledTask, startTestServer, type TestServer } from '../support/server.js';

let s: TestServer;
let browser: Browser;
const PHOTO = '0b7e3c1a-5d2f-4e8a-9c6b-1a2b3c4d5e01';
const VIDEO = '0b7e3c1a-5d2f-4e8a-9c6b-1a2b3c4d5e02';

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
  await renderFile(s.mediaDir, { width: 1280, height: 720, background: 'navy', lines: [{ text: 'Apfelkuchen Rezept', size: 72 }] }, 'sign.png');
  await makeVideo(join(s.mediaDir, 'cake.mp4'), 'Apfelkuchen', 3);
  expect((await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } })).status).toBe(201);
  for (const [file, media_id, title] of [['sign.png', PHOTO, 'Bakery sign'], ['cake.mp4', VIDEO, 'Baking video']]) {
    const r = await s.call('POST', '/index', { form: { collection: 'home', video: { path: join(s.mediaDir, file), media_id, title } } });
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
    // The words vidx adds follow the page's language, whatever language the memo was analysed in (issue 42).
    const runs = [['memos', 'en', 1280, 'Voice memo, part'], ['notizen', 'de', 360, 'Sprachmemo, Teil'], ['memos', 'de', 1280, 'Sprachmemo, Teil'], ['notizen', 'en', 360, 'Voice memo, part']] as const;
    for (const [collection, lang, width, part] of runs) {
      const { page, context } = await keyedPage(browser, { width, height: 800 }, ADMIN_KEY);
      await context.addInitScript((l) => localStorage.setItem('vidx.lang', l), lang);
      await page.goto(`${s.url}/#/c/${collection}/play/memo`);
      await page.locator('.chapters .line').first().waitFor();
      const labels = await chapterLabels(page);
      expect(labels.length).toBeGreaterThanOrEqual(2);
      expect(labels).toEqual(labels.map((_, i) => `${part} ${i + 1}`));
      expect(await page.locator('.timeline .mark').first().getAttribute('title')).toMatch(new RegExp(`^0:00 ${part} 1$`));
      await page.locator('.chapters').scrollIntoViewIfNeeded();
      await screenshot(page, `chapters-${collection}-${lang}-${width}`);
      expect(await unlabelled(page)).toEqual([]);
      await context.close();
    }
  });

  it('explore counts photos as photos and names items by title, never by id', async () => {
    for (const [lang, width, line] of [['en', 1280, /^2 moments in 1 video and 1 photo: /], ['de', 360, /^2 Momente in 1 Video und 1 Foto: /]] as const) {
      const { page, context } = await keyedPage(browser, { width, height: 800 }, ADMIN_KEY);
      await context.addInitScript((l) => localStorage.setItem('vidx.lang', l), lang);
      await page.goto(`${s.url}/#/c/home/explore`);
      await page.locator('#cq').fill('Apfelkuchen');
      await page.locator('#cq').press('Enter');
      await page.locator('.cluster').first().waitFor({ timeout: 30_000 });
      const info = await page.locator('.cluster p.muted').allTextContents();
      expect(info.join('\n')).toMatch(line);
      expect(info.join('\n')).toContain('Bakery sign');
      // The photo's own card calls it a photo too.
      expect(await page.locator('.cluster [data-result]', { hasText: 'Bakery sign' }).textContent()).toContain(lang === 'de' ? 'Foto' : 'photo');
      const shown = (await page.locator('main').textContent()) ?? '';
      for (const id of [PHOTO, VIDEO]) expect(shown).not.toContain(id);
      expect(shown).not.toMatch(/without recognised|ohne erkannten/i);
      await screenshot(page, `explore-names-${lang}-${width}`);
      expect(await unlabelled(page)).toEqual([]);
      await context.close();
    }
  });
});
