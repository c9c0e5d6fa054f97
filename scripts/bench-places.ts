/**
 * Place look-up figures: loading the GeoNames gazetteer (cities of 1,000 or more people), what it holds in
 * memory once loaded, reverse geocoding per point (random points on land and sea, and dense points around
 * Munich), and resolving a place name for the `near` filter.
 *
 * Memory: heap and array buffers after garbage collection, before and after loading; run with
 * `--expose-gc` for exact figures (`node --expose-gc --import tsx scripts/bench-places.ts`).
 * Run: `npx tsx scripts/bench-places.ts`. The last line printed is one JSON object.
 */
import { Gazetteer } from '../src/media/places/gazetteer.js';
import { gazetteerFiles, loadGazetteer } from '../src/media/places/gazetteer-data.js';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** p50 and p99 of `n` timed calls, in microseconds. */
function timed(n: number, call: (i: number) => void): { p50_us: number; p99_us: number } {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    call(i);
    times.push((performance.now() - t0) * 1000);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))] * 10) / 10;
  return { p50_us: at(0.5), p99_us: at(0.99) };
}

await settle();
const before = process.memoryUsage();
const t0 = performance.now();
const places = new Gazetteer(await loadGazetteer(gazetteerFiles(undefined)));
const loadMs = Math.round(performance.now() - t0);
await settle();
const after = process.memoryUsage();
const mb = (n: number) => Math.round(n / 1e5) / 10;

// A fixed sequence, so runs compare: a linear congruential generator.
let seed = 42;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
let found = 0;
const world = timed(20_000, () => {
  if (places.nearest(-60 + random() * 130, -180 + random() * 360)) found++;
});
const munich = timed(20_000, () => places.nearest(47.9 + random() * 0.5, 11.3 + random() * 0.6));
const names = ['Lissabon', 'Munich', 'Deutschland', 'Bavaria', 'Springfield', 'Qwzxville'];
const named = timed(600, (i) => places.named(names[i % names.length]));

const figures = {
  date: new Date().toISOString(),
  load_ms: loadMs,
  heap_mb: mb(after.heapUsed - before.heapUsed),
  array_buffers_mb: mb(after.arrayBuffers - before.arrayBuffers),
  rss_growth_mb: mb(after.rss - before.rss),
  exact_memory: typeof (globalThis as { gc?: unknown }).gc === 'function',
  nearest_world: { ...world, with_place: Math.round((found / 20_000) * 100) / 100 },
  nearest_munich: munich,
  named: { p50_ms: Math.round(named.p50_us) / 1000, p99_ms: Math.round(named.p99_us) / 1000 },
};
console.log(JSON.stringify(figures));
