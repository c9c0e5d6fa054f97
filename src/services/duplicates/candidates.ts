import { agreeingMeetings, isFlat, SAMPLE_SECONDS, type ItemLook } from './compare.js';

/** A bucket this full holds a frame every item has (a logo, a title card): it tells nothing and is skipped. */
const CROWDED = 400;
/** Meetings kept per candidate item: plenty to tell the offsets apart, bounded for long still shots. */
const MAX_MEETINGS = 2000;

/**
 * Finds which items of a collection may be copies of an item, without comparing every pair: each item's
 * frames (one every half second of a video, a photo's one) are filed under the four 16-bit quarters of their
 * 64-bit hash. Two frames that differ in at most three bits share a quarter exactly, so a copy's frames meet
 * the original's in some bucket; the offsets between them say how the two line up. Only candidates found
 * here are compared in full (compare.ts).
 * @example
 * const index = new CandidateIndex();
 * for (const look of looks) { const maybe = index.candidates(look); index.add(look); }
 */
export class CandidateIndex {
  private readonly buckets = [new Map<number, number[]>(), new Map<number, number[]>(), new Map<number, number[]>(), new Map<number, number[]>()];
  private readonly entryItem: number[] = [];
  private readonly entryTime: number[] = [];
  private readonly kinds = new Map<number, ItemLook['kind']>();
  /** Frames filed per item. */
  private readonly filed = new Map<number, number>();
  private readonly removed = new Set<number>();

  /** Files an item's frames. */
  add(look: ItemLook): void {
    this.kinds.set(look.itemPk, look.kind);
    this.removed.delete(look.itemPk);
    let filed = 0;
    for (const [hi, lo, time] of this.frames(look, Math.max(1, Math.round(look.fps * SAMPLE_SECONDS)))) {
      const id = this.entryItem.length;
      this.entryItem.push(look.itemPk);
      this.entryTime.push(time);
      filed++;
      const q = quarters(hi, lo);
      for (let band = 0; band < 4; band++) {
        const list = this.buckets[band]!.get(q[band]!);
        if (list) list.push(id);
        else this.buckets[band]!.set(q[band]!, [id]);
      }
    }
    this.filed.set(look.itemPk, filed);
  }

  /** Stops offering an item (it was deleted); its entries stay until the index is built again. */
  remove(itemPk: number): void {
    this.removed.add(itemPk);
  }

  /**
   * Items of the same kind with frames that may be the same as the look's, with each meeting's offset (their
   * time minus the look's). A video is offered only when enough of its meetings agree on one offset (up to
   * three, fewer for items of one or a few distinct frames): in a large collection most items meet most others
   * once or twice by chance, and comparing each of those in full was most of the work.
   */
  candidates(look: ItemLook): Map<number, number[]> {
    const out = new Map<number, { offsets: number[]; seen: number }>();
    let asked = 0;
    const seen = new Set<number>();
    for (const [hi, lo, time] of this.frames(look, 1)) {
      asked++;
      seen.clear();
      const q = quarters(hi, lo);
      for (let band = 0; band < 4; band++) {
        const list = this.buckets[band]!.get(q[band]!);
        if (!list || list.length > CROWDED) continue;
        for (const id of list) {
          if (seen.has(id)) continue;
          seen.add(id);
          const other = this.entryItem[id]!;
          if (other === look.itemPk || this.removed.has(other) || this.kinds.get(other) !== look.kind) continue;
          const offset = this.entryTime[id]! - time;
          const m = out.get(other);
          if (!m) out.set(other, { offsets: [offset], seen: 1 });
          else if (++m.seen <= MAX_MEETINGS) m.offsets.push(offset);
          else {
            // Past the bound a fair sample is kept (reservoir), so a long still shot cannot crowd out the rest.
            const slot = Math.floor(Math.random() * m.seen);
            if (slot < MAX_MEETINGS) m.offsets[slot] = offset;
          }
        }
      }
    }
    const result = new Map<number, number[]>();
    for (const [item, m] of out) {
      const needed = look.kind === 'image' ? 1 : Math.min(3, Math.max(1, Math.floor(Math.min(asked, this.filed.get(item) ?? 1) / 2)));
      if (needed === 1 || agreeingMeetings(m.offsets) >= needed) result.set(item, m.offsets);
    }
    return result;
  }

  /**
   * The look's frames that say something, every `step`th of a video, with their times: not flat, and not the
   * same hash as the frame before (a still shot files and asks once; any offset fits it anyway).
   */
  private *frames(look: ItemLook, step: number): Generator<[number, number, number]> {
    if (look.kind === 'image' && look.photo) {
      const hi = parseInt(look.photo.hash.slice(0, 8), 16);
      const lo = parseInt(look.photo.hash.slice(8, 16), 16);
      if (!isFlat(hi, lo)) yield [hi, lo, 0];
      return;
    }
    let last = -1;
    for (let i = 0; i < look.hashes.length / 2; i += step) {
      const hi = look.hashes[2 * i]!;
      const lo = look.hashes[2 * i + 1]!;
      if (isFlat(hi, lo) || (last >= 0 && look.hashes[2 * last] === hi && look.hashes[2 * last + 1] === lo)) continue;
      last = i;
      yield [hi, lo, i / look.fps];
    }
  }
}

function quarters(hi: number, lo: number): [number, number, number, number] {
  return [hi >>> 16, hi & 0xffff, lo >>> 16, lo & 0xffff];
}
