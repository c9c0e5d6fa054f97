/**
 * Benchmark of the archive by time (issue 47): a collection of N synthetic items (default 100,000) with
 * recording dates over twenty years and places in M cities (default 5,000; a fifth of the bursts at home), written straight into the store
 * of a real vidx on 127.0.0.1, then over HTTP: the events listing (the first grouping, then a page), on this
 * day, the timeline (counted, then kept until an item changes), the events listing after 1,000 new items
 * (grouped again), and the Places view's map
 * with every city drawn in Debian's chromium.
 *
 *   npm run bench:time [-- --items 100000 --places 5000 --runs 20]
 *
 * The last stdout line is one JSON object.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { v7 as uuid7 } from 'uuid';
import { loadConfig } from '../src/config.js';
import { startVidx, type Vidx } from '../src/server.js';
import { inTransaction } from '../src/store/connection.js';
import { buildWeb } from './build-web.js';
import { launchBrowser } from '../test/support/browser.js';

const KEY = 'vidx_bench_time_key_000000000000000';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] ?? fallback : fallback;
}

/** A deterministic pseudo-random number in [0, 1) (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Writes `n` items: bursts of photos and clips (a day out, a trip) over twenty years, a fifth at home, the rest
 * in the other `places` - 1 cities in turn, spread over the world.
 */
function fill(vidx: Vidx, collectionPk: number, n: number, places: number, from: number, seed: number): void {
  const rand = random(seed);
  const city = (i: number) => ({ city: `City ${i}`, district: null, region: null, country: `Country ${i % 180}`, country_code: String.fromCharCode(65 + (i % 26), 65 + (Math.floor(i / 26) % 26)) });
  const point = (i: number) => ({ latitude: -60 + ((i * 37) % 130) + rand(), longitude: -180 + ((i * 73) % 360) + rand() });
  let t = Date.UTC(2006, 0, 1);
  let away = 0;
  inTransaction(vidx.store.db, () => {
    for (let i = 0; i < n; ) {
      const burst = 1 + Math.floor(rand() * 30);
      // Trips go round the cities in turn, so every one of them has items.
      const at = rand() < 0.2 ? 0 : 1 + (away++ % (places - 1));
      t += (2 + rand() * 100) * 3_600_000;
      for (let k = 0; k < burst && i < n; k++, i++) {
        t += rand() * 20 * 60_000;
        const where = point(at);
        const iso = new Date(t).toISOString();
        vidx.store.items.insert({
          cursor: uuid7(), collection_pk: collectionPk, media_id: `m${from + i}`, type: rand() < 0.8 ? 'image' : 'video', title: null, src: null, thumbnail: null,
          duration: null, additional_metadata: null, created_at: iso, updated_at: iso, captured_at: iso, captured_at_source: 'metadata',
          latitude: where.latitude, longitude: where.longitude, place: JSON.stringify(city(at)), place_words: `city ${at}`,
        });
      }
    }
  });
}

/** Milliseconds of each of `runs` requests, sorted. */
async function timed(url: string, runs: number): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    // A new connection each time: a kept-alive one the server closed while the store was being filled (its
    // event loop busy) fails as "other side closed".
    const res = await fetch(url, { headers: { 'x-api-key': KEY, connection: 'close' } });
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    await res.arrayBuffer();
    ms.push(performance.now() - t0);
  }
  return ms.sort((a, b) => a - b);
}

const p = (xs: number[], q: number) => Math.round(xs[Math.min(xs.length - 1, Math.floor(xs.length * q))]! * 10) / 10;

/** The Places view of the collection in chromium: from navigation until every dot is drawn. */
async function mapDraw(url: string, dots: number): Promise<number> {
  await buildWeb({ ifStale: true });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript((k) => sessionStorage.setItem('vidx.key', k), KEY);
    const page = await context.newPage();
    await page.goto(`${url}/#/collections`);
    const t0 = Date.now();
    await page.goto(`${url}/#/c/big/places`);
    // Drawn: the map's dots account for every place (places close together are one dot), the list is
    // there, and the browser has painted them.
    await page.waitForFunction((n) => Number(document.querySelector('[data-map]')?.getAttribute('data-drawn')) >= n && document.querySelector('[data-place]') !== null, dots, { timeout: 60_000 });
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done))));
    const total = Date.now() - t0;
    if (process.env.BENCH_MAP_DEBUG) {
      const entries = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => `${e.name.replace(/^.*\//, '')} ${Math.round(e.startTime)}+${Math.round(e.duration)}`));
      console.error(entries.join('\n'));
    }
    return total;
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const items = Number(arg('items', '100000'));
  const places = Number(arg('places', '5000'));
  const runs = Number(arg('runs', '20'));
  const dir = mkdtempSync(join(tmpdir(), 'vidx-bench-time-'));
  const vidx = await startVidx(loadConfig({ VIDX_HOST: '127.0.0.1', VIDX_PORT: '0', VIDX_DATA_DIR: join(dir, 'data'), VIDX_ADMIN_KEY: KEY, VIDX_LOG: 'silent', VIDX_HUB_URL: 'http://127.0.0.1:9/' }));
  try {
    const created = await fetch(`${vidx.url}/collections`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json', connection: 'close' }, body: JSON.stringify({ collection_id: 'big', name: 'Big' }) });
    if (created.status !== 201) throw new Error(`collection: ${created.status}`);
    const pk = vidx.store.collections.findById('big')!.pk;
    let t0 = performance.now();
    fill(vidx, pk, items, places, 0, 1);
    const fillMs = Math.round(performance.now() - t0);
    const base = `${vidx.url}/collections/big`;
    const firstGrouping = (await timed(`${base}/events?limit=20`, 1))[0]!;
    const events = await timed(`${base}/events?limit=20`, runs);
    const onThisDay = await timed(`${base}/on-this-day?date=2026-07-14`, runs);
    const timelineFirst = (await timed(`${base}/timeline`, 1))[0]!;
    const timeline = await timed(`${base}/timeline`, runs);
    fill(vidx, pk, 1_000, places, items, 2);
    const afterNew = (await timed(`${base}/events?limit=20`, 1))[0]!;
    const total = ((await (await fetch(`${base}/events?limit=1`, { headers: { 'x-api-key': KEY } })).json()) as { total: number }).total;
    const shownPlaces = ((await (await fetch(`${base}/places`, { headers: { 'x-api-key': KEY } })).json()) as { places: unknown[] }).places.length;
    const placesMs = await timed(`${base}/places`, 5);
    t0 = performance.now();
    const map = process.argv.includes('--no-map') ? null : await mapDraw(vidx.url, shownPlaces);
    console.log(JSON.stringify({
      bench: 'time', date: new Date().toISOString(), machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', load_avg_1m: Math.round(loadavg()[0]! * 100) / 100 },
      items, places: shownPlaces, events: total, fill_ms: fillMs,
      events_first_grouping_ms: Math.round(firstGrouping),
      events_page_ms: { p50: p(events, 0.5), p95: p(events, 0.95) },
      on_this_day_ms: { p50: p(onThisDay, 0.5), p95: p(onThisDay, 0.95) },
      timeline_first_ms: Math.round(timelineFirst),
      timeline_ms: { p50: p(timeline, 0.5), p95: p(timeline, 0.95) },
      events_after_1000_new_items_ms: Math.round(afterNew),
      places_ms: { p50: p(placesMs, 0.5) },
      map_draw_ms: map,
    }));
  } finally {
    await vidx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
