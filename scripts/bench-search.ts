/**
 * Search benchmark: builds a collection of N synthetic episodes (English and German text from word lists,
 * German compounds, rare names, 384-d passage vectors) plus a few smaller collections beside it, through
 * the real indexing path in batched transactions, into a temp data dir; then starts the HTTP server and
 * times M queries (1–3 words, some German, some that match nothing) over HTTP, first words only, then
 * hybrid with a synthetic query embedder, then hybrid on one small collection inside the big database;
 * then recall@10 of the vector search against an exact float scan, in the big and in a small collection.
 * The last line printed is one JSON object. bench-load.ts imports the builder, queries and embedder.
 *
 *   npm run bench:search -- --episodes 100000 [--queries 300] [--keep] [--data-dir DIR] [--recall 10]
 *
 * --data-dir with an existing vidx.db built by an earlier run (with --keep) skips the build.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../src/config.js';
import { startVidx } from '../src/server.js';
import type { MediaAnalysis } from '../src/analysis/types.js';
import { SearchIndex, type QueryEmbedder } from '../src/services/search/index.js';
import { nearestCandidates } from '../src/services/search/search.js';
import { depthFor, VECTORS } from '../src/services/search/ranking-knobs.js';
import { dot, fromBlob } from '../src/tools/vectors.js';
import { inTransaction } from '../src/store/connection.js';
import { openStore, type Store } from '../src/store/index.js';

const DIMS = 384;
const MODEL = 'bench-e5';
const EPISODES_PER_ITEM = 10;
export const ADMIN_KEY = 'vidx_bench_admin_key_000000000000';

/** A `--name value` argument (`'true'` for a bare flag); bench-load.ts takes it from here. */
export function arg(name: string, fallback?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = process.argv[i + 1];
  return v === undefined || v.startsWith('--') ? 'true' : v;
}

// ---- deterministic randomness ------------------------------------------------------------------

/**
 * A deterministic random source from a seed: uniform in [0, 1), standard normal, and a way to start over
 * from another seed. bench-recall.ts takes it too.
 */
export function seededRandom(start: number): { rnd: () => number; gauss: () => number; reseed: (next: number) => void } {
  let seed = start;
  const rnd = (): number => {
    // mulberry32: fast, deterministic, good enough for text and vectors.
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const reseed = (next: number): void => {
    seed = next;
  };
  return { rnd, gauss: () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd()), reseed };
}
const { rnd, gauss, reseed } = seededRandom(0x9e3779b9);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];

// ---- vocabulary -----------------------------------------------------------------------------------

const TOPICS: Record<string, string> = {
  football: 'football goal penalty captain referee striker keeper stadium fans league season match kick header corner offside coach tackle trophy cup Tor Elfmeter Schiedsrichter Mannschaft Spieler Stadion Trainer',
  cooking: 'kitchen oven recipe flour sugar butter dough bake cake bread apple cherry cinnamon sauce pan knife chop stir taste dinner Küche Kuchen Teig Mehl Zucker Apfel Kirsche Rezept Ofen backen Brot',
  travel: 'train station airport ticket suitcase hotel journey border passport map tourist luggage platform delay Bahnhof Zug Reise Koffer Flughafen Fahrkarte Hotel Grenze',
  nature: 'lake river forest mountain sunset sunrise meadow valley glacier waterfall hiking trail birds deer pine rock See Fluss Wald Berg Sonnenuntergang Wiese Tal Wasserfall Wanderung',
  city: 'street traffic bridge tower market square building apartment tram bus crowd night lights Straße Brücke Turm Markt Platz Gebäude Wohnung Straßenbahn',
  music: 'guitar piano drums concert band singer song stage audience melody rhythm orchestra violin Gitarre Klavier Konzert Sängerin Lied Bühne Orchester Geige',
  family: 'birthday wedding grandmother grandfather children baby garden holiday christmas presents party Geburtstag Hochzeit Oma Opa Kinder Garten Urlaub Weihnachten Geschenke',
  weather: 'rain snow storm thunder lightning wind clouds fog frost heat forecast umbrella Regen Schnee Sturm Gewitter Blitz Wind Wolken Nebel Hitze',
  tech: 'computer keyboard screen software update battery phone camera robot network server cable Rechner Tastatur Bildschirm Akku Kamera Netzwerk',
  cars: 'engine wheel tyre motorway garage petrol brakes driver racing speed Motor Reifen Autobahn Werkstatt Benzin Bremsen Fahrer Rennen',
  animals: 'dog cat horse cow sheep chicken fox bear eagle owl rabbit Hund Katze Pferd Kuh Schaf Fuchs Bär Adler Eule Hase',
  school: 'teacher student classroom homework exam lesson blackboard library science history Lehrer Schüler Klassenzimmer Hausaufgaben Prüfung Unterricht Tafel Bibliothek',
};
const STOP = 'the a and of to in is it that was for on with as at by this from be are have has had not but they his her she he we you our their there what which who when where how all can will der die das und ist nicht ein eine mit auf für von zu den dem im sie er es wir'.split(' ');
const GENERAL = 'go come see look make take give think know want need like love start stop run walk talk say tell ask work play read write big small old new good bad happy long short first last next early late today tomorrow morning evening again always never maybe really very almost gehen kommen sehen machen nehmen geben denken wissen wollen groß klein alt neu gut heute morgen wieder immer'.split(' ');
const COMPOUND_PARTS = 'Apfel Kirsch Schoko Käse Bahnhof Fußball Sommer Winter Haus Garten Stadt Wald Berg See Kinder Geburtstag Straßen Nacht Sonnen Regen'.split(' ');
const COMPOUND_HEADS = 'kuchen torte platz spiel fest markt straße haus weg zeit schirm bahn feuer garten'.split(' ');
const SYLLABLES = 'ka lo mi ter stra bel ron vin sa do ku ber wal ing ton mar el ri an us ex ma lin dor fe gra ho ne pi zo tu'.split(' ');

