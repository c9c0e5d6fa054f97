import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MediaAnalysis } from '../../src/analysis/types.js';
import { SearchIndex } from '../../src/services/search/index.js';
import { nearestCandidates } from '../../src/services/search/search.js';
import { dot, fromBlob } from '../../src/tools/vectors.js';
import { inTransaction } from '../../src/store/connection.js';
import { openStore, type Store } from '../../src/store/index.js';

const DIMS = 32;

/** Deterministic random unit vectors (mulberry32). */
function randomVectors(n: number, seed: number): Float32Array[] {
  let s = seed;
  const rnd = () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
  return Array.from({ length: n }, () => {
    const v = Float32Array.from({ length: DIMS }, rnd);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

/** An item of `vectors.length` one-second episodes, one passage vector each. */
function analysisOf(vectors: Float32Array[]): MediaAnalysis {
  const episodes = vectors.map((_, i) => ({ index: i, start: i, end: i + 1, audio: [], visual: [], summary: `part ${i}`, thumbnail: null, thumbnailTime: i }));
  return {
    type: 'video', duration: vectors.length, language: 'en', title: null, transcript: [], transcriptSource: 'asr', screenText: [], visual: [],
    episodes, summary: 'x', warnings: [],
    passageVectors: { model: 'test-e5', dims: DIMS, items: vectors.map((vector, i) => ({ episodeIndex: i, time: i, vector })) },
    frameVectors: null,
  };
}

describe('HNSW vector indexes beside SQLite', () => {
  let dir: string;
  let store: Store;
  let index: SearchIndex;
  let collectionPk: number;

  const open = () => {
    store = openStore(join(dir, 'vidx.db'));
    index = new SearchIndex(store);
  };
  const space = () => store.search.spaces()[0];
  const storeItem = (mediaId: string, vectors: Float32Array[]) =>
    inTransaction(store.db, () =>
      index.storeItem(collectionPk, { media_id: mediaId, type: 'video', title: null, src: null, thumbnail: null, duration: vectors.length, additional_metadata: null }, analysisOf(vectors), { replace: false }),
    );
  /** The 10 best by exact cosine over the stored floats, and the 10 best of the search's re-scored candidates. */
  const top10 = (q: Float32Array) => {
    const all = store.db.prepare('SELECT pk, embedding FROM vectors WHERE collection_pk = ?').all(collectionPk) as { pk: number; embedding: Buffer }[];
    const exact = all.map((r) => ({ pk: r.pk, s: dot(q, fromBlob(r.embedding)) })).sort((a, b) => b.s - a.s).slice(0, 10).map((r) => r.pk);
    const found = store.search
      .vectorsByPk(nearestCandidates(store.search, space(), collectionPk, q, 10), collectionPk, space().id)
      .map((r) => ({ pk: r.pk, s: dot(q, fromBlob(r.embedding)) }))
      .sort((a, b) => b.s - a.s)
      .slice(0, 10)
      .map((r) => r.pk);
    return { exact, found };
  };
  const untilReady = async () => {
    while (!store.search.approxReady(space(), collectionPk)) await new Promise((r) => setImmediate(r));
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vidx-ann-'));
    open();
    const at = new Date().toISOString();
    collectionPk = store.collections.insert({ collection_id: 'c', owner: 'o', name: 'c', description: null, is_public: 0, created_at: at, updated_at: at }).pk;
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is filled as items are stored and finds the exact 10 nearest after re-scoring', () => {
    const vs = randomVectors(3000, 1);
    for (let i = 0; i < 30; i++) storeItem(`m${i}`, vs.slice(i * 100, i * 100 + 100));
    expect(store.search.approxReady(space(), collectionPk)).toBe(true);
    let hits = 0;
    for (const q of randomVectors(20, 2)) {
      const { exact, found } = top10(q);
      hits += found.filter((pk) => exact.includes(pk)).length;
    }
    expect(hits / 200).toBeGreaterThanOrEqual(0.95);
    // Only the index's nearest 30 are read back and re-scored, not all 100 it was asked for.
    expect(nearestCandidates(store.search, space(), collectionPk, randomVectors(1, 3)[0], 10)).toHaveLength(30);
  });

  it('saves on a clean close and loads the file again without rebuilding', () => {
    storeItem('a', randomVectors(500, 3));
    store.close();
    const files = readdirSync(join(dir, 'vector-index'));
    expect(files.sort()).toEqual([`c${collectionPk}-s1.usearch`, `c${collectionPk}-s1.usearch.json`]);
    expect(JSON.parse(readFileSync(join(dir, 'vector-index', files[1]), 'utf8'))).toMatchObject({ clean: true, size: 500 });
    open();
    expect(store.search.approxReady(space(), collectionPk)).toBe(true);
    const q = randomVectors(1, 4)[0];
    expect(top10(q).found).toEqual(top10(q).exact);
  });

  it('maps a saved file for searches, reads it into memory at the first change, and saves the change at close', () => {
    storeItem('a', randomVectors(500, 7));
    store.close();
    open();
    const q = randomVectors(1, 8)[0];
    expect(top10(q).found).toEqual(top10(q).exact);
    const added = randomVectors(50, 9);
    storeItem('b', added);
    // The mapped file cannot take the new vectors: the index now in memory finds them.
    expect(top10(added[7]).found[0]).toBe(top10(added[7]).exact[0]);
    index.removeItem(store.items.find(collectionPk, 'a')!);
    expect(top10(q).found).toEqual(top10(q).exact);
    store.close();
    expect(JSON.parse(readFileSync(join(dir, 'vector-index', `c${collectionPk}-s1.usearch.json`), 'utf8'))).toMatchObject({ clean: true, size: 50 });
    // A file saved after most of its vectors were removed is mapped and read again (usearch 2.25 corrupted the
    // heap reading one, and the server died at its next start).
    open();
    expect(store.search.approxReady(space(), collectionPk)).toBe(true);
    expect(top10(added[3]).found).toEqual(top10(added[3]).exact);
    storeItem('c', randomVectors(5, 10));
    expect(top10(added[3]).found).toEqual(top10(added[3]).exact);
  });

  it('after a crash (changes never saved) rebuilds from the stored floats, answering by sign bits meanwhile', async () => {
    storeItem('a', randomVectors(400, 5));
    store.close();
    open();
    storeItem('b', randomVectors(300, 6));
    // The process dies: the database has item b, the index file does not, and its sidecar says so.
    expect(JSON.parse(readFileSync(join(dir, 'vector-index', `c${collectionPk}-s1.usearch.json`), 'utf8')).clean).toBe(false);
    store.db.close();
    open();
    expect(store.search.approxReady(space(), collectionPk)).toBe(false);
    const q = randomVectors(1, 7)[0];
    expect(store.search.nearestApprox(space(), collectionPk, q, 60)).toBeNull();
    expect(top10(q).found.length).toBe(10);
    await untilReady();
    const newest = store.db.prepare('SELECT pk, embedding FROM vectors ORDER BY pk DESC LIMIT 1').get() as { pk: number; embedding: Buffer };
    expect(store.search.nearestApprox(space(), collectionPk, fromBlob(newest.embedding), 5)?.[0]).toBe(newest.pk);
  });

  it('rebuilds a file an older vidx saved (format 1: 16 links a node, int8) instead of loading it, and saves it anew', async () => {
    storeItem('a', randomVectors(300, 10));
    store.close();
    const sidecar = join(dir, 'vector-index', `c${collectionPk}-s1.usearch.json`);
    writeFileSync(sidecar, JSON.stringify({ ...JSON.parse(readFileSync(sidecar, 'utf8')), format: 1 }));
    open();
    expect(store.search.approxReady(space(), collectionPk)).toBe(false);
    await untilReady();
    store.close();
    expect(JSON.parse(readFileSync(sidecar, 'utf8'))).toMatchObject({ format: 3, size: 300, clean: true });
    open();
    expect(store.search.approxReady(space(), collectionPk)).toBe(true);
  });

  it('forgets deleted items and rolled-back rows, and finds the vectors that reuse their pks', () => {
    storeItem('a', randomVectors(200, 8));
    const b = randomVectors(50, 9);
    storeItem('b', b);
    index.removeItem(store.items.find(collectionPk, 'b')!);
    expect(() =>
      inTransaction(store.db, () => {
        storeItem('c', randomVectors(50, 10));
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    const d = randomVectors(50, 11);
    storeItem('d', d);
    for (const v of [...b.slice(0, 5), ...d.slice(0, 5)]) {
      const { exact, found } = top10(v);
      expect(found).toEqual(exact);
    }
    // d's rows took the pks of b's (deleted) and c's (rolled back): the index holds d's vectors under them.
    const dPks = store.db.prepare('SELECT pk FROM vectors ORDER BY pk DESC LIMIT 50').pluck().all().reverse() as number[];
    expect(Math.min(...dPks)).toBe(201);
    d.forEach((v, i) => {
      expect(store.search.nearestApprox(space(), collectionPk, v, 1)).toEqual([dPks[i]]);
    });
  });

  it('removes the index files with the collection', () => {
    storeItem('a', randomVectors(100, 12));
    store.close();
    open();
    expect(existsSync(join(dir, 'vector-index', `c${collectionPk}-s1.usearch`))).toBe(true);
    while (index.removeCollection(collectionPk));
    expect(readdirSync(join(dir, 'vector-index'))).toEqual([]);
  });
});
