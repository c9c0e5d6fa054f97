/**
 * Recall against time of the vector index at several search widths (usearch's `expansion_search`, HNSW's
 * ef), on a database bench-search.ts built and kept: every vector of one collection is read into memory
 * once, each query's true 10 nearest come from an exact float scan, and the saved index file is opened
 * (memory-mapped) once per width. A query is a stored vector plus noise, as in bench-search.ts. For each
 * width and number of candidates asked for, it reports recall@10 after the server's re-scoring (the index's
 * first `VECTORS.rescored` candidates re-scored with the floats), after re-scoring all of them, and the time
 * of the index's search alone.
 * The last line printed is one JSON object.
 *
 *   npx tsx scripts/bench-recall.ts --data-dir DIR [--queries 200] [--widths 64,128,256] [--asked 100,300]
 *     [--build saved,i8,f16] [--connectivity 32] [--collection main]
 *
 * --build names the indexes measured: `saved` is the server's file; i8, f16 and f32 are built here from the
 * floats (two threads, batches of 10,000) with --connectivity links a node (the server's by default), saved
 * beside it for the run and removed after.
 */
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { depthFor, VECTORS } from '../src/services/search/ranking-knobs.js';
import { dot, fromBlob } from '../src/tools/vectors.js';
import { openReadStore } from '../src/store/read-store.js';
import { EXPANSION_SEARCH, newAnnIndex, quantizationOf } from '../src/store/vector-ann.js';
import { arg, round2, seededRandom } from './bench-search.js';

const MODEL = 'bench-e5';

const { rnd, gauss } = seededRandom(0x2545f491);

interface Loaded {
  pks: Int32Array;
  floats: Float32Array;
  dims: number;
  file: string;
}

/** Every vector of the collection's bench space, in pk order, and the index file that holds them. */
function load(dir: string, collection: string): Loaded {
  const store = openReadStore(join(dir, 'vidx.db'));
  try {
    const pk = store.collections.findById(collection)?.pk;
    const space = store.search.spaces().find((s) => s.model === MODEL);
    if (pk === undefined || !space) throw new Error(`no collection "${collection}" with ${MODEL} vectors in ${dir}`);
    const file = join(dir, 'vector-index', `c${pk}-s${space.id}.usearch`);
    if (!existsSync(file)) throw new Error(`${file} is missing: run bench-search.ts on ${dir} first`);
    const count = (store.db.prepare('SELECT count(*) AS n FROM vectors WHERE collection_pk = ? AND space_id = ?').get(pk, space.id) as { n: number }).n;
    const pks = new Int32Array(count);
    const floats = new Float32Array(count * space.dims);
    let i = 0;
    for (const row of store.db.prepare('SELECT pk, embedding FROM vectors WHERE collection_pk = ? AND space_id = ? ORDER BY pk').iterate(pk, space.id) as Iterable<{ pk: number; embedding: Buffer }>) {
      pks[i] = row.pk;
      floats.set(fromBlob(row.embedding), i * space.dims);
      i++;
    }
    return { pks, floats, dims: space.dims, file };
  } finally {
    store.close();
  }
}

/** A unit query near a stored vector. */
function query(v: Loaded): Float32Array {
  const at = Math.floor(rnd() * v.pks.length) * v.dims;
  const q = new Float32Array(v.dims);
  let norm = 0;
  for (let d = 0; d < v.dims; d++) {
    q[d] = v.floats[at + d] + (0.3 * gauss()) / Math.sqrt(v.dims);
    norm += q[d] * q[d];
  }
  for (let d = 0; d < v.dims; d++) q[d] /= Math.sqrt(norm);
  return q;
}