const topicNames = Object.keys(TOPICS);
const topicWords = topicNames.map((t) => TOPICS[t].split(' '));
const wordTopic = new Map<string, number>();
topicWords.forEach((ws, t) => {
  for (const w of ws) wordTopic.set(w.toLowerCase(), t);
});
// Rare words: names and places, Zipf-distributed, so some queries hit a handful of episodes.
const NAMES = Array.from({ length: 40_000 }, () => {
  let w = '';
  const n = 2 + Math.floor(rnd() * 3);
  for (let i = 0; i < n; i++) w += pick(SYLLABLES);
  return w[0].toUpperCase() + w.slice(1);
});
const zipfCdf: number[] = [];
{
  let acc = 0;
  for (let i = 0; i < NAMES.length; i++) {
    acc += 1 / (i + 1);
    zipfCdf.push(acc);
  }
}
function rareName(): string {
  const x = rnd() * zipfCdf[zipfCdf.length - 1];
  let lo = 0;
  let hi = zipfCdf.length - 1;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (zipfCdf[m] < x) lo = m + 1;
    else hi = m;
  }
  return NAMES[lo];
}
const compound = () => pick(COMPOUND_PARTS) + pick(COMPOUND_HEADS);

function sentence(topic: number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = rnd();
    if (r < 0.4) out.push(pick(STOP));
    else if (r < 0.6) out.push(pick(GENERAL));
    else if (r < 0.85) out.push(pick(topicWords[rnd() < 0.85 ? topic : Math.floor(rnd() * topicWords.length)]));
    else if (r < 0.95) out.push(rareName());
    else out.push(compound());
  }
  const s = out.join(' ');
  return `${s[0].toUpperCase()}${s.slice(1)}.`;
}

// ---- vectors: a shared component, a topic centre and a decaying spectrum of topic directions ---------

