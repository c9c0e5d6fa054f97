/**
 * Issue 34.4 in a real browser (chromium through playwright-core): a machine without the hub. An install
 * started from the Models view or the People view fails where it was started, saying the hub cannot be
 * reached and how to import, in English and in German; the ★ is explained; Import brings in a model archive
 * (and says why a damaged one is refused). VIDX_HUB_URL points at a loopback port where nothing listens.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { deadPort } from '../support/dead-port.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureModels, type FixtureSet } from '../../scripts/make-fixture-models.js';
import { buildWeb } from '../../scripts/build-web.js';
import { keyedPage, launchBrowser, screenshot, unlabelled, type WatchedPage } from '../support/browser.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../support/server.js';

const UI = { timeout: 15_000, interval: 100 };

let tmp: string;
let fixtures: FixtureSet;
let hubUrl: string;
let s: TestServer;
let browser: Browser;
let w: WatchedPage;
let page: Page;

/** A tar of a stand-in model's repository folder, as the hub lays it out; `broken` leaves its tokenizer out. */
function archiveOf(id: string, broken = false): string {
  const folder = join(tmp, broken ? `${id}-broken` : id);
  cpSync(join(fixtures.hubDir, 'vidx-test', id), folder, { recursive: true });
  if (broken) rmSync(join(folder, 'tokenizer.json'));
  const file = join(tmp, `${broken ? `${id}-broken` : id}.tar`);
  execFileSync('tar', ['-cf', file, '-C', folder, '.']);
  return file;
}

beforeAll(async () => {
  await buildWeb({ ifStale: true });
  tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'web-models-'));
  fixtures = await makeFixtureModels(join(tmp, 'hub'));
  hubUrl = `http://127.0.0.1:${await deadPort()}`;
  s = await startTestServer({ queryEmbedder: null, env: { VIDX_MODELS_MANIFEST: fixtures.manifestPath, VIDX_HUB_URL: hubUrl } });
  expect((await s.call('POST', '/collections', { json: { collection_id: 'fam', name: 'Family' } })).status).toBe(201);
  browser = await launchBrowser();
  w = await keyedPage(browser, { width: 1280, height: 900 }, ADMIN_KEY);
  page = w.page;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const row = (id: string) => page.locator(`[data-model="${id}"]`);

