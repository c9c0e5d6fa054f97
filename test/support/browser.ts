/**
 * Debian's chromium driven by playwright-core (the browser download playwright offers does not work here;
 * scripts/system-deps.sh installs the package). One browser per test file; every page records console
 * errors, page errors and the hosts it contacted.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.VIDX_CHROMIUM ?? '/usr/bin/chromium';

/** Flags for a quiet, offline headless chromium: no sandbox (root in CI), no GPU, no calls home. */
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** A page with what it logged and where it went. */
export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions, in order. */
  errors: string[];
  /** Origins of every request the page made (data: and blob: left out). */
  origins: Set<string>;
}

/**
 * Starts chromium headless.
 * @example
 * const browser = await launchBrowser();
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

/**
 * A new page in a fresh context (its own storage), watched for errors and requests.
 * @example
 * const { page, errors } = await watchedPage(browser, { width: 1280, height: 800 });
 */
export async function watchedPage(browser: Browser, viewport: { width: number; height: number }, locale = 'en-US'): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport, locale, colorScheme: 'light' });
  const page = await context.newPage();
  const errors: string[] = [];
  const origins = new Set<string>();
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
  context.on('request', (r) => {
    const u = new URL(r.url());
    if (u.protocol !== 'data:' && u.protocol !== 'blob:') origins.add(u.origin);
  });
  return { page, context, errors, origins };
}

/**
 * A watched page whose tab already holds `key` (as the sign-in form leaves it in sessionStorage), for
 * tests that start inside a view.
 * @example
 * const { page } = await keyedPage(browser, { width: 1280, height: 800 }, ADMIN_KEY);
 */
export async function keyedPage(browser: Browser, viewport: { width: number; height: number }, key: string): Promise<WatchedPage> {
  const w = await watchedPage(browser, viewport);
  await w.context.addInitScript((k) => sessionStorage.setItem('vidx.key', k), key);
  return w;
}

/**
 * Opens the page at `url` and signs in with `key` through the form, as a person does; resolves once the
 * collections view shows.
 * @example
 * await signIn(page, s.url, ADMIN_KEY);
 */
export async function signIn(page: Page, url: string, key: string): Promise<void> {
  await page.goto(`${url}/`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'My collections' }).waitFor();
}

/**
 * Saves a screenshot of the page under test/.tmp/web-screenshots (kept with the test results).
 * @example
 * await screenshot(page, 'search');
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = join(process.cwd(), 'test', '.tmp', 'web-screenshots');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/**
 * Controls the page shows without a name: inputs, selects and text areas with no label, no aria-label and
 * no aria-labelledby; buttons and links with no text and no aria-label.
 * @example
 * expect(await unlabelled(page)).toEqual([]);
 */
export function unlabelled(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const bad: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('input, select, textarea, button, a[href]')) {
      if (el instanceof HTMLInputElement && el.type === 'hidden') continue;
      const named =
        !!el.getAttribute('aria-label')?.trim() ||
        !!el.getAttribute('aria-labelledby') ||
        ('labels' in el && (el as HTMLInputElement).labels !== null && (el as HTMLInputElement).labels!.length > 0) ||
        ((el.tagName === 'BUTTON' || el.tagName === 'A') && !!el.textContent?.trim()) ||
        el.getAttribute('aria-hidden') === 'true';
      if (!named) bad.push(el.outerHTML.slice(0, 120));
    }
    return bad;
  });
}