const unitVec = (v: Float32Array) => {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  for (let i = 0; i < v.length; i++) v[i] /= n;
  return v;
};
// Shaped like e5 vectors: a large shared component (unrelated texts sit near cosine 0.7), the topic centre,
// then per topic AXES directions whose weights fall off as (j + 1)^-0.7, as the variance of real embeddings
// does. (An earlier generator added isotropic noise to 600 sub-topic centres: a query's exact 10 nearest were
// then a near-tie among hundreds of equal cluster members, so recall against them measured the data, not
// the search.)
const AXES = 48;
const randomUnit = () => unitVec(Float32Array.from({ length: DIMS }, gauss));
const common = randomUnit();
const centres = topicNames.map(() => randomUnit());
const axes = topicNames.map(() => Array.from({ length: AXES }, randomUnit));
const spread = Array.from({ length: AXES }, (_, j) => 1.2 * (j + 1) ** -0.7);
function topicVector(weights: Map<number, number>, noise: number, spectrum: boolean): Float32Array {
  const v = new Float32Array(DIMS);
  for (let i = 0; i < DIMS; i++) v[i] = 2 * common[i] + (noise * gauss()) / Math.sqrt(DIMS);
  for (const [t, w] of weights) {
    for (let i = 0; i < DIMS; i++) v[i] += w * centres[t][i];
    if (!spectrum) continue;
    for (let j = 0; j < AXES; j++) {
      const g = w * spread[j] * gauss();
      const a = axes[t][j];
      for (let i = 0; i < DIMS; i++) v[i] += g * a[i];
    }
  }
  return unitVec(v);
}

/** The synthetic query embedder: the topics of the query's words, plus the shared component. */
export const benchEmbedder: QueryEmbedder = {
  async embed(query, space) {
    if (space.kind !== 'passage' || space.dims !== DIMS) return null;
    const weights = new Map<number, number>();
    for (const w of query.toLowerCase().split(/\s+/)) {
      const t = wordTopic.get(w);
      if (t !== undefined) weights.set(t, (weights.get(t) ?? 0) + 1);
    }
    if (weights.size === 0) return null;
    return { vector: topicVector(weights, 0.2, false), minSimilarity: 0.5 };
  },
};

// ---- building ---------------------------------------------------------------------------------------

function syntheticItem(n: number, episodes: number): { analysis: MediaAnalysis; title: string; place: string } {
  const topic = Math.floor(rnd() * topicNames.length);
  const eps: MediaAnalysis['episodes'] = [];
  const vectors: { episodeIndex: number; time: number; vector: Float32Array }[] = [];
  let t = 0;
  for (let i = 0; i < episodes; i++) {
    const epTopic = rnd() < 0.7 ? topic : Math.floor(rnd() * topicNames.length);
    const start = t;
    const audio = Array.from({ length: 8 }, () => {
      const len = 4 + rnd() * 6;
      const seg = { start: round2(t), end: round2(t + len), text: sentence(epTopic, 8 + Math.floor(rnd() * 10)) };
      t += len;
      return seg;
    });
    const end = round2(t);
    const mid = round2((start + end) / 2);
    const ocr = rnd() < 0.3 ? [`${compound()} ${rareName()}`] : [];
    const tags = [pick(topicWords[epTopic]), pick(topicWords[epTopic])].map((w) => w.toLowerCase());
    eps.push({
      index: i,
      start,
      end,
      audio,
      visual: [
        { start, end: mid, summary: `${tags[0]} and ${tags[1]}`, ocr: [], tags },
        { start: mid, end, summary: ocr.length ? `On screen: ${ocr[0]}` : `A view of ${tags[1]}`, ocr, tags: [] },
      ],
      summary: sentence(epTopic, 12),
      thumbnail: null,
      thumbnailTime: start,
    });
    vectors.push({ episodeIndex: i, time: start, vector: topicVector(new Map([[epTopic, 1]]), 0.05, true) });
  }
  return {
    title: `${pick(topicWords[topic])} ${rareName()} ${n}`,
    place: rareName(),
    analysis: {
      type: 'video', duration: t, language: rnd() < 0.3 ? 'de' : 'en', title: null,
      transcript: eps.flatMap((e) => e.audio), transcriptSource: 'asr', screenText: [], visual: eps.flatMap((e) => e.visual),
      episodes: eps, summary: eps[0].summary, warnings: [],
      passageVectors: { model: MODEL, dims: DIMS, items: vectors }, frameVectors: null,
    },
  };
}
export const round2 = (x: number) => Math.round(x * 100) / 100;

