import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import usearch, { type Index as UsearchIndex } from 'usearch';
import type { Db } from './connection.js';
import { prepared } from './statements.js';

/**
 * Bumped when the files' layout or the index settings change: older files are rebuilt, never misread.
 * 2: 32 links a node instead of 16 (recall@10 at 100k over 1,000 queries 0.9970–0.9987 against 0.9872–0.9915).
 * 3: half floats instead of int8 (recall@10 at 1M over 200 queries 0.9945 and 0.9965 for two graphs, against
 *    0.9745 and 0.988 for two int8 graphs).
 */
const FORMAT = 3;

/**
 * Links a node keeps (HNSW's M). At 16, some queries' neighbours were out of the walk's reach, whatever the
 * search width (bench-recall.ts); 32 costs about a quarter more index memory.
 */
const CONNECTIVITY = 32;

/** Rows read per query of a background build, at most and at least. */
const BUILD_ROWS = 256;
const MIN_BUILD_ROWS = 16;

/**
 * How long one turn of a background build may hold the event loop before searches and requests get theirs.
 * A fixed 256 adds a turn held it 20–40 ms at 100k vectors, and about half a second at a million (a graph's
 * adds get dearer as it grows), so a rebuilt big index stalled every request for as long.
 */
const BUILD_TURN_MS = 8;

/**
 * How many candidates a search keeps while it walks the graph (HNSW's ef), at least the number asked for.
 * Only searches read it, so the saved files do not change with it (no FORMAT bump).
 */
export const EXPANSION_SEARCH = 64;

/**
 * An empty index: cosine over half floats (half of float32's memory). int8, a quarter, rounds the members of a
 * dense cluster alike, and the graph built on those distances left 1–3 % of the true 10 nearest of a million
 * out of reach (docs/performance.md).
 * bench-recall.ts opens the saved files with other search widths, and builds indexes of other scalar kinds
 * and connectivity, to weigh recall against time and memory (a saved file keeps its own connectivity).
 * @example
 * const index = newAnnIndex(384);
 * index.view('c2-s1.usearch');
 */
export function newAnnIndex(dims: number, opts: { expansionSearch?: number; quantization?: 'i8' | 'f16' | 'f32'; connectivity?: number } = {}): UsearchIndex {
  const quantization = { i8: usearch.ScalarKind.I8, f16: usearch.ScalarKind.F16, f32: usearch.ScalarKind.F32 }[opts.quantization ?? 'f16'];
  return new usearch.Index({ dimensions: dims, metric: usearch.MetricKind.Cos, quantization, connectivity: opts.connectivity ?? CONNECTIVITY, expansion_add: 128, expansion_search: opts.expansionSearch ?? EXPANSION_SEARCH, multi: false });
}

/**
 * The scalar kind of a file saved in a format (its sidecar's `format`): int8 up to format 2, half floats since 3.
 * @example
 * quantizationOf(2); // 'i8'
 */
export function quantizationOf(format: number): 'i8' | 'f16' {
  return format <= 2 ? 'i8' : 'f16';
}

/** The sidecar next to an index file: what it holds and whether it was saved after its last change. */
interface Sidecar {
  format: number;
  dims: number;
  size: number;
  /** False from the first change after loading until the next save: a crash in between leaves it false. */
  clean: boolean;
}

interface Entry {
  index: UsearchIndex;
  dims: number;
  /** While building, the highest vector pk read so far; rows above it are the builder's to add. */
  builtTo: number | null;
  dirty: boolean;
  file: string | null;
  /** Mapped from its file, read-only, until the first change loads it into memory. */
  viewed: boolean;
}

/** The vector a space holds per stored row, as the index is told about it. */
export interface AnnSpace {
  id: number;
  dims: number;
}

