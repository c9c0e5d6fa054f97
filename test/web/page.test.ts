/**
 * The web page in a real browser (Debian chromium through playwright-core) against a real vidx: sign in,
 * collections, drag-and-drop upload until indexed, tasks (retry, delete), search and play at the moment,
 * transcript seeking, explore, German, 360 px, keyboard, labels, no console errors, no other host.
 * The specs run in order on one page, as a user would go; screenshots land in test/.tmp/web-screenshots.
 */
import { copyFileSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { keyedPage, launchBrowser, screenshot, unlabelled, watchedPage, type WatchedPage } from '../support/browser.js';
import { ensureCorpus, type CorpusManifest } from '../support/corpus.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../support/server.js';

let s: TestServer;
let corpus: CorpusManifest;
let browser: Browser;
let w: WatchedPage;
let page: Page;

const COLLECTION = 'holidays';
/** The page polls tasks every 1.5 s (4 s when none is open) and the machine may be busy: UI waits get room (they end as soon as they hold). */
const UI = { timeout: 15_000, interval: 100 };

/** currentTime and readiness of the page's player. */
const player = (p: Page) =>
  p.evaluate(() => {
    const v = document.querySelector('video');
    return v ? { time: v.currentTime, ready: v.readyState } : null;
  });

async function waitForPlayerAt(p: Page, target: number): Promise<number> {
  await p.waitForFunction((t) => {
    const v = document.querySelector('video');
    return !!v && v.readyState >= 1 && Math.abs(v.currentTime - t) < 1;
  }, target, { timeout: 20_000 });
  return (await player(p))!.time;
}

beforeAll(async () => {
  await buildWeb({ ifStale: true });
  corpus = await ensureCorpus();
  s = await startTestServer({ queryEmbedder: null });
  browser = await launchBrowser();
  w = await watchedPage(browser, { width: 1280, height: 860 });
  page = w.page;
  // Confirmations (delete) are accepted, as a user clicking OK.
  page.on('dialog', (d) => void d.accept());
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('web page', () => {
  it('is served at / with a strict content security policy and without a key', async () => {
    const res = await fetch(`${s.url}/`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    expect(html).not.toMatch(/https?:\/\//); // nothing from another host
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1];
    const js = await fetch(`${s.url}${asset}`);
    expect(js.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${s.url}/assets/..%2Fbuild.json`)).status).toBe(404);
    // JS and CSS together stay within 150 KB gzipped.
    const build = JSON.parse(readFileSync('dist/web/build.json', 'utf8')) as { jsCssGzipBytes: number };
    expect(build.jsCssGzipBytes).toBeLessThan(150 * 1024);
  });

  it('signs in with a key labelled "API key"; a wrong key gets a clear message', async () => {
    await page.goto(`${s.url}/`);
    // This server's admin key came from VIDX_ADMIN_KEY: the hint says so, and names no file it never wrote.
    await expect.poll(() => page.locator('#key-hint').textContent(), UI).toContain('VIDX_ADMIN_KEY');
    expect(await page.locator('#key-hint').textContent()).not.toContain('admin.key');
    await screenshot(page, 'signin');
    await page.getByLabel('API key').fill('vidx_not_a_real_key_000000000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('This key is not known to this server.').waitFor();
    // The refused request logs a 401 in the console; that one is expected.
    w.errors.length = 0;
    await page.getByLabel('API key').fill(ADMIN_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'My collections' }).waitFor();
    // Not ticked "remember": the key lives in this tab only.
    expect(await page.evaluate(() => [sessionStorage.getItem('vidx.key'), localStorage.getItem('vidx.key')])).toEqual([ADMIN_KEY, null]);
  });

  it('creates a collection', async () => {
    // With no collection yet the form is open, and a name is all it needs: the identifier is made from it.
    await page.getByLabel('Name', { exact: true }).fill('Holidays');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(new RegExp(`#/c/${COLLECTION}$`));
    await page.getByRole('navigation').getByRole('link', { name: 'Collections' }).click();
    await page.getByRole('link', { name: 'Holidays' }).waitFor();
    const { body } = await s.call('GET', `/collections/${COLLECTION}`);
    expect(body).toMatchObject({ collection_id: COLLECTION, name: 'Holidays', is_public: false });
    // Rename, then publish (this key is an admin's) and back.
    await page.getByRole('button', { name: 'Rename: Holidays' }).click();
    await page.locator(`#rn-${COLLECTION}`).fill('Summer holidays');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('link', { name: 'Summer holidays' }).waitFor();
    await page.getByRole('button', { name: 'Make public' }).click();
    await expect.poll(async () => (await s.call('GET', `/collections/${COLLECTION}`)).body, UI).toMatchObject({ name: 'Summer holidays', is_public: true });
    await page.getByRole('button', { name: 'Make private' }).click();
    await expect.poll(async () => (await s.call('GET', `/collections/${COLLECTION}`)).body.is_public, UI).toBe(false);
    await page.getByRole('button', { name: 'Rename: Summer holidays' }).click();
    await page.locator(`#rn-${COLLECTION}`).fill('Holidays');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('link', { name: 'Holidays', exact: true }).waitFor();
    await screenshot(page, 'collections');
    expect(await unlabelled(page)).toEqual([]);
  });

  it('uploads a video by drag and drop and follows it until indexed', async () => {
    await page.getByRole('link', { name: 'Add videos' }).click();
    await page.getByRole('heading', { name: 'Add videos' }).waitFor();
    await page.getByLabel('Collection', { exact: true }).selectOption(COLLECTION);
    const bytes = readFileSync(corpus.slides.path).toString('base64');
    const transfer = await page.evaluateHandle((b64) => {
      const bin = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bin], 'beach-day.mp4', { type: 'video/mp4' }));
      return dt;
    }, bytes);
    await page.dispatchEvent('#drop', 'drop', { dataTransfer: transfer });
    const row = page.locator('[data-upload="beach-day.mp4"]');
    await row.waitFor();
    // The file chooser (keyboard users) takes a file that is not media: its task fails.
    await page.setInputFiles('#files', { name: 'broken.mp4', mimeType: 'video/mp4', buffer: Buffer.from('this is not a video') });
    await expect.poll(() => row.locator('[data-state]').textContent(), { timeout: 120_000, interval: 500 }).toBe('indexed');
    await expect.poll(() => page.locator('[data-upload="broken.mp4"] [data-state]').textContent(), { timeout: 60_000, interval: 500 }).toMatch(/^failed/);
    await row.getByRole('link', { name: 'Play: beach-day.mp4' }).waitFor();
    await screenshot(page, 'add');
    expect(await unlabelled(page)).toEqual([]);
    const { body } = await s.call('GET', `/collections/${COLLECTION}/items`);
    expect(body.items).toHaveLength(1);
    expect(body.items[0]).toMatchObject({ type: 'video', title: 'beach-day' });
  });

  it('lists tasks with their state; offers Retry only where a retry may help; deletes one', async () => {
    // A download from a port nobody listens on: it may pass later, so it can be retried.
    const unreachable = await s.call('POST', '/index', { form: { collection: COLLECTION, video: { url: 'http://127.0.0.1:9/later.mp4', media_id: 'later' } } });
    await expect.poll(async () => (await s.call('GET', `/tasks/${unreachable.body.task_id}`)).body.status, { timeout: 60_000 }).toBe('failed');
    await page.getByRole('navigation').getByRole('link', { name: 'Tasks' }).click();
    await page.getByRole('heading', { name: 'Tasks' }).waitFor();
    const failed = page.locator('.task.failed');
    await expect.poll(() => failed.count(), UI).toBe(2);
    await expect.poll(() => page.locator('.task.completed').count(), UI).toBe(1);
    await screenshot(page, 'tasks');
    expect(await unlabelled(page)).toEqual([]);
    // The upload that is not a video: retrying cannot help, so no Retry is offered.
    const broken = failed.filter({ hasText: 'broken.mp4' });
    expect(await broken.getByRole('button', { name: /^Retry/ }).count()).toBe(0);
    const id = unreachable.body.task_id as string;
    await page.locator(`[data-task="${id}"]`).getByRole('button', { name: /^Retry/ }).click();
    // Back in the queue, then failed again (nobody listens yet).
    await expect.poll(async () => (await s.call('GET', `/tasks/${id}`)).body.attempts, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
    await expect.poll(async () => (await s.call('GET', `/tasks/${id}`)).body.status, { timeout: 60_000 }).toBe('failed');
    await page.locator(`[data-task="${id}"]`).getByRole('button', { name: /^Delete/ }).click();
    // An in-page confirmation that says what happens.
    await page.getByRole('dialog').getByText('Only the task is deleted').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(async () => (await s.call('GET', `/tasks/${id}`)).status, { timeout: 30_000 }).toBe(404);
    await expect.poll(() => page.locator(`[data-task="${id}"]`).count(), UI).toBe(0);
  });

  it('shows the collection as a grid with title, type and duration', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Collections' }).click();
    await page.getByRole('link', { name: 'Holidays', exact: true }).click();
    const card = page.locator('.item', { hasText: 'beach-day' });
    await card.waitFor();
    await expect.poll(() => card.textContent(), UI).toMatch(/video/);
    expect(await card.locator('.badge').textContent()).toBe('0:24');
    await expect.poll(() => card.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), UI).toBe(true);
    await screenshot(page, 'items');
  });

  it('searches with the keyboard and plays the moment at start_time', async () => {
    const { body } = await s.call('POST', '/search', { form: { query: 'goalkeeper', collection: COLLECTION } });
    const expected = body.results[0].start_time as number;
    expect(expected).toBeGreaterThan(4);

    await page.getByRole('navigation').getByRole('link', { name: 'Search' }).click();
    const box = page.getByRole('searchbox');
    await box.fill('goalkeeper');
    await box.press('Enter');
    const first = page.locator('[data-result]').first();
    await first.waitFor();
    expect(await first.locator('mark').first().textContent()).toMatch(/^goalkeeper/i);
    expect(await first.textContent()).toContain('beach-day');
    await screenshot(page, 'search');
    expect(await unlabelled(page)).toEqual([]);
    // Arrow down from the search box to the first moment, Enter opens it.
    await box.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-result'))).toBe(true);
    await page.keyboard.press('Enter');
    await page.locator('video').waitFor();
    expect(page.url()).toContain(`?t=${Math.round(expected * 10) / 10}`);
    const at = await waitForPlayerAt(page, expected);
    expect(Math.abs(at - expected)).toBeLessThan(1);
  });

  it('player: a transcript click seeks, the current line follows, chapters are marked', async () => {
    const lines = page.locator('.transcript .line');
    await expect.poll(() => lines.count(), UI).toBeGreaterThanOrEqual(corpus.slides.subtitles.cues.length);
    const cue = corpus.slides.subtitles.cues[0];
    const line = lines.filter({ hasText: cue.text.slice(0, 20) }).first();
    await line.click();
    const at = await waitForPlayerAt(page, cue.start);
    expect(Math.abs(at - cue.start)).toBeLessThan(1);
    await page.evaluate(() => document.querySelector('video')?.pause());
    await expect.poll(() => page.locator('.transcript [aria-current="true"]').textContent(), UI).toContain(cue.text.slice(0, 20));
    expect(await page.locator('.timeline .mark').count()).toBeGreaterThanOrEqual(2);
    expect(await page.locator('.chapters .line').count()).toBe(await page.locator('.timeline .mark').count());
    // A chapter mark seeks too.
    const second = page.locator('.timeline .mark').nth(1);
    await second.click();
    await page.evaluate(() => document.querySelector('video')?.pause());
    expect((await player(page))!.time).toBeGreaterThan(cue.start + 1);
    await screenshot(page, 'player');
    expect(await unlabelled(page)).toEqual([]);
  });

  it('explore: suggestions to click and clusters drawn as they stream', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Explore' }).click();
    const suggestion = page.locator('.chips button').first();
    await suggestion.waitFor({ timeout: 30_000 });
    await suggestion.click();
    await page.locator('.cluster').first().waitFor({ timeout: 30_000 });
    expect(await page.locator('.cluster [data-result]').count()).toBeGreaterThan(0);
    await screenshot(page, 'explore');
    expect(await unlabelled(page)).toEqual([]);
  });

  it('opens a deep link to a moment in a new tab and plays from there', async () => {
    const { body } = await s.call('GET', `/collections/${COLLECTION}/items`);
    const mediaId = body.items[0].media_id as string;
    const other = await keyedPage(browser, { width: 1024, height: 760 }, ADMIN_KEY);
    try {
      await other.page.goto(`${s.url}/#/c/${COLLECTION}/play/${mediaId}?t=17`);
      const at = await waitForPlayerAt(other.page, 17);
      expect(Math.abs(at - 17)).toBeLessThan(1);
      expect(await other.page.getByRole('heading', { name: 'beach-day' }).count()).toBe(1);
      expect(other.errors).toEqual([]);
      expect([...other.origins]).toEqual([s.url]);
    } finally {
      await other.context.close();
    }
  });

  it('a user key: remembered sign-in, no admin controls, searches and plays a public collection of another owner', async () => {
    expect((await s.call('PUT', `/collections/${COLLECTION}`, { json: { is_public: true } })).status).toBe(200);
    const userKey = await s.newKey('user');
    const other = await watchedPage(browser, { width: 1024, height: 760 });
    try {
      const p = other.page;
      await p.goto(`${s.url}/`);
      await p.getByLabel('API key').fill(userKey);
      await p.getByLabel('Remember on this device').check();
      await p.getByRole('button', { name: 'Sign in' }).click();
      await p.getByRole('heading', { name: 'Public collections' }).waitFor();
      expect(await p.evaluate(() => [sessionStorage.getItem('vidx.key'), localStorage.getItem('vidx.key')])).toEqual([null, expect.any(String)]);
      const card = p.locator('.collection', { hasText: 'Holidays' });
      expect(await card.getByRole('button').count()).toBe(0); // no rename, publish or delete for someone else's
      await p.getByText('New collection').click();
      expect(await p.getByLabel('Public', { exact: true }).count()).toBe(0);
      await card.getByRole('link', { name: 'Search' }).click();
      await p.getByRole('searchbox').fill('goalkeeper');
      await p.getByRole('searchbox').press('Enter');
      await p.locator('[data-result]').first().click();
      const at = await waitForPlayerAt(p, 9);
      expect(at).toBeGreaterThan(4);
      expect(p.url()).toContain('pub=1');
      expect(other.errors).toEqual([]);
      expect([...other.origins]).toEqual([s.url]);
    } finally {
      await other.context.close();
      await s.call('PUT', `/collections/${COLLECTION}`, { json: { is_public: false } });
    }
  });

  it('speaks German when switched, is usable at 360 px, and dark when the system is', async () => {
    await page.getByLabel('Language').selectOption('de');
    await page.getByRole('link', { name: 'Sammlungen' }).waitFor();
    await page.getByLabel('Sprache').selectOption('en');
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${s.url}/#/c/${COLLECTION}/search?q=apple`);
    await page.locator('[data-result]').first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'search-360');
    // Dark follows the system setting.
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await background()).not.toBe(light);
    await screenshot(page, 'search-360-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('adds a folder and follows its scan; search filters by type', async () => {
    const dir = join(s.mediaDir, 'trip');
    mkdirSync(dir, { recursive: true });
    copyFileSync(corpus.slides.path, join(dir, 'slides.mp4'));
    expect((await s.call('POST', '/collections', { json: { collection_id: 'archive', name: 'Archive' } })).status).toBe(201);
    await page.goto(`${s.url}/#/add?c=archive`);
    await page.getByLabel('Folder path on the server').fill(dir);
    await page.getByRole('button', { name: 'Add folder' }).click();
    const row = page.locator(`[data-folder="${realpathSync(dir)}"]`);
    await expect.poll(() => row.locator('[data-state]').textContent(), { timeout: 120_000, interval: 500 }).toBe('found 1 · added 1 · changed 0 · moved 0 · removed 0 · unchanged 0 · skipped 0 · failed 0');
    await screenshot(page, 'folders');
    expect(await unlabelled(page)).toEqual([]);
    await page.goto(`${s.url}/#/c/archive/search?q=goalkeeper`);
    await page.locator('[data-result]').first().waitFor();
    await page.getByLabel('Type', { exact: true }).selectOption('image');
    await expect.poll(() => page.locator('[data-result]').count(), UI).toBe(0);
    await page.getByLabel('Type', { exact: true }).selectOption('video');
    await page.locator('[data-result]').first().waitFor();
    // The file was copied just now: nothing was taken before 2000, and the result shows its capture date.
    expect(await page.locator('[data-result] time').count()).toBe(1);
    await page.getByLabel('Taken before').fill('2000-01-01');
    await expect.poll(() => page.locator('[data-result]').count(), UI).toBe(0);
    await page.getByLabel('Taken before').fill('');
    await page.locator('[data-result]').first().waitFor();
    await screenshot(page, 'search-filters');
    await page.goto(`${s.url}/#/c/archive`);
    await expect.poll(() => page.locator('.item time').count(), UI).toBe(1);
  });

  it('deletes an item after an in-page confirmation, signs out; no console error and no other host on the way', async () => {
    await page.goto(`${s.url}/#/c/${COLLECTION}`);
    await page.getByRole('button', { name: 'Delete: beach-day' }).click();
    // The in-page confirmation names the item and what happens to the files.
    const dialog = page.getByRole('dialog', { name: 'Delete “beach-day”?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('the copy kept of an uploaded file is removed');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(async () => (await s.call('GET', `/collections/${COLLECTION}/items`)).body.items.length, UI).toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('vidx.key'))).toBeNull();
    expect(w.errors).toEqual([]);
    expect([...w.origins]).toEqual([s.url]);
  });
});
