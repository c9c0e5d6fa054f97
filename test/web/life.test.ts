/**
 * Issue 23 in a real browser (Debian chromium through playwright-core), walked as a new user would: the
 * first-run hint, collections from a name, search over every collection, the Models view, notices about
 * what is missing, failures shown where they happen, German throughout, in-page confirmations, notices that
 * close by themselves; at desktop width and at 360 px, with the keyboard.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { makeFixtureModels } from '../../scripts/make-fixture-models.js';
import { startFakeHub, type FakeHub } from '../support/fake-hub.js';
import { makeVideo } from '../support/folder-media.js';
import { launchBrowser, screenshot, unlabelled, watchedPage, type WatchedPage } from '../support/browser.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';

const UI = { timeout: 20_000, interval: 100 };

let tmp: string;
let hub: FakeHub;
let s: TestServer;
let key: string;
let browser: Browser;
let w: WatchedPage;
let page: Page;

beforeAll(async () => {
  await buildWeb({ ifStale: true });
  tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'web-life-'));
  const fixtures = await makeFixtureModels(join(tmp, 'hub'));
  hub = await startFakeHub({ root: fixtures.hubDir });
  // No admin key given: the server writes one to its data dir, as on a first start.
  s = await startTestServer({ noAdminKey: true, queryEmbedder: null, env: { VIDX_MODELS_MANIFEST: fixtures.manifestPath, VIDX_HUB_URL: hub.url } });
  key = readFileSync(join(s.dataDir, 'admin.key'), 'utf8').trim();
  await makeVideo(join(s.mediaDir, 'Kuchen.mp4'), 'Apfelkuchen');
  await makeVideo(join(s.mediaDir, 'Tomaten.mp4'), 'Apfelbaum', 2, {}, 'darkgreen');
  browser = await launchBrowser();
  w = await watchedPage(browser, { width: 1280, height: 860 });
  page = w.page;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
  await hub?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** A task's end, asked with this server's admin key (the one it wrote; the test helper's default key is not valid here). */
function settled(id: string) {
  return waitFor(async () => {
    const t = (await s.call('GET', `/tasks/${id}`, { key })).body;
    return t.status === 'completed' || t.status === 'failed' ? t : undefined;
  }, 120_000, `task ${id}`);
}

async function index(collection: string, file: string): Promise<void> {
  const r = await s.call('POST', '/index', { key, form: { collection, video: { path: join(s.mediaDir, file) } } });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  expect((await settled(r.body.task_id)).status).toBe('completed');
}