/**
 * Approximate nearest-neighbour indexes (usearch HNSW, cosine, half floats) over the stored passage and frame
 * vectors, one per collection and vector space, beside SQLite. SQLite's float vectors stay the truth:
 * callers re-score what this returns with them, and a missing or stale index is rebuilt from them.
 *
 * An index file is trusted only when its sidecar says it was saved after its last change (a clean close);
 * otherwise it is rebuilt in the background, in slices that let requests through, and `nearest` answers
 * null until it is ready (the caller falls back to the sign-bit scan). Keys are vector pks; a key left
 * behind by a rolled-back transaction or a lost delete names a row that no longer exists (or belongs to
 * another collection now), which the caller's re-scoring read filters out.
 * @example
 * const ann = new VectorAnnIndexes(db, join(dataDir, 'vector-index'));
 * ann.add(collectionPk, space, vectorPk, unitVector);
 * ann.nearest(collectionPk, space, query, 60); // [vector pks…] or null while building
 */
export class VectorAnnIndexes {
  private readonly entries = new Map<string, Entry>();
  private closed = false;

  constructor(
    private readonly db: Db,
    /** Folder of the index files; null keeps them in memory only (an in-memory database). */
    private readonly dir: string | null,
  ) {}

  /** Adds a stored vector (a unit vector) to its collection's index. */
  add(collectionPk: number, space: AnnSpace, pk: number, vector: Float32Array): void {
    const e = this.entry(collectionPk, space, pk);
    if (e.builtTo !== null && pk > e.builtTo) return;
    this.touch(e);
    const key = BigInt(pk);
    // A pk SQLite hands out again (after a rollback or a delete of the newest row) replaces the old key.
    if (e.index.contains(key)) e.index.remove(key);
    e.index.add(key, vector, 1);
  }

  /** Removes deleted vectors from their collection's index. */
  remove(collectionPk: number, space: AnnSpace, pks: number[]): void {
    if (pks.length === 0) return;
    const e = this.entry(collectionPk, space);
    this.touch(e);
    for (const pk of pks) if (e.index.contains(BigInt(pk))) e.index.remove(BigInt(pk));
  }

  /**
   * The pks of about the `k` nearest vectors (cosine), nearest first; null while the index is being built.
   */
  nearest(collectionPk: number, space: AnnSpace, query: Float32Array, k: number): number[] | null {
    const e = this.entry(collectionPk, space);
    if (e.builtTo !== null || e.index.size() === 0) return e.builtTo !== null ? null : [];
    return Array.from(e.index.search(query, k, 1).keys, Number);
  }

  /** Whether the index of a collection's space is built (opening or starting its build when not). */
  isReady(collectionPk: number, space: AnnSpace): boolean {
    return this.entry(collectionPk, space).builtTo === null;
  }