/** The exact 10 nearest (their pks), by a scan of every float, and the 10th's similarity. */
function exactTop10(v: Loaded, q: Float32Array): { pks: Set<number>; tenth: number } {
  const top: { row: number; s: number }[] = [];
  for (let row = 0; row < v.pks.length; row++) {
    let s = 0;
    const at = row * v.dims;
    for (let d = 0; d < v.dims; d++) s += q[d] * v.floats[at + d];
    if (top.length < 10 || s > top[top.length - 1].s) {
      top.push({ row, s });
      top.sort((a, b) => b.s - a.s);
      if (top.length > 10) top.pop();
    }
  }
  return { pks: new Set(top.map((t) => v.pks[t.row]!)), tenth: top[9]!.s };
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function main(): Promise<void> {
  const dir = arg('data-dir');
  if (!dir) throw new Error('--data-dir DIR (a database bench-search.ts built) is required');
  const n = Number(arg('queries', '200'));
  const widths = (arg('widths', `${EXPANSION_SEARCH},128,256`) ?? '').split(',').map(Number);
  const v = load(dir, arg('collection', 'main') ?? 'main');
  const rowOf = new Map<number, number>();
  for (let row = 0; row < v.pks.length; row++) rowOf.set(v.pks[row], row);
  const qs = Array.from({ length: n }, () => query(v));
  const started = Date.now();
  const truths = qs.map((q) => exactTop10(v, q));
  console.error(`exact scan of ${v.pks.length} vectors × ${n} queries: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const serverAsked = depthFor(VECTORS.approx, 10);
  const rescored = depthFor(VECTORS.rescored, 10);
  const askedList = (arg('asked', String(serverAsked)) ?? '').split(',').map(Number);
  const results: Record<string, Measured> = {};
  // The saved index, or indexes of other scalar kinds built here from the floats (two threads).
  const builds = (arg('build', 'saved') ?? 'saved').split(',') as ('saved' | 'i8' | 'f16' | 'f32')[];
  const connectivity = arg('connectivity') === undefined ? undefined : Number(arg('connectivity'));
  const built: Record<string, { seconds: number; bytes: number }> = {};
  // The server's file holds the scalar kind of the format it was saved in.
  const savedQuantization = quantizationOf((JSON.parse(readFileSync(`${v.file}.json`, 'utf8')) as { format: number }).format);
  for (const build of builds) {
    let started = performance.now();
    const fresh = build === 'saved' ? null : newAnnIndex(v.dims, { quantization: build, connectivity });
    if (fresh) {
      const keys = BigUint64Array.from(v.pks, (pk) => BigInt(pk));
      for (let at = 0; at < keys.length; at += 10_000) fresh.add(keys.subarray(at, at + 10_000), v.floats.subarray(at * v.dims, Math.min(keys.length, at + 10_000) * v.dims), 2);
      const file = join(dir, `vector-index/bench-recall-${build}.usearch`);
      fresh.save(file);
      built[build] = { seconds: round2((performance.now() - started) / 1000), bytes: statSync(file).size };
      console.error(`built ${build}: ${JSON.stringify(built[build])}`);
      started = performance.now();
    }
  for (const width of widths) {
    const index = newAnnIndex(v.dims, { expansionSearch: width, quantization: build === 'saved' ? savedQuantization : build, connectivity: build === 'saved' ? undefined : connectivity });
    index.view(build === 'saved' ? v.file : join(dir, `vector-index/bench-recall-${build}.usearch`));
    for (const q of qs.slice(0, 20)) index.search(q, serverAsked, 1); // pages the mapped file in before timing
    for (const asked of askedList) {
      const key = `${build}, width ${width}, asked ${asked}`;
      results[key] = measure(v, rowOf, qs, truths, (q) => Array.from(index.search(q, asked, 1).keys, Number), rescored);
      console.error(`${key}: ${JSON.stringify(results[key])}`);
    }
  }
    if (fresh) rmSync(join(dir, `vector-index/bench-recall-${build}.usearch`), { force: true });
  }
  console.log(JSON.stringify({ bench: 'recall', vectors: v.pks.length, dims: v.dims, queries: n, server: { width: EXPANSION_SEARCH, asked: serverAsked, rescored }, connectivity, built, results }));
}

interface Measured {
  /** Recall@10 when the server's number of candidates is re-scored with the floats. */
  recall_at_10: number;
  /** The same, counting a vector exactly as near as the true 10th (a stored copy of it) as right. */
  recall_at_10_ties_counted: number;
  /** Recall@10 when every candidate asked for is re-scored. */
  recall_at_10_all_rescored: number;
  search_ms_p50: number;
  search_ms_p99: number;
}

/** Recall and search time of one way of asking the index, over the queries. */
function measure(v: Loaded, rowOf: Map<number, number>, qs: Float32Array[], truths: { pks: Set<number>; tenth: number }[], search: (q: Float32Array) => number[], rescored: number): Measured {
  const times: number[] = [];
  let hits = 0;
  let tied = 0;
  let allHits = 0;
  const best = (q: Float32Array, keys: number[]) =>
    keys
      .map((pk) => ({ pk, s: dot(q, v.floats.subarray(rowOf.get(pk)! * v.dims, (rowOf.get(pk)! + 1) * v.dims)) }))
      .sort((a, b) => b.s - a.s)
      .slice(0, 10);
  qs.forEach((q, i) => {
    const t0 = performance.now();
    const keys = search(q);
    times.push(performance.now() - t0);
    const truth = truths[i]!;
    const top = best(q, keys.slice(0, rescored));
    hits += top.filter((b) => truth.pks.has(b.pk)).length;
    // A vector as near as the true 10th (a stored copy of it, say) is as right an answer as the one the scan kept.
    tied += top.filter((b) => !truth.pks.has(b.pk) && b.s >= truth.tenth - 1e-6).length;
    allHits += best(q, keys).filter((b) => truth.pks.has(b.pk)).length;
  });
  const share = (x: number) => Math.round((x / (qs.length * 10)) * 1e4) / 1e4;
  return { recall_at_10: share(hits), recall_at_10_ties_counted: share(hits + tied), recall_at_10_all_rescored: share(allHits), search_ms_p50: round2(percentile(times, 50)), search_ms_p99: round2(percentile(times, 99)) };
}

await main();
