import { extname } from 'node:path';
import { LRUMapWithDelete } from 'mnemonist';
import type { Repos } from '../../store/index.js';
import type { ItemRow } from '../../store/items.js';
import type { DuplicatePairRow } from '../../store/frame-prints.js';
import { contentWords } from '../../analysis/text-stats.js';
import type { Caller } from '../caller.js';
import type { CollectionService } from '../collections.js';
import { printOfRow } from '../search/print-index.js';
import { LOOK_BYTES } from '../../media/perceptual.js';
import { CandidateIndex } from './candidates.js';
import { comparePhotos, compareVideos, type ItemLook, type PairMatch } from './compare.js';
import { groupPairs, type CopyItem, type DuplicateGroup } from './groups.js';

/** Pairs at least this alike are grouped when the caller names no threshold. */
export const DEFAULT_DUPLICATE_THRESHOLD = 0.8;

/** An item with copies, as search reads it: the group's kept copy, and the seconds to add to a time of the item for the same moment in it. */
export interface CopyOf {
  lead: number;
  offset: number;
}

/** A collection's copies: by item pk with their kept copy and offset (search), by media_id with their kept copy's (explore). */
interface CopiesOf {
  leads: Map<number, CopyOf>;
  keepOf: Map<string, string>;
}

/**
 * The version of the rules that make a pair (compare.ts). A collection whose pairs an older version found is
 * checked again before its groups are read or an item joins it: version 2 (issue 42) asks colours, words
 * and sound, where version 1 paired slides of one template in other colours.
 */
export const COPY_RULES = 2;

/**
 * Copies across a collection: re-encoded, rescaled and trimmed copies of a video, near-identical photos.
 * Pairs are found when an item is indexed (against the rest of its collection, through a {@link CandidateIndex}
 * kept per collection) and stored; deleting an item takes its pairs along (foreign keys). Groups are read from
 * the stored pairs.
 * @example
 * duplicates.itemStored(collection.pk, item.pk); // after indexing
 * duplicates.groups(caller, 'family', 0.8).groups[0].keep; // the media_id of the best copy
 */
export class DuplicateService {
  private readonly indexes = new Map<number, CandidateIndex>();
  /** Each collection's copies as search and explore read them, made on first use, dropped on a change. */
  private readonly copies = new Map<number, CopiesOf>();
  /** Looks read lately: a candidate is often compared again with the next item (copies come together). */
  private readonly looks = new LRUMapWithDelete<number, ItemLook | null>(4096);

  /**
   * @param isKeptUpload Whether an item's kept media (its `stored_file`) is an upload's only stored copy
   *   (analysis/item-files.ts), which deleting the item deletes.
   */
  constructor(
    private readonly store: Repos<'db' | 'items' | 'prints' | 'search'>,
    private readonly collections: CollectionService,
    private readonly isKeptUpload: (storedFile: string | null) => boolean,
  ) {}

  /** An item was stored (new or re-indexed): its pairs are found again. */
  itemStored(collectionPk: number, itemPk: number): void {
    this.looks.delete(itemPk);
    this.copies.delete(collectionPk);
    if (this.recheckIfStale(collectionPk)) return;
    const index = this.indexFor(collectionPk, itemPk);
    const look = this.look(itemPk);
    if (!look) return;
    const pairs = this.pairsOf(look, index);
    this.store.db.transaction(() => this.store.prints.replacePairsOf(itemPk, pairs, collectionPk))();
    index.add(look);
  }

  /** An item left the collection (deleted, or replaced by a re-index under a new row). */
  itemRemoved(collectionPk: number, itemPk: number): void {
    this.looks.delete(itemPk);
    this.copies.delete(collectionPk);
    this.indexes.get(collectionPk)?.remove(itemPk);
  }

  /** The collection is gone. */
  collectionRemoved(collectionPk: number): void {
    this.indexes.delete(collectionPk);
    this.copies.delete(collectionPk);
    this.store.prints.forgetChecks(collectionPk);
  }