  /** Forgets a deleted collection's indexes and removes their files. */
  dropCollection(collectionPk: number): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(`${collectionPk}:`)) this.entries.delete(key);
    if (!this.dir || !existsSync(this.dir)) return;
    const spaces = prepared(this.db, 'SELECT id FROM vector_spaces').pluck().all() as number[];
    for (const id of spaces) for (const f of this.files(collectionPk, id)) rmSync(f, { force: true });
  }

  /** Saves every changed index (then marks it clean); called when the store closes. */
  close(): void {
    this.closed = true;
    for (const e of this.entries.values()) {
      if (!e.dirty || !e.file || e.builtTo !== null) continue;
      mkdirSync(this.dir!, { recursive: true, mode: 0o700 });
      e.index.save(`${e.file}.tmp`);
      chmodSync(`${e.file}.tmp`, 0o600);
      renameSync(`${e.file}.tmp`, e.file);
      this.writeSidecar(e.file, { format: FORMAT, dims: e.dims, size: e.index.size(), clean: true });
      e.dirty = false;
    }
    this.entries.clear();
  }

  private files(collectionPk: number, spaceId: number): [string, string] {
    const file = join(this.dir ?? '', `c${collectionPk}-s${spaceId}.usearch`);
    return [file, `${file}.json`];
  }

  /**
   * The open index, else the saved one when it can be trusted, else a new one: empty when the collection
   * holds no vectors of the space (besides `adding`, the row being added), else built in the background.
   */
  private entry(collectionPk: number, space: AnnSpace, adding = 0): Entry {
    const key = `${collectionPk}:${space.id}`;
    const open = this.entries.get(key);
    if (open) return open;
    const file = this.dir ? this.files(collectionPk, space.id)[0] : null;
    const e: Entry = { index: newAnnIndex(space.dims), dims: space.dims, builtTo: null, dirty: false, file, viewed: false };
    this.entries.set(key, e);
    const saved = file ? this.readSidecar(file) : null;
    if (file && saved?.clean && saved.format === FORMAT && saved.dims === space.dims && existsSync(file)) {
      try {
        // Mapped, not read: a search answers at once instead of after the whole file is read (1.7 s for a
        // million vectors), and untouched pages never take memory. The first change loads it.
        e.index.view(file);
        e.viewed = true;
        if (e.index.size() === saved.size) return e;
      } catch {
        // An unreadable file is rebuilt like a missing one.
      }
      e.index = newAnnIndex(space.dims);
      e.viewed = false;
    }
    const stored = prepared(this.db, 'SELECT 1 FROM vectors WHERE collection_pk = ? AND space_id = ? AND pk != ? LIMIT 1').get(collectionPk, space.id, adding);
    if (stored) this.build(key, e, collectionPk, space.id);
    return e;
  }

  /** Fills `e` from the stored floats, for {@link BUILD_TURN_MS} per turn of the event loop, until it has caught up. */
  private build(key: string, e: Entry, collectionPk: number, spaceId: number): void {
    e.builtTo = 0;
    e.dirty = true;
    const rows = prepared(this.db, 'SELECT pk, embedding FROM vectors WHERE collection_pk = ? AND space_id = ? AND pk > ? ORDER BY pk LIMIT ?');
    // Rows are read afresh each turn (a vector removed meanwhile is never added), about as many as the last turn
    // added: at a million vectors a turn adds only a few, and the rest of a full read would be read again.
    let reading = BUILD_ROWS;
    const step = () => {
      if (this.closed || this.entries.get(key) !== e || e.builtTo === null) return;
      const until = performance.now() + BUILD_TURN_MS;
      let added = 0;
      while (performance.now() < until) {
        const slice = rows.all(collectionPk, spaceId, e.builtTo, reading) as { pk: number; embedding: Buffer }[];
        for (const r of slice) {
          const v = new Float32Array(r.embedding.buffer.slice(r.embedding.byteOffset, r.embedding.byteOffset + r.embedding.byteLength));
          const k = BigInt(r.pk);
          if (!e.index.contains(k)) e.index.add(k, v, 1);
          e.builtTo = r.pk;
          added++;
          if (performance.now() >= until) break;
        }
        // Caught up: the last read came short and all of it is in.
        if (slice.length < reading && (slice.length === 0 || e.builtTo === slice.at(-1)!.pk)) {
          e.builtTo = null;
          return;
        }
      }
      reading = Math.min(BUILD_ROWS, Math.max(MIN_BUILD_ROWS, added));
      setImmediate(step);
    };
    setImmediate(step);
  }

  /** The first change after loading or creating: the files on disk no longer match until the next save. */
  private touch(e: Entry): void {
    if (e.dirty) return;
    if (e.viewed) {
      const loaded = newAnnIndex(e.dims);
      loaded.load(e.file!);
      e.index = loaded;
      e.viewed = false;
    }
    e.dirty = true;
    if (e.file && existsSync(`${e.file}.json`)) this.writeSidecar(e.file, { format: FORMAT, dims: e.dims, size: e.index.size(), clean: false });
  }

  private readSidecar(file: string): Sidecar | null {
    try {
      return JSON.parse(readFileSync(`${file}.json`, 'utf8')) as Sidecar;
    } catch {
      return null;
    }
  }

  private writeSidecar(file: string, s: Sidecar): void {
    if (!this.dir) return;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    writeFileSync(`${file}.json.tmp`, JSON.stringify(s), { mode: 0o600 });
    renameSync(`${file}.json.tmp`, `${file}.json`);
  }
}
