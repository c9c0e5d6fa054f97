import type { DuplicatePairRow } from '../../store/frame-prints.js';
import { betterCopy, KEEP_MESSAGES, keepReason, keptHoldsAll, type KeepReason, type Ranked } from './keep.js';

/** An item as grouping sees it: what ranks it, its names, and whether vidx holds its only stored copy. */
export interface CopyItem extends Ranked {
  media_id: string;
  title: string | null;
  /** The file was uploaded: deleting the item deletes its only stored copy. */
  uploaded: boolean;
}

/** One item of a group of copies, as GET …/duplicates shows it. */
export interface DuplicateMember {
  media_id: string;
  title: string | null;
  duration: number | null;
  width: number | null;
  height: number | null;
  size: number | null;
  /** The share of this item the other copies show (1: all of it; a trimmed copy's original shows less). */
  overlap: number;
  /** The kept copy holds everything this one has (see keep.ts `keptHoldsAll`): only then is it offered for deletion. False for the kept copy. */
  covered_by_keep: boolean;
  /** The file was uploaded: vidx holds its only stored copy, and deleting the item deletes it. */
  uploaded: boolean;
}

/** Copies of one another: their items, how alike they are (0..1) and which one to keep. */
export interface DuplicateGroup {
  items: DuplicateMember[];
  similarity: number;
  /** The media_id of the best copy: the longest, then the most pixels, then the highest bitrate, then the original. */
  keep: string;
  /** Why `keep` was chosen over the next-best copy (see {@link KeepReason}). */
  keep_reason: KeepReason;
  /** The same in a sentence. */
  keep_message: string;
}

/**
 * Groups look-alike pairs into sets of copies (connected pairs form one group).
 * @example
 * groupPairs(store.prints.pairs(collection.pk, 0.8), itemsByPk); // [{ items: [...], similarity: 0.97, keep: 'beach-hd', keep_reason: 'longest', … }]
 */
export function groupPairs(pairs: DuplicatePairRow[], items: Map<number, CopyItem>): DuplicateGroup[] {
  const parent = new Map<number, number>();
  const root = (pk: number): number => {
    let r = pk;
    while (parent.get(r) !== undefined && parent.get(r) !== r) r = parent.get(r)!;
    parent.set(pk, r);
    return r;
  };
  for (const p of pairs) {
    if (!items.has(p.a_pk) || !items.has(p.b_pk)) continue;
    if (!parent.has(p.a_pk)) parent.set(p.a_pk, p.a_pk);
    if (!parent.has(p.b_pk)) parent.set(p.b_pk, p.b_pk);
    parent.set(root(p.a_pk), root(p.b_pk));
  }
  const groups = new Map<number, { members: Set<number>; pairs: DuplicatePairRow[] }>();
  for (const p of pairs) {
    if (!parent.has(p.a_pk)) continue;
    const r = root(p.a_pk);
    const g = groups.get(r) ?? { members: new Set<number>(), pairs: [] };
    g.members.add(p.a_pk).add(p.b_pk);
    g.pairs.push(p);
    groups.set(r, g);
  }
  return [...groups.values()].map(({ members, pairs: own }) => groupOf(members, own, items)).sort((a, b) => b.similarity - a.similarity || b.items.length - a.items.length);
}

/** One group: its copies best first, the one to keep, and which of the others it holds whole. */
function groupOf(members: Set<number>, own: DuplicatePairRow[], items: Map<number, CopyItem>): DuplicateGroup {
  const rows = [...members].map((pk) => items.get(pk)!).sort(betterCopy);
  const kept = rows[0]!;
  const reason = keepReason(kept, rows[1] ?? kept);
  const overlap = (pk: number) => Math.max(...own.map((p) => (p.a_pk === pk ? p.overlap_a : p.b_pk === pk ? p.overlap_b : 0)));
  // The share of a copy the kept one shows: from their own pair; a copy paired only through a third item is not held.
  const shownByKept = (pk: number) => {
    const p = own.find((q) => (q.a_pk === pk && q.b_pk === kept.pk) || (q.b_pk === pk && q.a_pk === kept.pk));
    return p ? (p.a_pk === pk ? p.overlap_a : p.overlap_b) : 0;
  };
  return {
    items: rows.map((i) => ({
      media_id: i.media_id, title: i.title, duration: i.duration, width: i.width, height: i.height, size: i.size, overlap: round(overlap(i.pk)),
      covered_by_keep: i !== kept && keptHoldsAll(kept, i, shownByKept(i.pk)), uploaded: i.uploaded,
    })),
    similarity: round(own.reduce((s, p) => s + p.similarity, 0) / own.length),
    keep: kept.media_id,
    keep_reason: reason,
    keep_message: KEEP_MESSAGES[reason],
  };
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
