/**
 * `npx tsx scripts/bench-web.ts [--runs N]`: how fast the web page is, in Debian's chromium against a local
 * vidx holding the indexed slides video:
 *   - first load: navigation start → the signed-in collections list drawn (a fresh browser context each
 *     run, so nothing is cached; the key is in sessionStorage as after a sign-in);
 *     (also the HTML's first byte, DOMContentLoaded and the last API answer of that load, to see where time goes);
 *   - search: the /search response's last byte → the first result in the page (measured inside the page
 *     with resource timing and a MutationObserver).
 * Also the gzipped size of the page's JS and CSS. Last line printed: one JSON object with the medians.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { startVidx } from '../src/server.js';
import { ensureCorpus } from '../test/support/corpus.js';
import { launchBrowser } from '../test/support/browser.js';
import { buildWeb } from './build-web.js';
import { median as medianOf } from './bench-stats.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' } } });
const runs = Math.max(1, Number(values.runs));
const median = (xs: number[]): number => Math.round(medianOf(xs) * 10) / 10;

const web = await buildWeb({ ifStale: true });
const corpus = await ensureCorpus();
const dataDir = mkdtempSync(join(tmpdir(), 'vidx-bench-web-'));
const key = 'vidx_bench_web_admin_key_000000000';
const vidx = await startVidx(
  loadConfig({ VIDX_HOST: '127.0.0.1', VIDX_PORT: '0', VIDX_DATA_DIR: dataDir, VIDX_LOG: 'silent', VIDX_ADMIN_KEY: key, VIDX_MEDIA_ROOTS: corpus.dir }),
  { queryEmbedder: null },
);
const api = (path: string, body: unknown) =>
  fetch(`${vidx.url}${path}`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<Record<string, unknown>>);
const browser = await launchBrowser();
try {
  await api('/collections', { collection_id: 'bench', name: 'Bench' });
  const { task_id } = await api('/index', { collection: 'bench', video: { path: corpus.slides.path, title: 'Slides' } });
  for (;;) {
    const task = (await fetch(`${vidx.url}/tasks/${task_id}`, { headers: { 'x-api-key': key } }).then((r) => r.json())) as { status: string; error?: { message: string } | null };
    if (task.status === 'completed') break;
    if (task.status === 'failed') throw new Error(`indexing failed: ${task.error?.message}`);
    await new Promise((r) => setTimeout(r, 300));
  }

  const loads: number[] = [];
  const draws: number[] = [];
  const parts: { dcl: number; firstByte: number; apiDone: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript((k) => sessionStorage.setItem('vidx.key', k), key);
    const page = await context.newPage();
    await page.goto(`${vidx.url}/`);
    await page.getByRole('link', { name: 'Bench' }).waitFor();
    loads.push(await page.evaluate(() => performance.now()));
    const nav = await page.evaluate(() => {
      const n = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const api = performance.getEntriesByType('resource').filter((e) => !e.name.includes('/assets/') && !e.name.includes('/files/'));
      return { dcl: n.domContentLoadedEventEnd, firstByte: n.responseStart, apiDone: Math.max(...api.map((e) => (e as PerformanceResourceTiming).responseEnd)) };
    });
    parts.push(nav);

    await page.goto(`${vidx.url}/#/c/bench/search`);
    await page.getByRole('searchbox').fill(i % 2 ? 'goalkeeper' : 'apple cake');
    const drawn = page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const obs = new MutationObserver(() => {
            if (!document.querySelector('[data-result]')) return;
            obs.disconnect();
            const drawnAt = performance.now();
            const res = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/search')).pop() as PerformanceResourceTiming;
            resolve(drawnAt - res.responseEnd);
          });
          obs.observe(document.body, { childList: true, subtree: true });
        }),
    );
    await page.getByRole('searchbox').press('Enter');
    draws.push(await drawn);
    await context.close();
  }
  process.stdout.write(
    `${JSON.stringify({ runs, first_load_ms_p50: median(loads), first_load_ms_max: Math.round(Math.max(...loads)), html_first_byte_ms_p50: median(parts.map((p) => p.firstByte)), dom_content_loaded_ms_p50: median(parts.map((p) => p.dcl)), api_answers_done_ms_p50: median(parts.map((p) => p.apiDone)), results_drawn_after_response_ms_p50: median(draws), results_drawn_ms_max: Math.round(Math.max(...draws) * 10) / 10, js_css_gzip_kb: Math.round(web.jsCssGzipBytes / 102.4) / 10 })}\n`,
  );
} finally {
  await browser.close();
  await vidx.close();
  rmSync(dataDir, { recursive: true, force: true });
}