  /**
   * Finds every pair of the collection from scratch (what indexing does item by item), e.g. after an upgrade.
   * @example
   * duplicates.rebuild(collection.pk); // { items: 10000, pairs: 512 }
   */
  rebuild(collectionPk: number): { items: number; pairs: number } {
    const index = new CandidateIndex();
    this.indexes.set(collectionPk, index);
    this.store.prints.clearPairs(collectionPk);
    let pairs = 0;
    const items = this.store.prints.comparableItems(collectionPk);
    for (const itemPk of items) {
      const look = this.look(itemPk);
      if (!look) continue;
      const found = this.pairsOf(look, index);
      pairs += found.length;
      if (found.length) this.store.db.transaction(() => this.store.prints.replacePairsOf(itemPk, found, collectionPk))();
      index.add(look);
    }
    this.store.prints.markChecked(collectionPk, COPY_RULES);
    return { items: items.length, pairs };
  }

  /** Finds the collection's pairs again when older rules found them; true when it did. */
  private recheckIfStale(collectionPk: number): boolean {
    if (this.store.prints.checkedBy(collectionPk) >= COPY_RULES) return false;
    this.rebuild(collectionPk);
    return true;
  }

  /** The collection's groups of copies (GET /collections/{id}/duplicates). */
  groups(caller: Caller, collectionId: string, threshold = DEFAULT_DUPLICATE_THRESHOLD): { groups: DuplicateGroup[] } {
    return { groups: this.groupsOf(this.collections.readable(caller, collectionId).pk, threshold) };
  }

  /**
   * Each item of a collection that has copies (by media_id) with the media_id of the copy its group keeps,
   * as GET …/duplicates groups them: what counts a video and its copies as one item (explore). Items
   * without copies are not in it.
   * @example
   * duplicates.copyGroups(collection.pk).get('beach-small'); // 'beach-hd'
   */
  copyGroups(collectionPk: number): ReadonlyMap<string, string> {
    return this.copiesOf(collectionPk).keepOf;
  }

  /**
   * For search: every item of the collection that has copies (by pk), with the group's kept copy and how its
   * times map onto the kept copy's, so a moment several copies share is shown once, as the kept copy's. An
   * item paired with the kept copy only through a third one is left out (its times have no direct mapping).
   * @example
   * duplicates.copiesIn(collection.pk).get(trimPk); // { lead: originalPk, offset: 3.3 }
   */
  copiesIn(collectionPk: number): ReadonlyMap<number, CopyOf> {
    return this.copiesOf(collectionPk).leads;
  }

  private groupsOf(collectionPk: number, threshold: number): DuplicateGroup[] {
    this.recheckIfStale(collectionPk);
    const pairs = this.store.prints.pairs(collectionPk, threshold);
    return groupPairs(pairs, this.copyItems(pairs));
  }

  /** The items of these pairs as grouping ranks them. */
  private copyItems(pairs: DuplicatePairRow[]): Map<number, CopyItem> {
    return new Map(this.store.items.byPks([...new Set(pairs.flatMap((p) => [p.a_pk, p.b_pk]))]).map((i) => [i.pk, this.copyItem(i)]));
  }

  /** The collection's copies at the default threshold, both ways search and explore read them; made once until the collection changes. */
  private copiesOf(collectionPk: number): CopiesOf {
    let copies = this.copies.get(collectionPk);
    if (copies) return copies;
    this.recheckIfStale(collectionPk);
    const pairs = this.store.prints.pairs(collectionPk, DEFAULT_DUPLICATE_THRESHOLD);
    const items = this.copyItems(pairs);
    copies = { leads: new Map(), keepOf: new Map() };
    for (const group of groupPairs(pairs, items)) {
      for (const i of group.items) copies.keepOf.set(i.media_id, group.keep);
      const lead = [...items.values()].find((i) => i.media_id === group.keep)!.pk;
      copies.leads.set(lead, { lead, offset: 0 });
      for (const p of pairs) {
        // offset: a time of a_pk plus it is the same moment in b_pk.
        if (p.b_pk === lead && items.has(p.a_pk)) copies.leads.set(p.a_pk, { lead, offset: p.offset });
        else if (p.a_pk === lead && items.has(p.b_pk)) copies.leads.set(p.b_pk, { lead, offset: -p.offset });
      }
    }
    this.copies.set(collectionPk, copies);
    return copies;
  }

