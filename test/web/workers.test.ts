/**
 * Issue 27 in a real browser (Debian chromium through playwright-core): the Tasks view shows an admin the
 * job queue's workers (busy or idle, last heard), each task the worker it ran on, and a warning while
 * Redis is away; in English and German, every control labelled, no console error, no other host.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { makeVideo } from '../support/folder-media.js';
import { launchBrowser, screenshot, unlabelled, watchedPage, type WatchedPage, signIn } from '../support/browser.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { ADMIN_KEY, settledTask, startTestServer, type TestServer } from '../support/server.js';
import { spawnWorker, type TestWorker } from '../support/worker.js';

const UI = { timeout: 20_000, interval: 100 };

let redis: TestRedis;
let s: TestServer;
let worker: TestWorker;
let browser: Browser;
let w: WatchedPage;
let page: Page;

beforeAll(async () => {
  await buildWeb({ ifStale: true });
  redis = await startRedis();
  s = await startTestServer({ queryEmbedder: null, env: { VIDX_QUEUE_URL: redis.url, VIDX_LOCAL_WORKERS: '0' } });
  await makeVideo(join(s.mediaDir, 'Garten.mp4'), 'Gartenfest');
  await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } });
  const key = (await s.call('POST', '/keys', { json: { name: 'desk', role: 'worker' } })).body.key as string;
  worker = await spawnWorker({ server: s.url, queue: redis.url, key, id: 'desk' });
  browser = await launchBrowser();
  w = await watchedPage(browser, { width: 1280, height: 860 });
  page = w.page;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await s?.close();
  await redis?.stop();
});

describe('workers on the Tasks view', () => {
  it('lists the workers and names the worker of each task', async () => {
    await signIn(page, s.url, ADMIN_KEY);
    await page.goto(`${s.url}/#/tasks`);
    await page.getByRole('heading', { name: 'Workers' }).waitFor();
    const desk = page.locator('li[data-worker="desk"]');
    await expect.poll(() => desk.textContent(), UI).toContain('idle, takes 1 at once');
    expect(await desk.textContent()).toContain('last seen');

    const r = await s.call('POST', '/index', { json: { collection: 'home', video: { path: join(s.mediaDir, 'Garten.mp4') } } });
    expect((await settledTask(s, r.body.task_id)).status).toBe('completed');
    const card = page.locator(`li[data-task="${r.body.task_id}"]`);
    await expect.poll(() => card.locator('[data-worker]').textContent(), UI).toBe('on desk');
    await expect.poll(() => card.getAttribute('class'), UI).toContain('completed');
    await screenshot(page, 'tasks-workers');
    expect(await unlabelled(page)).toEqual([]);
  });

  it('warns while the job queue is away, in German too', async () => {
    await redis.kill();
    const alert = page.locator('section.workers [role="alert"]');
    await expect.poll(async () => (await alert.count()) > 0 && (await alert.textContent()), UI).toContain('cannot be reached');
    await page.getByLabel('Language').selectOption('de');
    await page.getByRole('heading', { name: 'Aufgaben' }).waitFor();
    await expect.poll(async () => (await alert.count()) > 0 && (await alert.textContent()), UI).toContain('nicht erreichbar');
    await redis.restart();
    await expect.poll(() => page.locator('section.workers[data-queue="up"]').count(), UI).toBe(1);
    await expect.poll(() => page.locator('li[data-worker="desk"]').textContent(), UI).toContain('frei');
    expect(w.errors).toEqual([]);
    expect([...w.origins]).toEqual([new URL(s.url).origin]);
  });
});
