/**
 * What reading dates and places in a search's words costs per query (src/services/search/understand.ts):
 * the dates alone (chrono-node in English and German, and the rules by hand), and the dates with the places
 * of a collection recorded in Lisbon, Vienna and Munich, each name resolved by the real gazetteer as the
 * `near` filter does (the check that items were recorded there, one SQL query in the server, is left out).
 * Run: `npx tsx scripts/bench-understand.ts`. The last line printed is one JSON object.
 */
import { Gazetteer } from '../src/media/places/gazetteer.js';
import { gazetteerFiles, loadGazetteer } from '../src/media/places/gazetteer-data.js';
import { daysSaid } from '../src/services/search/date-words.js';
import { readQuery, type PlaceLookup } from '../src/services/search/understand.js';
import { fold } from '../src/tools/fold.js';

const QUERIES = [
  'penalty shot', 'apple cake recipe', 'Lisbon 2019', 'Wien im Sommer 2023', 'last summer', 'Weihnachten 2022', 'May 2024', 'Oma 2021',
  'the captain takes the penalty in the 90th minute of the cup final', 'Apfelkuchen backen mit Oma in München',
];

/** p50 and p99 of `n` timed calls, in microseconds. */
async function timed(n: number, call: (i: number) => unknown): Promise<{ p50_us: number; p99_us: number }> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await call(i);
    times.push((performance.now() - t0) * 1000);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]! * 10) / 10;
  return { p50_us: at(0.5), p99_us: at(0.99) };
}

const gazetteer = new Gazetteer(await loadGazetteer(gazetteerFiles(undefined)));
const recorded = [gazetteer.nearest(38.7223, -9.1393), gazetteer.nearest(48.2082, 16.3738), gazetteer.nearest(48.1374, 11.5755)];
const places: PlaceLookup = {
  words: new Set(recorded.flatMap((m) => m?.words ?? []).flatMap((w) => fold(w).split(/\s+/))),
  filterOf: async (name) => {
    const named = gazetteer.named(name);
    return named?.kind === 'city' ? { kind: 'point', latitude: named.latitude, longitude: named.longitude, km: 25 } : null;
  },
};
const now = new Date();
for (const q of QUERIES) await readQuery(q, now, places); // warm up chrono's and the regexes' first runs
const figures = {
  date: now.toISOString(),
  queries: QUERIES.length,
  place_words: places.words.size,
  dates_only: await timed(5_000, (i) => daysSaid(QUERIES[i % QUERIES.length]!, now)),
  dates_and_places: await timed(5_000, (i) => readQuery(QUERIES[i % QUERIES.length]!, now, places)),
};
console.log(`dates only: p50 ${figures.dates_only.p50_us} µs, p99 ${figures.dates_only.p99_us} µs per query`);
console.log(`dates and places (${figures.place_words} place words): p50 ${figures.dates_and_places.p50_us} µs, p99 ${figures.dates_and_places.p99_us} µs per query`);
console.log(JSON.stringify(figures));