function fill(store: Store, index: SearchIndex, collectionPk: number, prefix: string, episodes: number, log: boolean): void {
  const items = Math.ceil(episodes / EPISODES_PER_ITEM);
  const perTx = 100;
  const t0 = Date.now();
  for (let b = 0; b < items; b += perTx) {
    inTransaction(store.db, () => {
      for (let i = b; i < Math.min(items, b + perTx); i++) {
        const n = Math.min(EPISODES_PER_ITEM, episodes - i * EPISODES_PER_ITEM);
        const { analysis, title, place } = syntheticItem(i, n);
        index.storeItem(collectionPk, {
          media_id: `${prefix}-${i}`, type: 'video', title, src: `https://example.invalid/${prefix}/${i}.mp4`,
          thumbnail: null, duration: analysis.duration, additional_metadata: { place },
        }, analysis, { replace: false });
      }
    });
    if (log && (b / perTx) % 100 === 0) {
      const done = Math.min(items, b + perTx) * EPISODES_PER_ITEM;
      console.error(`  ${prefix}: ${done} episodes, ${((Date.now() - t0) / 1000).toFixed(0)} s, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`);
    }
  }
}

export function build(dir: string, episodes: number): number {
  const t0 = Date.now();
  const store = openStore(join(dir, 'vidx.db'));
  const index = new SearchIndex(store);
  const at = new Date().toISOString();
  const collection = (id: string) =>
    store.collections.insert({ collection_id: id, owner: 'bench', name: id, description: null, is_public: 0, created_at: at, updated_at: at }).pk;
  const extra = Math.max(1000, Math.floor(episodes / 50));
  fill(store, index, collection('side-a'), 'a', extra, false);
  fill(store, index, collection('main'), 'm', episodes, true);
  fill(store, index, collection('side-b'), 'b', extra, false);
  fill(store, index, collection('side-c'), 'c', extra, false);
  store.close();
  return (Date.now() - t0) / 1000;
}

/** The episodes of the main collection of a database built earlier. */
function mainEpisodes(dir: string): number {
  const store = openStore(join(dir, 'vidx.db'));
  try {
    return store.db.prepare("SELECT count(*) FROM episodes e JOIN collections c ON c.pk = e.collection_pk WHERE c.collection_id = 'main'").pluck().get() as number;
  } finally {
    store.close();
  }
}

/** The 2,000-episode collection the small-collection figures are taken on, added to a database that lacks it. */
export const SMALL_COLLECTION = 'two-k';

function addSmallCollection(dir: string): void {
  const store = openStore(join(dir, 'vidx.db'));
  try {
    if (store.collections.findById(SMALL_COLLECTION)) return;
    const at = new Date().toISOString();
    const pk = store.collections.insert({ collection_id: SMALL_COLLECTION, owner: 'bench', name: SMALL_COLLECTION, description: null, is_public: 0, created_at: at, updated_at: at }).pk;
    fill(store, new SearchIndex(store), pk, 'k', 2000, false);
  } finally {
    store.close();
  }
}

// ---- queries ----------------------------------------------------------------------------------------

export function queries(m: number): string[] {
  // The same queries on every run, whatever the build drew from the generator before.
  reseed(0x51f15eed);
  const out: string[] = [];
  for (let i = 0; i < m; i++) {
    const r = rnd();
    if (r < 0.1) out.push(`zq${Math.floor(rnd() * 1e6)}xv`); // matches nothing
    else if (r < 0.2) out.push(pick(COMPOUND_HEADS)); // German word part: compounds through trigrams
    else if (r < 0.3) out.push(rareName());
    else {
      const t = Math.floor(rnd() * topicWords.length);
      const n = 1 + Math.floor(rnd() * 3);
      out.push(Array.from({ length: n }, () => pick(topicWords[t])).join(' '));
    }
  }
  return out;
}

