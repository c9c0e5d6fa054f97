/**
 * Issue 45 on the page: the player's transcript names who speaks where a turn starts, each speaker in a colour
 * of its own, in English and German, at 360 px and in dark mode. A real vidx (the speakers step on its thread,
 * no model) and Debian's chromium through playwright-core; the talk is espeak-ng voices with an SRT sidecar.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { keyedPage, launchBrowser, screenshot, unlabelled } from '../support/browser.js';
import { BOAT_TALK, conversation, srtOf } from '../support/conversation.js';
import { ADMIN_KEY, settledTask, startTestServer, type TestServer } from '../support/server.js';

const run = promisify(execFile);
const UI = { timeout: 15_000, interval: 100 };

let s: TestServer;
let browser: Browser;

beforeAll(async () => {
  await buildWeb({ ifStale: true });
  s = await startTestServer({ queryEmbedder: null });
  await s.call('POST', '/collections', { json: { collection_id: 'talks', name: 'Talks' } });
  const placed = await conversation(join(s.mediaDir, 'boat.wav'), [{ voice: 'en+m3', pitch: 35 }, { voice: 'en+f2', pitch: 70 }], BOAT_TALK);
  const seconds = placed.at(-1)!.end + 0.5;
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=s=320x240:r=10:d=${seconds}`, '-i', join(s.mediaDir, 'boat.wav'), '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', join(s.mediaDir, 'boat.mp4')]);
  await writeFile(join(s.mediaDir, 'boat.srt'), srtOf(placed));
  const r = await s.call('POST', '/index', { json: { collection: 'talks', video: { path: join(s.mediaDir, 'boat.mp4'), media_id: 'boat' } } });
  expect((await settledTask(s, r.body.task_id as string, 120_000)).status).toBe('completed');
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('speakers in the transcript', () => {
  it('names the speaker where each turn starts, in English, German, at 360 px and dark', async () => {
    for (const [lang, width, dark] of [['en', 1280, false], ['de', 360, false], ['en', 360, true]] as const) {
      const w = await keyedPage(browser, { width, height: 800 }, ADMIN_KEY);
      if (lang === 'de') await w.context.addInitScript(() => localStorage.setItem('vidx.lang', 'de'));
      if (dark) await w.page.emulateMedia({ colorScheme: 'dark' });
      await w.page.goto(`${s.url}/#/c/talks/play/boat`);
      const names = w.page.locator('ol.transcript .speaker');
      await expect.poll(() => names.count(), UI).toBe(4);
      const word = lang === 'de' ? 'Sprecher' : 'Speaker';
      expect(await names.allTextContents()).toEqual([`${word} 1`, `${word} 2`, `${word} 1`, `${word} 2`]);
      // Each speaker in a colour of its own, the same wherever it speaks again.
      const colours = await names.evaluateAll((els) => els.map((e) => getComputedStyle(e).color));
      expect(colours[0]).toBe(colours[2]);
      expect(colours[1]).toBe(colours[3]);
      expect(colours[0]).not.toBe(colours[1]);
      if (width === 360) expect(await w.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await screenshot(w.page, `transcript-speakers-${lang}-${width}${dark ? '-dark' : ''}`);
      expect(await unlabelled(w.page)).toEqual([]);
      expect(w.errors).toEqual([]);
      await w.context.close();
    }
  });
});
