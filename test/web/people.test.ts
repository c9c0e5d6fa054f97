/**
 * The people view in a real browser (Debian chromium through playwright-core) against a real vidx with
 * faces on: two videos made from the skimage photos, BlazeFace and the generated SFace stand-in from the
 * loopback hub. Turn faces on, see each person once, name one, open their moments and play one; merge and
 * delete; every control labelled, no console error, no other host.
 */
import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { facesSetup } from '../faces/setup.js';
import { makeShotsVideo } from '../faces/videos.js';
import { launchBrowser, screenshot, unlabelled, watchedPage, type WatchedPage, signIn } from '../support/browser.js';
import type { FakeHub } from '../support/fake-hub.js';
import { ADMIN_KEY, settledTask, startTestServer, type TestServer } from '../support/server.js';

const UI = { timeout: 15_000, interval: 100 };

let tmp: string;
let hub: FakeHub;
let s: TestServer;
let browser: Browser;
let w: WatchedPage;
let page: Page;
let family: string;
let again: string;

beforeAll(async () => {
  await buildWeb({ ifStale: true });
  const f = await facesSetup('web-people-');
  ({ tmp, hub } = f);
  const media = f.media;
  family = await makeShotsVideo(media, 'family.mp4', [
    { file: 'astronaut.png', scale: 0.9, x0: 100, x1: 260, y: 120, seconds: 6 },
    { file: 'camera.png', scale: 1, x0: 600, x1: 500, y: 100, seconds: 6 },
  ]);
  again = await makeShotsVideo(media, 'again.mp4', [
    { file: 'camera.png', scale: 0.8, x0: 200, x1: 260, y: 200, seconds: 5 },
    { file: 'astronaut.png', scale: 1.2, x0: 500, x1: 420, y: 50, seconds: 5 },
  ]);
  s = await startTestServer({ dataDir: f.dataDir, queryEmbedder: null, env: f.env });
  expect((await s.call('POST', '/collections', { json: { collection_id: 'fam', name: 'Family' } })).status).toBe(201);
  browser = await launchBrowser();
  w = await watchedPage(browser, { width: 1280, height: 860 });
  page = w.page;
  page.on('dialog', (d) => void d.accept());
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
  await hub?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function index(path: string, mediaId: string): Promise<void> {
  const r = await s.call('POST', '/index', { form: { collection: 'fam', video: { path, media_id: mediaId } } });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  const task = await settledTask(s, r.body.task_id);
  expect(task.status, task.error?.message).toBe('completed');
}

const cards = () => page.locator('li.person');

describe('people view', () => {
  it('turns faces on from the page, with what it means', async () => {
    await signIn(page, s.url, ADMIN_KEY);
    await page.goto(`${s.url}/#/c/fam/people`);
    const toggle = page.getByLabel('Find faces in this collection');
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(false);
    await expect.poll(() => page.getByText('Faces are biometric data', { exact: false }).count(), UI).toBe(1);
    await toggle.check();
    await expect.poll(async () => (await s.call('GET', '/collections/fam/people')).body.faces, UI).toBe(true);
  });

  it('shows each person once after indexing, names one and plays their moments', async () => {
    await index(family, 'family');
    await index(again, 'again');
    await page.reload();
    await expect.poll(() => cards().count(), UI).toBe(2);
    for (const text of await cards().locator('p.muted').allTextContents()) expect(text).toBe('2 faces · 2 videos');
    const first = cards().first();
    const personId = await first.getAttribute('data-person');
    await first.getByLabel('Name of this person').fill('Eileen Collins');
    await first.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await s.call('GET', '/collections/fam/people')).body.people.find((p: { person_id: string }) => p.person_id === personId)?.name, UI).toBe('Eileen Collins');
    await page.getByRole('heading', { name: 'Eileen Collins' }).waitFor();
    await screenshot(page, 'people');
    expect(await unlabelled(page)).toEqual([]);
    // A phone's width: the cards stack and every control stays reachable.
    await page.setViewportSize({ width: 360, height: 780 });
    await screenshot(page, 'people-360');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.setViewportSize({ width: 1280, height: 860 });

    // Search results show the people of each moment as chips.
    await page.goto(`${s.url}/#/c/fam/search?q=${encodeURIComponent('Eileen Collins')}`);
    await expect.poll(() => page.locator('a.moment .chip', { hasText: 'Eileen Collins' }).count(), UI).toBeGreaterThan(0);
    await page.goto(`${s.url}/#/c/fam/people`);
    await page.getByRole('link', { name: 'Eileen Collins' }).click();
    await page.getByRole('heading', { name: 'Moments of Eileen Collins' }).waitFor();
    const moments = page.locator('a.moment');
    await expect.poll(() => moments.count(), UI).toBe(2);
    const links = await moments.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(new Set(links.map((l) => /play\/([^?]+)/.exec(l ?? '')?.[1]))).toEqual(new Set(['family', 'again']));
    await moments.first().click();
    await page.waitForFunction(() => !!document.querySelector('video'), undefined, { timeout: 20_000 });
    expect(page.url()).toMatch(/#\/c\/fam\/play\/(family|again)\?t=/);
  });

  it('merges two people into one and deletes a person, then turns faces off', async () => {
    await page.goto(`${s.url}/#/c/fam/people`);
    await expect.poll(() => cards().count(), UI).toBe(2);
    const unnamed = cards().filter({ has: page.getByRole('heading', { name: 'Unnamed' }) }).first();
    await unnamed.getByLabel('Same person as…').selectOption({ label: 'Eileen Collins' });
    await unnamed.getByRole('button', { name: 'Merge' }).click();
    await expect.poll(() => cards().count(), UI).toBe(1);
    expect(await cards().first().locator('p.muted').textContent()).toBe('4 faces · 2 videos');
    await cards().first().getByRole('button', { name: 'Delete: Eileen Collins' }).click();
    // In-page confirmations that say what happens.
    await page.getByRole('dialog').getByText('The videos stay.').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => cards().count(), UI).toBe(0);
    await page.getByLabel('Find faces in this collection').uncheck();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(async () => (await s.call('GET', '/collections/fam/people')).body.faces, UI).toBe(false);
    expect(w.errors).toEqual([]);
    expect([...w.origins]).toEqual([new URL(s.url).origin]);
  });
});