  /** An item as grouping ranks it: its file's format from the source path or the stored upload's name. */
  private copyItem(row: ItemRow): CopyItem {
    const stored = row.src ? null : (this.store.search.analysisOf(row.pk)?.stored_file ?? null);
    const ext = extname((row.src ?? stored ?? '').split(/[?#]/)[0]!).slice(1).toLowerCase();
    return { ...row, format: ext || null, uploaded: row.src === null && this.isKeptUpload(stored) };
  }

  /** The pairs a new look makes with the items filed so far, each verified in full. */
  private pairsOf(look: ItemLook, index: CandidateIndex): Omit<DuplicatePairRow, 'collection_pk'>[] {
    const out = [];
    for (const [otherPk, offsets] of index.candidates(look)) {
      // An item replaced by a re-index (a new row) or deleted is no candidate, whatever the index still holds.
      if (!this.store.items.exists(otherPk)) {
        this.looks.delete(otherPk);
        index.remove(otherPk);
        continue;
      }
      const other = this.look(otherPk);
      if (!other) continue;
      const m: PairMatch | null = look.kind === 'image' ? comparePhotos(look, other) : compareVideos(look, other, offsets);
      if (!m) continue;
      const [a, b, overlapA, overlapB, offset] =
        look.itemPk < otherPk ? [look.itemPk, otherPk, m.overlapA, m.overlapB, m.offset] : [otherPk, look.itemPk, m.overlapB, m.overlapA, -m.offset];
      out.push({ a_pk: a, b_pk: b, similarity: m.similarity, overlap_a: overlapA, overlap_b: overlapB, offset });
    }
    return out;
  }

  /** The candidate index of a collection, filed with its items on first use (except `skip`, about to be compared). */
  private indexFor(collectionPk: number, skip: number): CandidateIndex {
    let index = this.indexes.get(collectionPk);
    if (!index) {
      index = new CandidateIndex();
      for (const itemPk of this.store.prints.comparableItems(collectionPk)) {
        if (itemPk === skip) continue;
        const look = this.look(itemPk);
        if (look) index.add(look);
      }
      this.indexes.set(collectionPk, index);
    }
    return index;
  }

  private look(itemPk: number): ItemLook | null {
    // get, not has: a read counts as a use. A look may be null (nothing to compare), so undefined means not read.
    const kept = this.looks.get(itemPk);
    if (kept !== undefined) return kept;
    const look = this.readLook(itemPk);
    this.looks.set(itemPk, look);
    return look;
  }

  /** What is compared of an item: its frame sequence and sound (video) or fingerprint (photo), and its on-screen words. */
  private readLook(itemPk: number): ItemLook | null {
    const item: ItemRow | undefined = this.store.items.byPk(itemPk);
    if (!item || item.type === 'audio') return null;
    const words = new Set(contentWords(this.store.search.episodesOfItem(itemPk).map((e) => e.screen_text).join(' ').toLowerCase()));
    const prints = this.store.prints.ofItem(itemPk).map(printOfRow);
    const none = { looks: null, keyframes: [], sound: null, words };
    if (item.type === 'image') {
      return prints[0] ? { ...none, itemPk, kind: 'image', duration: 0, fps: 1, hashes: new Uint32Array(0), photo: prints[0] } : null;
    }
    const seq = this.store.prints.sequenceOf(itemPk);
    if (!seq || seq.hashes.length < 8) return null;
    const hashes = new Uint32Array(seq.hashes.length / 4);
    for (let i = 0; i < hashes.length; i++) hashes[i] = seq.hashes.readUInt32BE(i * 4);
    const frames = hashes.length / 2;
    // Looks written for another number of frames than the hashes are not trusted (nothing writes them so).
    const looks = seq.looks && seq.looks.length === frames * LOOK_BYTES ? new Uint8Array(seq.looks) : null;
    const sound = seq.sound && seq.sound_fps ? { fps: seq.sound_fps, frames: new Uint8Array(seq.sound) } : null;
    return { itemPk, kind: 'video', duration: item.duration ?? frames / seq.fps, fps: seq.fps, hashes, looks, keyframes: prints, photo: null, words, sound };
  }
}
