import { popcount, printSimilarity, type FramePrint } from '../../media/perceptual.js';
import type { Store } from '../../store/index.js';
import type { FramePrintRow } from '../../store/frame-prints.js';

/** A frame of the collection that looks like the query picture. */
export interface PrintHit {
  episodePk: number;
  itemPk: number;
  time: number;
  similarity: number;
}

/** One collection's prints in flat arrays: the 64-bit hashes for a fast first pass, the rows for the second. */
interface CollectionPrints {
  hi: Uint32Array;
  lo: Uint32Array;
  rows: FramePrintRow[];
}

/** Frames kept after the first pass (nearest by the 64-bit hash) for the full comparison. */
const FIRST_PASS = 2000;

/**
 * The stored row back as a {@link FramePrint}.
 * @example
 * printOfRow(store.prints.ofEpisode(pk)[0]).hash; // '9c3e…'
 */
export function printOfRow(r: Pick<FramePrintRow, 'hash_hi' | 'hash_lo' | 'detail' | 'colour'>): FramePrint {
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
  return { hash: hex(r.hash_hi) + hex(r.hash_lo), detail: Buffer.from(r.detail).toString('hex'), colour: [...r.colour] };
}

/**
 * Finds the frames of a collection that look like a picture, by their perceptual fingerprints: every
 * frame's 64-bit hash is compared (a few milliseconds for 100,000 frames), the nearest 2,000 again with the
 * detail hash and colours. A collection's prints are read from the database on first use and kept until
 * something in the collection is indexed or deleted ({@link invalidate}).
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
    const qhi = parseInt(query.hash.slice(0, 8), 16);
    const qlo = parseInt(query.hash.slice(8, 16), 16);
    const distances = new Uint8Array(c.rows.length);
    const byDistance = new Uint32Array(65);
    for (let i = 0; i < c.rows.length; i++) {
      const d = popcount((c.hi[i]! ^ qhi) >>> 0) + popcount((c.lo[i]! ^ qlo) >>> 0);
      distances[i] = d;
      byDistance[d]!++;
    }
    // The distance up to which the first pass keeps frames: the nearest FIRST_PASS, ties included.
    let cutoff = 0;
    for (let kept = 0; cutoff < 64 && kept + byDistance[cutoff]! < FIRST_PASS; cutoff++) kept += byDistance[cutoff]!;
    const best = new Map<number, PrintHit>();
    for (let i = 0; i < c.rows.length; i++) {
      if (distances[i]! > cutoff) continue;
      const row = c.rows[i]!;
      if (opts.keep && !opts.keep(row.item_pk)) continue;
      const similarity = printSimilarity(query, printOfRow(row));
      if (similarity < opts.minSimilarity) continue;
      const had = best.get(row.episode_pk);
      if (!had || similarity > had.similarity) best.set(row.episode_pk, { episodePk: row.episode_pk, itemPk: row.item_pk, time: row.time, similarity });
    }
    return [...best.values()].sort((a, b) => b.similarity - a.similarity).slice(0, opts.limit);
  }

  private prints(collectionPk: number): CollectionPrints {
    let c = this.loaded.get(collectionPk);
    if (!c) {
      const rows = this.store.prints.ofCollection(collectionPk);
      c = { rows, hi: Uint32Array.from(rows, (r) => r.hash_hi), lo: Uint32Array.from(rows, (r) => r.hash_lo) };
      this.loaded.set(collectionPk, c);
    }
    return c;
  }
}