async function timeQueries(url: string, qs: string[], collection = 'main'): Promise<{ p50: number; p99: number; qps: number; hits: number }> {
  const post = async (query: string) => {
    const res = await fetch(`${url}/search`, {
      method: 'POST',
      headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ body: JSON.stringify({ query, collection, limit: 10 }) }),
    });
    if (res.status !== 200) throw new Error(`search "${query}" answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { results: unknown[] }).results.length;
  };
  // One untimed pass over the same queries: the timed pass sees a server that has been answering for a while
  // (statements prepared, the pages its queries touch in the OS cache), not a cold start.
  for (const q of qs) await post(q);
  const times: number[] = [];
  const slow: [number, string][] = [];
  let hits = 0;
  const t0 = performance.now();
  for (const q of qs) {
    const t = performance.now();
    hits += await post(q);
    times.push(performance.now() - t);
    slow.push([performance.now() - t, q]);
  }
  const total = performance.now() - t0;
  slow.sort((a, b) => b[0] - a[0]);
  console.error(`  slowest: ${slow.slice(0, 5).map(([ms, q]) => `"${q}" ${ms.toFixed(0)} ms`).join(', ')}`);
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  return { p50: round2(at(0.5)), p99: round2(at(0.99)), qps: round2(qs.length / (total / 1000)), hits: round2(hits / qs.length) };
}

/**
 * Opens (or builds, when no clean index file exists) every collection's HNSW vector index and saves it, as a
 * server does in the background after an upgrade or a crash: the timed searches then meet ready indexes.
 */
export async function readyVectorIndexes(dir: string): Promise<number> {
  const t0 = performance.now();
  const store = openStore(join(dir, 'vidx.db'));
  try {
    for (const c of ['main', 'side-a', 'side-b', 'side-c', SMALL_COLLECTION]) {
      const pk = store.collections.findById(c)?.pk;
      if (pk === undefined) continue;
      for (const space of store.search.spaces()) while (!store.search.approxReady(space, pk)) await new Promise((r) => setImmediate(r));
    }
  } finally {
    store.close();
  }
  return round2((performance.now() - t0) / 1000);
}

/**
 * Recall@10 of the candidates the search re-scores (HNSW for a big collection, sign bits for a small one),
 * in their own order and after float re-scoring, against an exact scan of the floats. Queries are stored
 * vectors plus noise.
 */
async function vectorRecall(dir: string, n: number, collection = 'main'): Promise<{ method: string; k: number; first10: number; rescored: number; by_depth: Record<number, number>; gap_10_11: number }> {
  const store = openStore(join(dir, 'vidx.db'));
  try {
    const pk = store.collections.findById(collection)!.pk;
    const space = store.search.spaces().find((s) => s.model === MODEL)!;
    while (!store.search.approxReady(space, pk)) await new Promise((r) => setImmediate(r));
    let k = 0;
    const exactScan = store.db.prepare('SELECT pk, embedding FROM vectors WHERE collection_pk = ? AND space_id = ?');
    let bitsHit = 0;
    let rescoredHit = 0;
    let gap = 0;
    let total = 0;
    // Recall had VECTORS.rescored been another depth: the index's first d candidates re-scored (same queries).
    const depths = [30, 50, 100];
    const depthHit = new Map(depths.map((d) => [d, 0]));
    const maxPk = (store.db.prepare('SELECT max(pk) AS m FROM vectors WHERE collection_pk = ?').get(pk) as { m: number }).m;
    const near = store.db.prepare('SELECT embedding FROM vectors WHERE pk >= ? AND collection_pk = ? LIMIT 1');
    for (let i = 0; i < n; i++) {
      const base = fromBlob((near.get(Math.floor(rnd() * maxPk), pk) as { embedding: Buffer }).embedding);
      const q = unitVec(base.map((x) => x + (0.3 * gauss()) / Math.sqrt(DIMS)));
      const top: { pk: number; s: number }[] = [];
      for (const row of exactScan.iterate(pk, space.id) as Iterable<{ pk: number; embedding: Buffer }>) {
        const s = dot(q, fromBlob(row.embedding));
        if (top.length < 11 || s > top[top.length - 1].s) {
          top.push({ pk: row.pk, s });
          top.sort((a, b) => b.s - a.s);
          if (top.length > 11) top.pop();
        }
      }
      gap += top[9].s - top[10].s;
      const truth = new Set(top.slice(0, 10).map((x) => x.pk));
      const coarse = nearestCandidates(store.search, space, pk, q, 10);
      k = coarse.length;
      bitsHit += coarse.slice(0, 10).filter((c) => truth.has(c)).length;
      const rescored = store.search
        .vectorsByPk(coarse, pk, space.id)
        .map((r) => ({ pk: r.pk, s: dot(q, fromBlob(r.embedding)) }))
        .sort((a, b) => b.s - a.s)
        .slice(0, 10);
      rescoredHit += rescored.filter((r) => truth.has(r.pk)).length;
      const approx = store.search.nearestApprox(space, pk, q, depthFor(VECTORS.approx, 10)) ?? [];
      const scored = store.search.vectorsByPk(approx, pk, space.id).map((r) => ({ pk: r.pk, s: dot(q, fromBlob(r.embedding)) }));
      const rank = new Map(approx.map((c, i) => [c, i]));
      for (const d of depths) depthHit.set(d, depthHit.get(d)! + scored.filter((r) => rank.get(r.pk)! < d).sort((a, b) => b.s - a.s).slice(0, 10).filter((r) => truth.has(r.pk)).length);
      total += 10;
    }
    const byDepth = Object.fromEntries(depths.map((d) => [d, Math.round((depthHit.get(d)! / total) * 1e4) / 1e4]));
    return { method: 'hnsw', k, first10: round2(bitsHit / total), rescored: round2(rescoredHit / total), by_depth: byDepth, gap_10_11: Math.round((gap / n) * 1e4) / 1e4 };
  } finally {
    store.close();
  }
}

async function main(): Promise<void> {
  const asked = Number(arg('episodes', '10000'));
  const m = Number(arg('queries', '300'));
  if (!Number.isInteger(asked) || asked < 10) throw new Error('--episodes must be an integer ≥ 10');
  const given = arg('data-dir');
  const dir = given ?? mkdtempSync(join(tmpdir(), 'vidx-bench-search-'));
  // A --data-dir that does not exist yet is where the database is built.
  mkdirSync(dir, { recursive: true });
  // A reused database says how many episodes it holds, whatever --episodes says.
  const episodes = existsSync(join(dir, 'vidx.db')) ? mainEpisodes(dir) : asked;
  const recallQueries = Number(arg('recall', episodes <= 200_000 ? '10' : '0'));
  const keep = arg('keep') === 'true' || given !== undefined;
  let buildSeconds: number | null = null;
  if (!existsSync(join(dir, 'vidx.db'))) {
    console.error(`building ${episodes} episodes (+ 3 side collections) in ${dir}`);
    buildSeconds = round2(build(dir, episodes));
    console.error(`built in ${buildSeconds} s`);
  } else {
    console.error(`reusing ${dir}`);
  }
  const dbMb = round2(
    ['vidx.db', 'vidx.db-wal'].map((f) => join(dir, f)).filter(existsSync).reduce((s, f) => s + statSync(f).size, 0) / 2 ** 20,
  );
  addSmallCollection(dir);
  const indexSeconds = await readyVectorIndexes(dir);
  console.error(`vector indexes ready in ${indexSeconds} s`);
  const qs = queries(m);
  const config = loadConfig({ VIDX_HOST: '127.0.0.1', VIDX_PORT: '0', VIDX_DATA_DIR: dir, VIDX_LOG: 'silent', VIDX_ADMIN_KEY: ADMIN_KEY });

  let vidx = await startVidx(config, { queryEmbedder: null });
  const lexical = await timeQueries(vidx.url, qs);
  await vidx.close();
  vidx = await startVidx(config, { queryEmbedder: benchEmbedder });
  const hybrid = await timeQueries(vidx.url, qs);
  // A small collection inside the big database: its cost should follow its own size.
  const small = await timeQueries(vidx.url, qs, SMALL_COLLECTION);
  const rss = round2(process.memoryUsage().rss / 2 ** 20);
  await vidx.close();
  const recall = recallQueries > 0 ? await vectorRecall(dir, recallQueries) : null;
  const smallRecall = recallQueries > 0 ? await vectorRecall(dir, recallQueries, SMALL_COLLECTION) : null;
  if (!keep) rmSync(dir, { recursive: true, force: true });
  else console.error(`kept ${dir}`);

  console.log(
    JSON.stringify({
      episodes,
      p50_ms: hybrid.p50,
      p99_ms: hybrid.p99,
      qps: hybrid.qps,
      rss_mb: rss,
      semantic: true,
      queries: m,
      results_per_query: hybrid.hits,
      lexical_p50_ms: lexical.p50,
      lexical_p99_ms: lexical.p99,
      lexical_qps: lexical.qps,
      small_collection_episodes: 2000,
      small_p50_ms: small.p50,
      small_p99_ms: small.p99,
      build_s: buildSeconds,
      vector_index_s: indexSeconds,
      db_mb: dbMb,
      vector_recall_at_10: recall,
      small_vector_recall_at_10: smallRecall,
    }),
  );
}

// Run as a script; bench-load.ts imports the builder and the query embedder.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
