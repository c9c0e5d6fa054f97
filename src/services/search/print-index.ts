import { popcount, similarityOf, type FramePrint } from '../../media/perceptual.js';
import type { FramePrintRow } from '../../store/frame-prints.js';
import type { Store } from '../../store/index.js';
import { PICTURES } from './ranking-knobs.js';

/** A frame of the collection that looks like the query picture. */
export interface PrintHit {
  episodePk: number;
  itemPk: number;
  time: number;
  similarity: number;
}

/** One collection's prints in flat typed arrays: 64-bit hashes for the first pass, the rest for the second. */
interface CollectionPrints {
  size: number;
  hi: Uint32Array;
  lo: Uint32Array;
  /** 8 words a print. */
  detail: Uint32Array;
  /** 48 bytes a print. */
  colour: Uint8Array;
  episode: Int32Array;
  item: Int32Array;
  time: Float32Array;
}

/**
 * The stored row back as a {@link FramePrint}.
 * @example
 * printOfRow(store.prints.ofEpisode(pk)[0]).hash; // '9c3e…'
 */
export function printOfRow(r: Pick<FramePrintRow, 'hash_hi' | 'hash_lo' | 'detail' | 'colour'>): FramePrint {
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
  return { hash: hex(r.hash_hi) + hex(r.hash_lo), detail: Buffer.from(r.detail).toString('hex'), colour: [...r.colour] };
}

/** A query print as numbers: the two hash halves, the detail words, the colours. */
function queryParts(q: FramePrint): { hi: number; lo: number; detail: Uint32Array; colour: Uint8Array } {
  const detail = new Uint32Array(8);
  for (let w = 0; w < 8; w++) detail[w] = parseInt(q.detail.slice(w * 8, w * 8 + 8), 16);
  return { hi: parseInt(q.hash.slice(0, 8), 16), lo: parseInt(q.hash.slice(8, 16), 16), detail, colour: Uint8Array.from(q.colour) };
}

/**
 * Finds the frames of a collection that look like a picture, by their perceptual fingerprints: every
 * frame's 64-bit hash is compared (about a millisecond for 100,000 frames), the nearest 1,000 again with the
 * detail hash and colours. A collection's prints are read from the database on first use into typed arrays
 * and kept until something in the collection is indexed or deleted ({@link invalidate}).
 * @example
 * const hits = prints.nearest(collection.pk, framePrint(picture), { limit: 30, minSimilarity: 0.5 });
 */
export class PrintIndex {
  private readonly loaded = new Map<number, CollectionPrints>();

  constructor(private readonly store: Pick<Store, 'prints'>) {}

  /** Forgets what was read of a collection (its items changed). */
  invalidate(collectionPk: number): void {
    this.loaded.delete(collectionPk);
  }

  /** The best frame per episode, most alike first, at least `minSimilarity`; `keep` filters by item. */
  nearest(collectionPk: number, query: FramePrint, opts: { limit: number; minSimilarity: number; keep?: (itemPk: number) => boolean }): PrintHit[] {
    const c = this.prints(collectionPk);
    const q = queryParts(query);
    const distances = new Uint8Array(c.size);
    const byDistance = new Uint32Array(65);
    for (let i = 0; i < c.size; i++) {
      const d = popcount((c.hi[i]! ^ q.hi) >>> 0) + popcount((c.lo[i]! ^ q.lo) >>> 0);
      distances[i] = d;
      byDistance[d]!++;
    }
    // The distance up to which the first pass keeps frames: the nearest PICTURES.firstPass, ties included.
    let cutoff = 0;
    for (let kept = 0; cutoff < 64 && kept + byDistance[cutoff]! < PICTURES.firstPass; cutoff++) kept += byDistance[cutoff]!;
    const best = new Map<number, PrintHit>();
    for (let i = 0; i < c.size; i++) {
      if (distances[i]! > cutoff || (opts.keep && !opts.keep(c.item[i]!))) continue;
      let detailBits = 0;
      for (let w = 0; w < 8; w++) detailBits += popcount((c.detail[i * 8 + w]! ^ q.detail[w]!) >>> 0);
      let colourDiff = 0;
      for (let k = 0; k < 48; k++) colourDiff += Math.abs(c.colour[i * 48 + k]! - q.colour[k]!);
      const similarity = similarityOf(distances[i]!, detailBits, colourDiff);
      if (similarity < opts.minSimilarity) continue;
      const had = best.get(c.episode[i]!);
      if (!had || similarity > had.similarity) best.set(c.episode[i]!, { episodePk: c.episode[i]!, itemPk: c.item[i]!, time: c.time[i]!, similarity });
    }
    return [...best.values()].sort((a, b) => b.similarity - a.similarity).slice(0, opts.limit);
  }

  private prints(collectionPk: number): CollectionPrints {
    let c = this.loaded.get(collectionPk);
    if (!c) {
      c = pack(this.store.prints.ofCollection(collectionPk));
      this.loaded.set(collectionPk, c);
    }
    return c;
  }
}

/** A collection's rows as typed arrays (the detail hash read big-endian, as it was written from hex). */
function pack(rows: FramePrintRow[]): CollectionPrints {
  const n = rows.length;
  const c: CollectionPrints = {
    size: n, hi: new Uint32Array(n), lo: new Uint32Array(n), detail: new Uint32Array(n * 8), colour: new Uint8Array(n * 48),
    episode: new Int32Array(n), item: new Int32Array(n), time: new Float32Array(n),
  };
  rows.forEach((r, i) => {
    c.hi[i] = r.hash_hi;
    c.lo[i] = r.hash_lo;
    for (let w = 0; w < 8; w++) c.detail[i * 8 + w] = r.detail.readUInt32BE(w * 4);
    c.colour.set(r.colour.subarray(0, 48), i * 48);
    c.episode[i] = r.episode_pk;
    c.item[i] = r.item_pk;
    c.time[i] = r.time;
  });
  return c;
}