describe('models on a machine without the hub', () => {
  it('explains the ★ and shows a failed install in the row, in English and then in German', async () => {
    await page.goto(`${s.url}/#/models`);
    await expect.poll(() => row('tiny-e5').getAttribute('data-state'), UI).toBe('missing');
    expect(await page.locator('[data-legend]').textContent()).toBe('★ marks the default: the model vidx installs and uses for its capability unless another of it is installed.');
    expect(await row('tiny-e5').locator('[data-default]').getAttribute('title')).toBe('default model');
    expect(await unlabelled(page)).toEqual([]);

    await row('tiny-e5').getByRole('button', { name: 'Install: tiny-e5' }).click();
    const failure = row('tiny-e5').locator('.error');
    await failure.waitFor(UI);
    const english = await failure.textContent();
    expect(english).toContain(`Cannot reach the model hub at ${hubUrl} (ECONNREFUSED): this machine seems to be offline`);
    // Issue 42: the hub and the model's repository are named, and on the Models page it points to the Import button here.
    expect(english).toContain(`Get tiny-e5 on a computer with internet access: vidx models export tiny-e5 there, or the repository vidx-test/tiny-e5 from ${hubUrl}, packed as .tar.`);
    expect(english).toMatch(/Then bring it in with “Import a model…” below on this page\.$/);
    expect(english).not.toMatch(/<repo>|<id>|on the Models page|fetch failed/);
    expect(await failure.locator('code').allTextContents()).toEqual(['vidx models export tiny-e5']);
    expect(await page.getByRole('heading', { name: 'Comes with vidx' }).count()).toBe(1);
    await screenshot(page, 'models-offline-en');

    await page.getByLabel('Language').selectOption('de');
    await expect.poll(() => failure.textContent(), UI).toContain(`Der Modell-Hub unter ${hubUrl} ist nicht erreichbar (ECONNREFUSED): Dieser Rechner scheint offline zu sein.`);
    expect(await failure.textContent()).toContain(`Hol tiny-e5 auf einem Rechner mit Internetzugang: dort mit vidx models export tiny-e5, oder das Repository vidx-test/tiny-e5 von ${hubUrl}, als .tar gepackt.`);
    expect(await failure.textContent()).toMatch(/Dann bring es mit „Modell importieren…“ weiter unten auf dieser Seite herein\.$/);
    expect(await page.getByRole('heading', { name: 'In vidx enthalten' }).count()).toBe(1);
    expect(await page.locator('[data-legend]').textContent()).toContain('★ kennzeichnet das Standardmodell');
    await screenshot(page, 'models-offline-de');
    await page.locator('[data-import]').scrollIntoViewIfNeeded();
    await screenshot(page, 'models-import-de');
  });

  it('imports an archive with the Import button, and says in German why a damaged one is refused', async () => {
    await page.locator('[data-import-file]').setInputFiles(archiveOf('tiny-e5', true));
    const error = page.locator('[data-import-error]');
    await error.waitFor(UI);
    expect(await error.textContent()).toBe('Import fehlgeschlagen: Modell tiny-e5: Die Datei „tokenizer.json“ fehlt');
    expect(await row('tiny-e5').getAttribute('data-state')).toBe('missing');
    await screenshot(page, 'models-import-refused-de');

    await page.locator('[data-import-file]').setInputFiles(archiveOf('tiny-e5'));
    await expect.poll(() => row('tiny-e5').getAttribute('data-state'), UI).toBe('installed');
    expect(await error.count()).toBe(0);
    expect(await row('tiny-e5').locator('.error').count()).toBe(0); // the earlier failed install is over
    expect(await row('tiny-e5').locator('[data-state-text]').textContent()).toBe('installiert · in Gebrauch');

    await page.setViewportSize({ width: 360, height: 800 });
    await page.locator('[data-import]').scrollIntoViewIfNeeded();
    await screenshot(page, 'models-import-360-de');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('imports the speaker pair offline and names who made each model beside its licence (issue 45)', async () => {
    for (const id of ['tiny-pyannote', 'tiny-wespeaker']) {
      await page.locator('[data-import-file]').setInputFiles(archiveOf(id));
      await expect.poll(() => row(id).getAttribute('data-state'), UI).toBe('installed');
      expect(await row(id).locator('[data-state-text]').textContent()).toBe('installiert · in Gebrauch');
      expect(await row(id).locator('[data-credit]').textContent()).toBe('von vidx tests');
    }
    expect(await page.getByRole('heading', { name: 'Stimmen unterscheiden' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Wo eine Stimme übergibt' }).count()).toBe(1);
    await row('tiny-wespeaker').scrollIntoViewIfNeeded();
    await screenshot(page, 'models-speaker-pair-de');
  });

  it('shows a face-model install that cannot reach the hub on the People view, where it was started', async () => {
    await page.getByLabel('Sprache', { exact: true }).selectOption('en');
    await page.goto(`${s.url}/#/c/fam/people`);
    await page.getByLabel('Find faces in this collection').check();
    const notice = page.locator('[data-notice="faces-missing"]');
    await notice.getByRole('button', { name: 'Install' }).click();
    const failure = notice.locator('[data-install-error]');
    await failure.waitFor(UI);
    expect(await failure.textContent()).toContain(`Cannot reach the model hub at ${hubUrl} (ECONNREFUSED)`);
    await screenshot(page, 'people-offline-en');
    await page.getByLabel('Language').selectOption('de');
    await expect.poll(() => failure.textContent(), UI).toContain('Dieser Rechner scheint offline zu sein');
    await screenshot(page, 'people-offline-de');
    expect(w.errors.filter((e) => !e.includes('422'))).toEqual([]);
    expect([...w.origins]).toEqual([s.url]);
  });
});
