/**
 * Search by picture, "more like this" and duplicates in a real browser (Debian chromium through
 * playwright-core) against a real vidx with lavfi videos, a re-encoded copy and skimage photos indexed from
 * folders: a picture picked with the button, dropped on the search box (all collections) and pasted finds its
 * moment first; the hint says fingerprints; More like this from a result and from the player; the Duplicates
 * view keeps the original and deletes the copy after the in-page confirmation (its file stays on disk), then
 * says what it looks for; German at 360 px and dark; labels, console errors, other hosts.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { launchBrowser, screenshot, unlabelled, keyedPage, type WatchedPage } from '../support/browser.js';
import { copyVideo, lavfiVideo, photo, screenshot as frameShot } from '../support/picture-media.js';
import { ADMIN_KEY, settledTask, startTestServer, type TestServer } from '../support/server.js';
import { indexedFolder, type ListedItem } from '../support/web-media.js';

const UI = { timeout: 15_000, interval: 100 };
const C = 'home';

let s: TestServer;
let browser: Browser;
let w: WatchedPage;
let page: Page;
let dir: string;
let queries: string;
let items: Map<string, ListedItem>;

const results = () => page.locator('[data-result] strong').allTextContents();
const noOverflow = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
const loaded = (img: Locator) => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0);

/** A DataTransfer in the page holding one file, as a drop or a paste brings it. */
function transfer(file: string, name: string, type = 'image/jpeg') {
  return page.evaluateHandle(({ b64, name, type }) => {
    const dt = new DataTransfer();
    dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name, { type }));
    return dt;
  }, { b64: readFileSync(file).toString('base64'), name, type });
}

/** Pastes a file into the search box the way a browser does (a paste event carrying it). */
async function paste(file: string, name: string, type = 'image/jpeg') {
  const dt = await transfer(file, name, type);
  await page.evaluate((data) => {
    document.getElementById('q')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, dt);
}

beforeAll(async () => {
  await buildWeb({ ifStale: true });
  queries = mkdtempSync(join(tmpdir(), 'vidx-web-picture-'));
  s = await startTestServer({ queryEmbedder: null });
  ({ dir, items } = await indexedFolder(s, C, async (d) => {
    await Promise.all([lavfiVideo(join(d, 'mandelbrot.mp4'), 'mandelbrot', 8), lavfiVideo(join(d, 'testsrc.mp4'), 'testsrc2', 8)]);
    await Promise.all([
      copyVideo(join(d, 'mandelbrot.mp4'), join(d, 'mandelbrot-small.mp4'), { width: 320, crf: 35 }),
      photo('astronaut.png', join(d, 'astronaut.jpg')),
      photo('coffee.png', join(d, 'coffee.jpg')),
      frameShot(join(d, 'testsrc.mp4'), 5, join(queries, 'testsrc-shot.jpg'), 300),
      frameShot(join(d, 'mandelbrot.mp4'), 4, join(queries, 'mandelbrot-shot.jpg'), 300),
      photo('astronaut.png', join(queries, 'astronaut-small.jpg'), { width: 200, quality: 40 }),
    ]);
    writeFileSync(join(queries, 'notes.txt'), 'not a picture');
  }));
  expect(items.size).toBe(5);
  // Two uploads of the original: a re-encode it holds whole (offered for deletion, the only stored copy), and
  // a sharper trim of it (more pixels than the kept one: kept too).
  await Promise.all([
    copyVideo(join(dir, 'mandelbrot.mp4'), join(queries, 'mandelbrot-upload.mp4'), { width: 320, crf: 30 }),
    copyVideo(join(dir, 'mandelbrot.mp4'), join(queries, 'mandelbrot-hd-part.mp4'), { width: 1280, from: 2, to: 6 }),
  ]);
  for (const name of ['mandelbrot-upload.mp4', 'mandelbrot-hd-part.mp4']) {
    const fd = new FormData();
    fd.append('body', JSON.stringify({ collection: C, video: { content: name, media_id: name.replace('.mp4', '') } }));
    fd.append('file', new Blob([new Uint8Array(readFileSync(join(queries, name)))]), name);
    const r = await fetch(`${s.url}/index`, { method: 'POST', headers: { 'x-api-key': ADMIN_KEY }, body: fd });
    expect(r.status).toBe(202);
    expect((await settledTask(s, ((await r.json()) as { task_id: string }).task_id)).status).toBe('completed');
  }
  // A second collection, so "All collections" fans out.
  await indexedFolder(s, 'garden', (d) => lavfiVideo(join(d, 'life.mp4'), 'life', 6));
  browser = await launchBrowser();
  w = await keyedPage(browser, { width: 1280, height: 800 }, ADMIN_KEY);
  page = w.page;
}, 400_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
  rmSync(queries, { recursive: true, force: true });
});