describe('the page a person lives in (issue 23)', () => {
  it('names this server’s admin key file on the sign-in page, then shows what to do first', async () => {
    await page.goto(`${s.url}/`);
    await page.getByText(join(s.dataDir, 'admin.key')).waitFor();
    await page.getByLabel('API key').fill(key);
    await page.getByLabel('API key').press('Enter');
    await page.getByText('No collections yet.').waitFor();
    await screenshot(page, 'life-empty');
  });

  it('creates collections from a name alone, with the keyboard; shows their names, not identifiers', async () => {
    const name = page.getByLabel('Name', { exact: true });
    await name.fill('Family videos');
    await name.press('Enter');
    await page.waitForURL(/#\/c\/family-videos$/);
    await page.getByText('Nothing here yet.').waitFor();
    // The same name again: the identifier goes on to -2.
    await page.getByRole('navigation').getByRole('link', { name: 'Collections' }).click();
    await page.getByText('New collection').click();
    await page.getByLabel('Name', { exact: true }).fill('Family videos');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/#\/c\/family-videos-2$/);
    expect((await s.call('GET', '/collections', { key })).body.collections.map((c: { collection_id: string }) => c.collection_id)).toEqual(['family-videos', 'family-videos-2']);
    await s.call('PUT', '/collections/family-videos-2', { key, json: { name: 'Garten' } });
    await index('family-videos', 'Kuchen.mp4');
    await index('family-videos-2', 'Tomaten.mp4');
    await page.goto(`${s.url}/#/add`);
    const options = () => page.getByLabel('Collection', { exact: true }).locator('option').allTextContents();
    await expect.poll(options, UI).toEqual(['—', 'Family videos', 'Garten']);
    expect(await unlabelled(page)).toEqual([]);
  }, 120_000);

  it('searches every collection at once, naming each result’s collection', async () => {
    await page.goto(`${s.url}/#/`);
    await page.getByRole('navigation').getByRole('link', { name: 'Search' }).click();
    await page.getByRole('heading', { name: 'Search · All collections' }).waitFor();
    await page.getByRole('searchbox').fill('Apfel');
    await page.getByRole('searchbox').press('Enter');
    await expect.poll(() => page.locator('[data-result]').count(), UI).toBe(2);
    const labels = (await page.locator('[data-result] [data-collection]').allTextContents()).sort();
    expect(labels).toEqual(['in Family videos', 'in Garten']);
    // The speech notice belongs to an item without a transcript (the player), not above every search.
    expect(await page.locator('[data-notice="no-speech"]').count()).toBe(0);
    await screenshot(page, 'search-all');
    // One collection from the select: only its moments.
    await page.getByLabel('Collection', { exact: true }).selectOption('family-videos-2');
    await page.getByRole('heading', { name: 'Search · Garten' }).waitFor();
    await expect.poll(() => page.locator('[data-result]').count(), UI).toBe(1);
  });

  it('installs speech recognition from the Models view with progress, and removes it after an in-page confirmation', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Models' }).click();
    const whisper = page.locator('[data-model="tiny-whisper"]');
    await expect.poll(() => whisper.getAttribute('data-state'), UI).toBe('missing');
    await screenshot(page, 'models');
    expect(await unlabelled(page)).toEqual([]);
    await whisper.getByRole('button', { name: 'Install: tiny-whisper' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => whisper.getAttribute('data-state'), { timeout: 60_000, interval: 200 }).toBe('installed');
    expect(await whisper.locator('[data-state-text]').textContent()).toBe('installed · in use');
    await page.goto(`${s.url}/#/search?q=Apfel`);
    await page.locator('[data-result]').first().waitFor();
    expect(await page.locator('[data-notice="no-speech"]').count()).toBe(0);
    await page.goto(`${s.url}/#/models`);
    await whisper.getByRole('button', { name: 'Remove: tiny-whisper' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('are deleted from this machine').waitFor();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => whisper.getAttribute('data-state'), UI).toBe('missing');
  });

  it('lists a folder’s failed files with reasons, says a refused path with the allowed roots, all in German', async () => {
    await page.getByLabel('Language').selectOption('de');
    const dir = join(s.mediaDir, 'Urlaub');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'kaputt.mp4'), 'kein Video');
    await page.goto(`${s.url}/#/add?c=family-videos`);
    const field = page.getByLabel('Ordnerpfad auf dem Server');
    await field.fill('/etc');
    await page.getByRole('button', { name: 'Ordner hinzufügen' }).click();
    await page.getByRole('alert').getByText(`liegt außerhalb der Medienordner (VIDX_MEDIA_ROOTS); erlaubt sind: ${s.mediaDir}`).waitFor();
    await field.fill(dir);
    await page.getByRole('button', { name: 'Ordner hinzufügen' }).click();
    const row = page.locator(`[data-folder="${dir}"]`);
    await expect.poll(() => row.locator('[data-state]').textContent(), { timeout: 60_000, interval: 300 }).toMatch(/^gefunden 1 · neu 0 .* fehlgeschlagen 1$/);
    await row.getByText('Fehlgeschlagene Dateien (1)').waitFor();
    expect(await row.locator('.scan-failed li').textContent()).toBe('kaputt.mp4: „kaputt.mp4“ ist kein Video, keine Audiodatei und kein Bild, das vidx lesen kann.');
    await screenshot(page, 'folders-failed-de');
    // A failed upload in the task list: in German words, and no Retry (it can never work).
    const fd = new FormData();
    fd.append('body', JSON.stringify({ collection: 'family-videos', video: { content: 'Hochzeit.mp4' } }));
    fd.append('file', new Blob([new Uint8Array(Buffer.from('kein Video '.repeat(20)))]), 'Hochzeit.mp4');
    const up = (await (await fetch(`${s.url}/index`, { method: 'POST', headers: { 'x-api-key': key }, body: fd })).json()) as { task_id: string };
    await settled(up.task_id);
    await page.getByRole('navigation').getByRole('link', { name: 'Aufgaben' }).click();
    const task = page.locator(`[data-task="${up.task_id}"]`);
    expect(await task.locator('[data-title]').textContent()).toBe('„Hochzeit.mp4“ wird in Family videos indexiert');
    expect(await task.locator('[data-error]').textContent()).toBe('„Hochzeit.mp4“ ist kein Video, keine Audiodatei und kein Bild, das vidx lesen kann.');
    expect(await task.getByRole('button', { name: /^Wiederholen/ }).count()).toBe(0);
    const indexed = page.locator('[data-kind="index"][data-task]').filter({ hasText: 'Kuchen.mp4' });
    expect(await indexed.locator('[data-title]').textContent()).toBe('„Kuchen.mp4“ wird in Family videos indexiert');
    await screenshot(page, 'tasks-de');
    expect(await unlabelled(page)).toEqual([]);
  });

  it('says in the People view what keeps faces from being found, and re-indexes from there', async () => {
    await s.call('PUT', '/collections/family-videos/faces', { key, json: { enabled: true } });
    await page.goto(`${s.url}/#/c/family-videos/people`);
    const notice = page.locator('[data-notice="faces-missing"]');
    await notice.getByText('Das Gesichtsmodell ist nicht installiert').waitFor();
    await notice.getByRole('button', { name: 'Installieren' }).waitFor();
    await notice.getByText('1 Eintrag wurde ohne Gesichtersuche indexiert').waitFor();
    await screenshot(page, 'people-missing-de');
    await notice.getByRole('button', { name: 'Neu indexieren' }).click();
    await expect.poll(async () => (await s.call('GET', '/tasks?kind=reindex', { key })).body.total, UI).toBe(1);
    expect(await unlabelled(page)).toEqual([]);
  });

  it('at 360 px, nothing scrolls sideways; a notice closes by itself, an error stays until closed', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    for (const view of ['#/', '#/search?q=Apfel', '#/models', '#/tasks', '#/add?c=family-videos']) {
      await page.goto(`${s.url}/${view}`);
      await page.locator('main h2').first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), view).toBeLessThanOrEqual(0);
    }
    await screenshot(page, 'models-360-de');
    await page.goto(`${s.url}/#/`);
    const card = page.locator('.collection', { hasText: 'Garten' });
    await card.getByRole('button', { name: 'Löschen: Garten' }).click();
    await page.getByRole('dialog').getByText('bleiben, wo sie sind').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Löschen' }).click();
    const status = page.locator('p.status');
    await expect.poll(() => status.textContent(), UI).toMatch(/Gelöscht/);
    await expect.poll(() => status.textContent(), { timeout: 10_000, interval: 200 }).not.toMatch(/Gelöscht/);
    // An error stays until it is closed.
    await page.goto(`${s.url}/#/add?c=-`);
    await page.locator('#files').setInputFiles({ name: 'x.mp4', mimeType: 'video/mp4', buffer: Buffer.from('x') });
    await expect.poll(() => status.getAttribute('role'), UI).toBe('alert');
    await page.waitForTimeout(7_000);
    expect(await status.textContent()).toMatch(/Wähle zuerst eine Sammlung/);
    await status.getByRole('button', { name: 'Schließen' }).click();
    expect(await status.textContent()).toBe('');
    // The one refused request on the way was the folder path outside the roots, asked for on purpose.
    const errors = w.errors.filter((e) => !/status of 422/.test(e));
    expect(errors, errors.join('\n')).toEqual([]);
    expect([...w.origins]).toEqual([s.url]);
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.getByLabel('Sprache', { exact: true }).selectOption('en');
  }, 60_000);
});
