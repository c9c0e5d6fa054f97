/**
 * The grid of a collection in a real browser (Debian chromium through playwright-core) against a real vidx
 * with real indexed media (videos, a photo, a voice memo from a folder): sort orders, the type filter and the
 * count; selecting by keyboard, re-index with a link to Tasks, deleting many through the in-page dialog
 * (the folder's files stay on disk); German at 360 px and dark; labels, console, hosts; one task poller for
 * the whole page.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { IDLE_MS } from '../../web/src/tasks-store.js';
import { launchBrowser, screenshot, unlabelled, keyedPage, type WatchedPage } from '../support/browser.js';
import { makePhoto, makeSpeech, makeVideo } from '../support/folder-media.js';
import { ADMIN_KEY, settledTask, startTestServer, type TestServer } from '../support/server.js';
import { indexedFolder, type ListedItem } from '../support/web-media.js';

const UI = { timeout: 15_000, interval: 100 };
const C = 'fruit';

let s: TestServer;
let browser: Browser;
let w: WatchedPage;
let page: Page;
let dir: string;
let items: Map<string, ListedItem>;

/** The titles of the grid's cards, in order. */
const titles = () => page.locator('.item h3').allTextContents();
const count = () => page.locator('[data-count]').textContent();

beforeAll(async () => {
  await buildWeb({ ifStale: true });
  s = await startTestServer({ queryEmbedder: null });
  ({ dir, items } = await indexedFolder(s, C, async (d) => {
    await makeVideo(join(d, 'apple.mp4'), 'Apple', 3, { creation_time: '2021-06-01T10:00:00Z' });
    await makeVideo(join(d, 'cherry.mp4'), 'Cherry', 5, { creation_time: '2019-03-01T10:00:00Z' }, 'darkred');
    await makeVideo(join(d, 'banana.mp4'), 'Banana', 2, { creation_time: '2023-01-01T10:00:00Z' }, 'darkgreen');
    await makePhoto(join(d, 'plum.jpg'), 'PLUM', { dateTimeOriginal: '2018:07:14 09:30:00' });
    await makeSpeech(join(d, 'memo.m4a'), 'Buy apples, bananas and cherries');
  }));
  expect(items.size).toBe(5);
  browser = await launchBrowser();
  w = await keyedPage(browser, { width: 1280, height: 800 }, ADMIN_KEY);
  page = w.page;
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('grid', () => {
  it('counts the items and sorts them on the server by name, duration and capture date', async () => {
    await page.goto(`${s.url}/#/c/${C}`);
    await expect.poll(count, UI).toBe('5 items');
    await page.getByLabel('Sort by').selectOption('name');
    await expect.poll(titles, UI).toEqual(['apple', 'banana', 'cherry', 'memo', 'plum']);
    await page.getByLabel('Order', { exact: true }).selectOption({ label: 'Z to A' });
    await expect.poll(titles, UI).toEqual(['plum', 'memo', 'cherry', 'banana', 'apple']);
    // Only the videos: by length, longest first (the natural order of that sort), then by date taken.
    await page.getByLabel('Show', { exact: true }).selectOption({ label: 'Videos' });
    await expect.poll(count, UI).toBe('3 items');
    await page.getByLabel('Sort by').selectOption('duration');
    expect(await page.getByLabel('Order', { exact: true }).inputValue()).toBe('desc');
    await expect.poll(titles, UI).toEqual(['cherry', 'apple', 'banana']);
    await page.getByLabel('Sort by').selectOption('captured');
    await expect.poll(titles, UI).toEqual(['banana', 'apple', 'cherry']);
    await page.getByLabel('Order', { exact: true }).selectOption({ label: 'Oldest first' });
    await expect.poll(titles, UI).toEqual(['cherry', 'apple', 'banana']);
    // Pictures: the photo alone, with no duration badge.
    await page.getByLabel('Show', { exact: true }).selectOption({ label: 'Pictures' });
    await expect.poll(count, UI).toBe('1 item');
    expect(await titles()).toEqual(['plum']);
    expect(await page.locator('.item .badge').count()).toBe(0);
    // The choice survives a visit to the player and back.
    await page.getByRole('link', { name: 'plum' }).click();
    await page.locator('.photo-frame').waitFor();
    await page.goBack();
    await expect.poll(count, UI).toBe('1 item');
    await page.getByLabel('Show', { exact: true }).selectOption({ label: 'Everything' });
    await page.getByLabel('Sort by').selectOption('name');
    await expect.poll(titles, UI).toEqual(['apple', 'banana', 'cherry', 'memo', 'plum']);
    await screenshot(page, 'items-grid');
    expect(await unlabelled(page)).toEqual([]);
  });

  it('selects with the keyboard and re-indexes the selection, with a link to Tasks', async () => {
    const all = page.getByLabel('Select all shown (5)');
    await all.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => page.locator('.selection').textContent(), UI).toContain('5 selected');
    await page.keyboard.press('Space');
    expect(await page.locator('.item.selected').count()).toBe(0);
    await page.getByLabel('Select apple').focus();
    await page.keyboard.press('Space');
    // Tab goes from apple's box to its title link and Delete button, then to banana's box.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).labels?.[0]?.textContent)).toBe('Select banana');
    await page.keyboard.press('Space');
    await expect.poll(() => page.locator('.selection').textContent(), UI).toContain('2 selected');
    expect(await all.evaluate((el: HTMLInputElement) => el.indeterminate)).toBe(true);
    await screenshot(page, 'items-selected');
    await page.getByRole('button', { name: 'Re-index' }).click();
    const notice = page.locator('[data-queued]');
    await expect.poll(() => notice.textContent(), UI).toContain('Re-indexing 2 items was queued.');
    const { body } = await s.call('GET', '/tasks?kind=reindex');
    expect(body.tasks).toHaveLength(1);
    expect(new Set(body.tasks[0].data.media_ids)).toEqual(new Set([items.get('apple')!.media_id, items.get('banana')!.media_id]));
    const task = await settledTask(s, body.tasks[0].id);
    expect(task.status).toBe('completed');
    await notice.getByRole('link', { name: 'Follow it in Tasks' }).click();
    await page.getByRole('heading', { name: 'Tasks' }).waitFor();
  });

  it('deletes many after one in-page confirmation that says what happens to the files', async () => {
    await page.goto(`${s.url}/#/c/${C}`);
    await expect.poll(titles, UI).toEqual(['apple', 'banana', 'cherry', 'memo', 'plum']);
    await page.getByLabel('Select apple').check();
    await page.getByLabel('Select cherry').check();
    await page.getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.getByRole('heading').textContent()).toBe('Delete 2 items?');
    expect(await dialog.textContent()).toContain('Items indexed from a file or a folder keep their files on disk');
    await screenshot(page, 'items-delete');
    // The keyboard starts on Cancel; Tab to the named choice and Enter.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Delete 2 items');
    await page.keyboard.press('Enter');
    await expect.poll(titles, UI).toEqual(['banana', 'memo', 'plum']);
    // The keyboard goes on from the view's heading, not from the top of the page.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('items-h');
    await expect.poll(count, UI).toBe('3 items');
    const left = await s.call('GET', `/collections/${C}/items`);
    expect(left.body.items.map((i: ListedItem) => i.title).sort()).toEqual(['banana', 'memo', 'plum']);
    // Folder items: their files stay where they are.
    expect(existsSync(join(dir, 'apple.mp4'))).toBe(true);
    expect(existsSync(join(dir, 'cherry.mp4'))).toBe(true);
    // Cancel changes nothing.
    await page.getByRole('button', { name: 'Delete: memo' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(await titles()).toEqual(['banana', 'memo', 'plum']);
  });

  it('speaks German at 360 px without sideways scrolling, light and dark', async () => {
    await page.getByLabel('Language').selectOption('de');
    await page.setViewportSize({ width: 360, height: 740 });
    await expect.poll(count, UI).toBe('3 Einträge');
    await page.getByLabel('Sortieren nach').waitFor();
    await page.getByLabel('banana auswählen').check();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'items-360-de');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'items-360-dark');
    expect(await unlabelled(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByLabel('Sprache').selectOption('en');
    expect(w.errors).toEqual([]);
    expect([...w.origins]).toEqual([s.url]);
  });

  it('polls GET /tasks once for the whole page, however many parts of it show tasks', async () => {
    // Nothing open: the page's one poller asks at its idle period.
    await expect.poll(async () => (await s.call('GET', '/tasks')).body.tasks.some((x: { status: string }) => x.status === 'queued' || x.status === 'running'), UI).toBe(false);
    const asked: number[] = [];
    const onRequest = (r: Request) => {
      if (r.method() === 'GET' && new URL(r.url()).pathname === '/tasks') asked.push(Date.now());
    };
    // The Add view shows its uploads' tasks and, in its folder list, the folders' scans: two listeners.
    await page.goto(`${s.url}/#/add?c=${C}`);
    await page.getByRole('heading', { name: 'Add videos' }).waitFor();
    await page.getByLabel('Folder path on the server').waitFor();
    page.on('request', onRequest);
    const windowMs = 3 * IDLE_MS;
    await new Promise((r) => setTimeout(r, windowMs));
    page.off('request', onRequest);
    // One poller: about windowMs / IDLE_MS requests (two pollers would make twice as many).
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(asked.length).toBeLessThanOrEqual(windowMs / IDLE_MS + 1);
    for (let i = 1; i < asked.length; i++) expect(asked[i] - asked[i - 1]).toBeGreaterThan(IDLE_MS * 0.8);
  });
});