describe('search by picture', () => {
  it('picks a picture with the labelled button: a chip with its preview, the frame it shows first', async () => {
    await page.goto(`${s.url}/#/c/${C}/search`);
    const hint = page.locator('#picture-hint');
    await expect.poll(() => hint.getAttribute('data-picture-search'), UI).toBe('fingerprints');
    expect(await hint.textContent()).toContain('matched by fingerprint');
    await page.getByLabel('Search by picture').setInputFiles(join(queries, 'testsrc-shot.jpg'));
    const chip = page.locator('[data-probe=picture]');
    await chip.waitFor();
    await expect.poll(() => loaded(chip.locator('img')), UI).toBe(true);
    expect(await chip.textContent()).toContain('testsrc-shot.jpg');
    await expect.poll(async () => (await results())[0], UI).toBe('testsrc');
    expect(await page.locator('[data-picture-heading]').textContent()).toBe('Moments that look like “testsrc-shot.jpg”');
    expect(page.url()).toMatch(/[?&]img=/);
    // The keyboard reaches the button (a focusable input drawn as its label) right after the chip's remove button.
    await page.getByRole('button', { name: 'Remove the picture testsrc-shot.jpg' }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('picture');
    await screenshot(page, 'picture-search');
    expect(await unlabelled(page)).toEqual([]);
    // Removed: nothing left to search for.
    await page.getByRole('button', { name: 'Remove the picture testsrc-shot.jpg' }).click();
    await expect.poll(() => chip.count(), UI).toBe(0);
    // The results clear in the render after the chip's (the search effect sees the empty probe then).
    await expect.poll(() => page.locator('[data-result]').count(), UI).toBe(0);
    expect(page.url()).not.toMatch(/img=/);
  });

  it('takes a picture dropped on the search box over all collections, naming the collection of each moment', async () => {
    await page.goto(`${s.url}/#/search`);
    const form = page.locator('form[role=search]');
    await form.waitFor();
    const dt = await transfer(join(queries, 'astronaut-small.jpg'), 'astronaut-small.jpg');
    await form.dispatchEvent('dragover', { dataTransfer: dt });
    expect(await form.getAttribute('class')).toContain('over');
    await form.dispatchEvent('drop', { dataTransfer: dt });
    await expect.poll(async () => (await results())[0], UI).toBe('astronaut');
    expect(await page.locator('[data-result]').first().textContent()).toContain('in home');
    expect(await page.locator('[role=status]', { hasText: 'moment' }).count()).toBeGreaterThan(0);
  });

  it('takes a pasted picture and fuses typed words with it; refuses a file that is no picture', async () => {
    await page.goto(`${s.url}/#/c/${C}/search`);
    await page.getByRole('searchbox').waitFor();
    await paste(join(queries, 'testsrc-shot.jpg'), 'image.jpg');
    await expect.poll(async () => (await results())[0], UI).toBe('testsrc');
    await page.getByRole('searchbox').fill('testsrc');
    await page.getByRole('searchbox').press('Enter');
    await expect.poll(() => page.url(), UI).toMatch(/q=testsrc.*img=|img=.*q=testsrc/);
    await expect.poll(async () => (await results())[0], UI).toBe('testsrc');
    expect(await page.locator('[data-probe=picture]').count()).toBe(1);
    await paste(join(queries, 'notes.txt'), 'notes.txt', 'text/plain');
    await expect.poll(() => page.locator('main [role=alert]').textContent(), UI).toContain('“notes.txt” is not a picture vidx can search by');
  });
});

describe('more like this', () => {
  it('runs from a result, with a heading that names the moment', async () => {
    await page.goto(`${s.url}/#/c/${C}/search`);
    await page.getByLabel('Search by picture').setInputFiles(join(queries, 'testsrc-shot.jpg'));
    await expect.poll(async () => (await results())[0], UI).toBe('testsrc');
    const first = page.locator('li.result').first();
    await first.getByRole('link', { name: /^More like this: “testsrc” at 0:0\d$/ }).click();
    const heading = page.locator('[data-like-heading]');
    await expect.poll(() => heading.textContent(), UI).toMatch(/^Moments like “testsrc” at 0:0\d$/);
    expect(await page.locator('[data-probe=like]').textContent()).toContain('testsrc');
    expect(await page.locator('[data-probe=picture]').count()).toBe(0);
    await expect.poll(() => page.locator('[role=status]', { hasText: /moment|Nothing/ }).count(), UI).toBeGreaterThan(0);
    // Never the moment itself.
    const hrefs = await page.locator('[data-result]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    const self = items.get('testsrc')!.media_id;
    const at = Number(new URL(page.url().replace('#/', '')).searchParams.get('at'));
    for (const h of hrefs.filter((x) => x.includes(`/play/${self}`))) expect(Math.abs(Number(new URLSearchParams(h.split('?')[1]).get('t')) - at)).toBeGreaterThan(1);
    expect(await unlabelled(page)).toEqual([]);
  });

  it('runs from the player at the current time, and finds the re-encoded copy first', async () => {
    const original = items.get('mandelbrot')!.media_id;
    await page.goto(`${s.url}/#/c/${C}/play/${original}?t=2`);
    await page.locator('video').waitFor();
    await page.evaluate(() => document.querySelector('video')?.pause());
    const more = page.locator('[data-more-like]');
    await more.waitFor();
    expect(await more.getAttribute('href')).toMatch(new RegExp(`like=${original}&at=\\d`));
    await more.click();
    await expect.poll(() => page.locator('[data-like-heading]').textContent(), UI).toMatch(/^Moments like “mandelbrot” at 0:0\d$/);
    await expect.poll(async () => (await results())[0], UI).toMatch(/^mandelbrot-(small|upload|hd-part)$/);
    await screenshot(page, 'more-like');
    // The moment's chip comes off: back to nothing to search.
    await page.getByRole('button', { name: /^Stop searching like “mandelbrot” at 0:0\d$/ }).click();
    await expect.poll(() => page.locator('[data-probe=like]').count(), UI).toBe(0);
  });
});

describe('copies in search', () => {
  it('shows a moment the original and its copies share once, as the original, saying how many copies have it', async () => {
    await page.goto(`${s.url}/#/c/${C}/search`);
    await page.getByLabel('Search by picture').setInputFiles(join(queries, 'mandelbrot-shot.jpg'));
    await expect.poll(async () => (await results())[0], UI).toBe('mandelbrot');
    expect(await results()).not.toContain('mandelbrot-small');
    const first = page.locator('li.result').first();
    expect(await first.locator('[data-copies]').textContent()).toMatch(/^also in [23] copies$/);
    await screenshot(page, 'search-copies');
  });
});

describe('duplicates', () => {
  it('shows the video and its copies side by side, the original marked Keep, Delete only where it holds the copy whole', async () => {
    await page.goto(`${s.url}/#/c/${C}`);
    await page.getByRole('link', { name: 'Duplicates' }).click();
    const group = page.locator('.dup-group');
    await group.first().waitFor();
    expect(await group.count()).toBe(1);
    expect(await group.getByRole('heading', { level: 3 }).textContent()).toMatch(/^4 copies · \d+ % alike$/);
    const copies = group.locator('.copy');
    // Best first: the whole original, the two full copies (by bitrate), the shorter part last.
    const titles = await copies.locator('h4').allTextContents();
    expect(titles[0]).toBe('mandelbrot');
    expect(titles.slice(1, 3).sort()).toEqual(['mandelbrot-small', 'mandelbrot-upload']);
    expect(titles[3]).toBe('mandelbrot-hd-part');
    const copy = (title: string) => copies.filter({ has: page.getByRole('heading', { name: title, exact: true }) });
    expect(await copies.first().getAttribute('class')).toContain('keep');
    expect(await copies.first().textContent()).toContain('Keep');
    expect(await copies.first().textContent()).toContain('640×360');
    expect(await copy('mandelbrot-small').textContent()).toContain('320×180');
    expect(await copy('mandelbrot-small').textContent()).toMatch(/Duration 0:0[78]/);
    expect(await copy('mandelbrot-small').textContent()).toMatch(/In the other copies \d+ %/);
    expect(await copies.first().getByRole('button').count()).toBe(0);
    // The sharper part has pixels the kept copy lacks: nothing offers to delete it.
    expect(await copy('mandelbrot-hd-part').getByRole('button').count()).toBe(0);
    expect(await copy('mandelbrot-hd-part').locator('[data-keep-too]').textContent()).toContain('Keep this one too');
    expect(await copy('mandelbrot-upload').getByRole('button', { name: 'Delete: mandelbrot-upload' }).count()).toBe(1);
    await expect.poll(() => loaded(copies.nth(1).locator('img')), UI).toBe(true);
    // Side by side: the first two cards share a row.
    const [a, b] = await copies.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top));
    expect(a).toBe(b);
    await screenshot(page, 'duplicates');
    expect(await unlabelled(page)).toEqual([]);
  });

  it('asks once more before it deletes the only stored copy of an upload', async () => {
    await page.goto(`${s.url}/#/c/${C}/duplicates`);
    await page.getByRole('button', { name: 'Delete: mandelbrot-upload' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => dialog.getByRole('heading').textContent(), UI).toBe('Delete the only copy of “mandelbrot-upload”?');
    expect(await dialog.textContent()).toContain('vidx holds the only copy of it');
    await screenshot(page, 'duplicates-only-copy');
    // Cancelled: the upload stays.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await s.call('GET', `/collections/${C}/items/mandelbrot-upload`)).status).toBe(200);
    await page.getByRole('button', { name: 'Delete: mandelbrot-upload' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    await expect.poll(async () => (await s.call('GET', `/collections/${C}/items/mandelbrot-upload`)).status, UI).toBe(404);
  });

  it('speaks German at 360 px without sideways scrolling, light and dark', async () => {
    await page.getByLabel('Language').selectOption('de');
    await page.setViewportSize({ width: 360, height: 740 });
    await page.getByRole('heading', { name: /^3 Kopien · \d+ % ähnlich$/ }).waitFor();
    await page.getByRole('button', { name: 'Löschen: mandelbrot-small' }).waitFor();
    expect(await noOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'duplicates-360-de');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'duplicates-360-dark');
    expect(await unlabelled(page)).toEqual([]);
    await page.goto(`${s.url}/#/c/${C}/search`);
    await page.getByLabel('Mit Bild suchen').setInputFiles(join(queries, 'testsrc-shot.jpg'));
    await expect.poll(async () => (await results())[0], UI).toBe('testsrc');
    await page.getByRole('link', { name: /^Ähnliches finden: „testsrc“ bei 0:0\d$/ }).first().waitFor();
    expect(await page.locator('#picture-hint').textContent()).toContain('erkannt am Fingerabdruck');
    expect(await noOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'picture-search-360-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await screenshot(page, 'picture-search-360-de');
    await page.locator('li.result').first().scrollIntoViewIfNeeded();
    await screenshot(page, 'picture-results-360-de');
    expect(await unlabelled(page)).toEqual([]);
    await page.getByLabel('Sprache').selectOption('en');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('deletes the copy after the in-page confirmation; its file stays; then says what it looks for', async () => {
    await page.goto(`${s.url}/#/c/${C}/duplicates`);
    await page.getByRole('button', { name: 'Delete: mandelbrot-small' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.getByRole('heading').textContent()).toBe('Delete “mandelbrot-small”?');
    expect(await dialog.textContent()).toContain('“mandelbrot” stays');
    expect(await dialog.textContent()).toContain('keeps its file on disk');
    await screenshot(page, 'duplicates-delete');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.locator('.dup-group h3').textContent(), UI).toMatch(/^2 copies · /);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('dup-h');
    const left = (await s.call('GET', `/collections/${C}/items`)).body.items.map((i: ListedItem) => i.title);
    expect(left).not.toContain('mandelbrot-small');
    expect(left).toContain('mandelbrot');
    expect(existsSync(join(dir, 'mandelbrot-small.mp4'))).toBe(true);
    // The sharper part is the last copy left: once it goes (here through the API), the view says what it looks for.
    expect((await s.call('DELETE', `/collections/${C}/items/mandelbrot-hd-part`)).status).toBe(200);
    await page.reload();
    const empty = page.locator('[data-empty]');
    await expect.poll(() => empty.textContent(), UI).toContain('vidx looks for re-encoded, resized and trimmed copies');
    await screenshot(page, 'duplicates-empty');
    expect(w.errors).toEqual([]);
    expect([...w.origins]).toEqual([s.url]);
  });
});
