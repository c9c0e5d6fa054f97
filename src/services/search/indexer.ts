import { msg, type Lang } from '../../messages/index.js';
import type { Store } from '../../store/index.js';
import type { PrintIndex } from './print-index.js';
import type { ItemRow } from '../../store/items.js';
import type { VectorKind } from '../../store/search-index.js';
import type { EpisodeText, StoredEpisodeText } from '../../store/text-index.js';
import { inTransaction } from '../../store/connection.js';
import { uuid7 } from '../../store/uuid7.js';
import { boundedAnalysis } from '../../analysis/limits.js';
import { belongsTo, owningSpans } from '../../analysis/spans.js';
import type { TimedPrint, EpisodeAnalysis, EpisodeVector, MediaAnalysis } from '../../analysis/types.js';
import { nowIso } from '../timestamps.js';
import type { Logger } from '../../logger.js';
import { Problem } from '../errors.js';
import { distinctWords, metadataText } from '../../tools/normalise.js';
import { indexText, textLanguage } from './stems.js';
import { signBits, toBlob, unit } from '../../tools/vectors.js';

/**
 * The media item fields indexing writes to the items row (SPEC 2.3): the row's own fields, metadata as an
 * object, the capture and folder fields optional, plus where the media file is kept.
 */
export type IndexedItem = Pick<ItemRow, 'media_id' | 'type' | 'title' | 'src' | 'thumbnail' | 'duration'> &
  Partial<Pick<ItemRow, 'captured_at' | 'captured_at_source' | 'latitude' | 'longitude' | 'place' | 'place_words' | 'folder_pk' | 'size'>> & {
    additional_metadata: Record<string, unknown> | null;
    /** The media file kept under the data dir (relative path), served by signed `/files/` links. */
    storedFile?: string | null;
  };

/** What storeItem wrote. */
export interface StoredItem {
  item: ItemRow;
  episodes: number;
  vectors: number;
  /** An earlier version of the item was replaced. */
  replaced: boolean;
}

/** An episode's rows, computed before the write transaction opens so the write lock is held briefly. */
interface PreparedEpisode {
  episode: EpisodeAnalysis;
  screenText: string[];
  tags: string[];
  segments: { kind: 'audio' | 'visual' | 'screen'; seq: number; start: number; end: number; text: string; ocr: string | null; tags: string | null }[];
  /** The episode's lines of the item's other subtitle tracks. */
  others: OtherLine[];
  text: EpisodeText;
  words: EpisodeText;
}

/** A line of another subtitle track (another language than the transcript's), in the episode it belongs to. */
interface OtherLine {
  language: string;
  seq: number;
  start: number;
  end: number;
  text: string;
}

const finite = (n: number, what: string): number => {
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new Error(`analysis: ${what} is not a finite number (${String(n)})`);
  return n;
};

/**
 * Each episode's lines of the other subtitle tracks, by episode index: a line belongs to the episode it
 * overlaps most, as a transcript line does, so it is found in the episode where it is said.
 */
function otherLinesByEpisode(analysis: MediaAnalysis): Map<number, OtherLine[]> {
  const out = new Map<number, OtherLine[]>();
  for (const track of analysis.subtitleTracks ?? []) {
    const owner = owningSpans(track.segments, analysis.episodes);
    const count = new Map<number, number>();
    track.segments.forEach((line, k) => {
      const e = analysis.episodes[owner[k]];
      if (!e || !line.text.trim()) return;
      const seq = count.get(e.index) ?? 0;
      count.set(e.index, seq + 1);
      const list = out.get(e.index) ?? [];
      list.push({ language: track.language, seq, start: finite(line.start, 'subtitle start'), end: finite(line.end, 'subtitle end'), text: line.text });
      out.set(e.index, list);
    });
  }
  return out;
}

function prepareEpisode(e: EpisodeAnalysis, analysis: MediaAnalysis, title: string, metadata: string, others: OtherLine[]): PreparedEpisode {
  const language = textLanguage(analysis.language);
  finite(e.start, `episode ${e.index} start`);
  finite(e.end, `episode ${e.index} end`);
  // On-screen text goes with the episode its shot mostly lies in, as the pipeline assigns visual entries.
  const screenEntries = analysis.screenText.filter((t) => belongsTo(t, e));
  const screenText = [...new Set([...e.visual.flatMap((v) => v.ocr), ...screenEntries.map((t) => t.text)].map((s) => s.trim()).filter(Boolean))];
  const tags = [...new Set(e.visual.flatMap((v) => v.tags).map((s) => s.trim()).filter(Boolean))];
  const transcript = e.audio.map((a) => a.text.trim()).filter(Boolean).join(' ');
  const segments: PreparedEpisode['segments'] = [
    ...e.audio.map((a, seq) => ({ kind: 'audio' as const, seq, start: finite(a.start, 'audio start'), end: finite(a.end, 'audio end'), text: a.text, ocr: null, tags: null })),
    ...e.visual.map((v, seq) => ({
      kind: 'visual' as const, seq, start: finite(v.start, 'visual start'), end: finite(v.end, 'visual end'),
      text: v.summary, ocr: JSON.stringify(v.ocr), tags: JSON.stringify(v.tags),
    })),
    ...screenEntries.map((t, seq) => ({ kind: 'screen' as const, seq, start: t.start, end: t.end, text: t.text, ocr: null, tags: null })),
  ];
  const raw: EpisodeText = { title, transcript, screen_text: screenText.join('\n'), tags: tags.join(', '), summary: e.summary, metadata };
  return { episode: e, screenText, tags, segments, others, ...tablesText(raw, language, others) };
}

/**
 * What the words table (stemmed in the item's language, umlauts also transliterated) and the parts table
 * (distinct words as written) get of an episode's text. The lines of other subtitle tracks join the
 * transcript column, each stemmed in its own track's language: a German line is found by German word
 * forms and ranks like a transcript line.
 */
function tablesText(raw: EpisodeText, language: Lang, others: readonly { language: string; text: string }[] = []): { text: EpisodeText; words: EpisodeText } {
  const map = (f: (s: string) => string) => Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, f(v)])) as unknown as EpisodeText;
  const text = map((v) => indexText(v, language));
  const words = map(distinctWords);
  if (others.length > 0) {
    text.transcript = [text.transcript, ...others.map((o) => indexText(o.text, textLanguage(o.language)))].filter(Boolean).join(' ');
    words.transcript = distinctWords([raw.transcript, ...others.map((o) => o.text)].join(' '));
  }
  return { text, words };
}

/** An episode's stored lines of other subtitle tracks, as tablesText takes them. */
function storedOthers(r: StoredEpisodeText): { language: string; text: string }[] {
  return (JSON.parse(r.others) as [string, string][]).map(([language, text]) => ({ language, text }));
}

/**
 * The item-level words of the metadata column: the owner's metadata and the names of the place it was
 * recorded at (both describe the whole item, so both rank like metadata).
 */
function describedBy(metadata: unknown, placeWords: string | null | undefined): string {
  return [metadataText(metadata), placeWords ?? ''].filter(Boolean).join('\n');
}

/** An episode's text rebuilt from its stored rows, as prepareEpisode built it when the item was stored. */
function storedText(r: StoredEpisodeText): EpisodeText {
  const audio = JSON.parse(r.audio) as string[];
  return {
    title: r.title ?? '',
    transcript: audio.map((a) => a.trim()).filter(Boolean).join(' '),
    screen_text: r.screen_text,
    tags: (JSON.parse(r.tags) as string[]).join(', '),
    summary: r.summary,
    metadata: describedBy(r.additional_metadata ? JSON.parse(r.additional_metadata) : null, r.place_words),
  };
}

/** Episodes removed per transaction when a collection is deleted: a few milliseconds of write lock each. */
const DELETE_BATCH = 100;

/** Episodes read per page while rebuilding a collection's text tables. */
const REBUILD_PAGE = 1000;

/** How often a rebuild says how far it is (a million episodes take minutes). */
const REBUILD_PROGRESS_MS = 10_000;

/** How a text rebuild reads and reports: episodes per page, and how often it says how far it is. */
export interface RebuildPace {
  progressEveryMs?: number;
  pageSize?: number;
}

/** The episode a vector belongs to: by its index, else by its time (the pipeline may not know the index). */
/** A print's columns: the 64-bit hash in two unsigned halves, the detail hash and colours as bytes. */
function printRow(p: TimedPrint): { time: number; hash_hi: number; hash_lo: number; detail: Buffer; colour: Buffer } {
  return { time: p.time, hash_hi: parseInt(p.hash.slice(0, 8), 16), hash_lo: parseInt(p.hash.slice(8, 16), 16), detail: Buffer.from(p.detail, 'hex'), colour: Buffer.from(p.colour) };
}

function episodeFor(v: EpisodeVector, episodes: EpisodeAnalysis[]): EpisodeAnalysis | undefined {
  const byIndex = episodes.find((e) => e.index === v.episodeIndex);
  if (byIndex) return byIndex;
  return episodes.find((e) => v.time >= e.start && v.time < e.end) ?? (episodes.length > 0 && v.time >= episodes[episodes.length - 1].end ? episodes[episodes.length - 1] : undefined);
}

/**
 * Writes analysed media into the search index: the items row, the item's analysis, episodes, segments,
 * the FTS tables and the vectors, all in one transaction, so a search sees the whole item or none of it.
 * Also the delete hooks that remove FTS rows and vectors (which no foreign key reaches).
 * @example
 * const index = new SearchIndex(store);
 * index.storeItem(collection.pk, { media_id: 'clip', type: 'video', title: 'Match', src: null, thumbnail: null,
 *   duration: 90, additional_metadata: null }, analysis, { replace: false });
 */
export class SearchIndex {
  private readonly storedListeners: Array<(collectionPk: number, itemPk: number) => void> = [];

  constructor(
    private readonly store: Store,
    /** The in-memory prints of image search, told when a collection's items change. */
    private readonly printIndex?: PrintIndex,
  ) {}

  /** Told after an item was stored and committed (duplicates are looked for then). */
  afterStore(listener: (collectionPk: number, itemPk: number) => void): void {
    this.storedListeners.push(listener);
  }

  /**
   * Stores one analysed item. With `replace`, an existing item of that media_id is removed with all its
   * index rows in the same transaction (its list position and created time are kept); without, an existing
   * item is a conflict.
   */
  storeItem(
    collectionPk: number,
    incoming: IndexedItem,
    given: MediaAnalysis,
    opts: { replace: boolean; /** More writes that commit or roll back with the item's (its face tracks). */ alsoWrite?: (item: ItemRow) => void },
  ): StoredItem {
    // What is stored is what a search may read back: bounded, whoever made the analysis (a worker too).
    const analysis = boundedAnalysis(given);
    // What the owner set by hand (PATCH …/items/{id}) outlives a re-index: a rescan or reindex keeps it.
    const before = opts.replace ? this.store.items.find(collectionPk, incoming.media_id) : undefined;
    const item: IndexedItem = {
      ...incoming,
      ...(before?.title_edited ? { title: before.title } : {}),
      ...(before?.metadata_edited ? { additional_metadata: before.additional_metadata ? (JSON.parse(before.additional_metadata) as Record<string, unknown>) : null } : {}),
    };
    const title = item.title ?? analysis.title ?? '';
    const metadata = describedBy(item.additional_metadata, item.place_words);
    const seen = new Set<number>();
    for (const e of analysis.episodes) {
      if (seen.has(e.index)) throw new Error(`analysis: episode index ${e.index} appears twice`);
      seen.add(e.index);
    }
    const others = otherLinesByEpisode(analysis);
    const episodes = analysis.episodes.map((e) => prepareEpisode(e, analysis, title, metadata, others.get(e.index) ?? []));
    const vectorSets = (
      [
        ['passage', analysis.passageVectors],
        ['frame', analysis.frameVectors],
      ] as const
    ).filter((x): x is [VectorKind, NonNullable<MediaAnalysis['passageVectors']>] => x[1] !== null && x[1].items.length > 0);
    for (const [kind, set] of vectorSets) {
      for (const v of set.items) {
        if (v.vector.length !== set.dims) throw new Error(`analysis: a ${kind} vector of ${set.model} has ${v.vector.length} dimensions, not ${set.dims}`);
        if (!v.vector.every(Number.isFinite)) throw new Error(`analysis: a ${kind} vector of ${set.model} holds a non-finite value`);
      }
    }

    this.printIndex?.invalidate(collectionPk);
    const stored = this.writeItem(collectionPk, item, analysis, opts, { episodes, vectorSets, before });
    for (const listener of this.storedListeners) listener(collectionPk, stored.item.pk);
    return stored;
  }

  /** The write transaction of {@link storeItem}. */
  private writeItem(
    collectionPk: number,
    item: IndexedItem,
    analysis: MediaAnalysis,
    opts: { replace: boolean; alsoWrite?: (item: ItemRow) => void },
    ready: { episodes: PreparedEpisode[]; vectorSets: [VectorKind, NonNullable<MediaAnalysis['passageVectors']>][]; before: ItemRow | undefined },
  ): StoredItem {
    const { episodes, vectorSets, before } = ready;
    const at = nowIso();
    const repo = this.store.search;
    return inTransaction(this.store.db, () => {
      const existing = this.store.items.find(collectionPk, item.media_id);
      if (existing && !opts.replace) throw new Problem('conflict', msg('media_item_exists', { id: item.media_id }));
      if (existing) {
        repo.deleteItem(existing.pk);
        this.store.items.delete(existing.pk);
      }
      const row = this.store.items.insert({
        cursor: existing?.cursor ?? uuid7(),
        collection_pk: collectionPk,
        media_id: item.media_id,
        type: item.type,
        title: item.title,
        src: item.src,
        thumbnail: item.thumbnail,
        duration: item.duration ?? analysis.duration,
        additional_metadata: item.additional_metadata ? JSON.stringify(item.additional_metadata) : null,
        created_at: existing?.created_at ?? at,
        updated_at: at,
        captured_at: item.captured_at ?? null,
        captured_at_source: item.captured_at_source ?? null,
        latitude: item.latitude ?? null,
        longitude: item.longitude ?? null,
        place: item.place ?? null,
        place_words: item.place_words ?? null,
        folder_pk: item.folder_pk ?? existing?.folder_pk ?? null,
        title_edited: before?.title_edited ?? 0,
        metadata_edited: before?.metadata_edited ?? 0,
        size: item.size ?? null,
        width: analysis.width ?? null,
        height: analysis.height ?? null,
      });
      repo.insertAnalysis({
        item_pk: row.pk,
        summary: analysis.summary,
        duration: analysis.duration,
        language: analysis.language,
        transcript_source: analysis.transcriptSource,
        stored_file: item.storedFile ?? null,
        warnings: JSON.stringify(analysis.warnings),
        indexed_at: at,
        // The face stage ran (faces may be empty); null means it did not look.
        faces_scanned: analysis.faces ? 1 : 0,
        // An analysis from before every track was kept says nothing: null reads as its transcript's language alone.
        subtitle_languages: analysis.subtitleLanguages ? JSON.stringify(analysis.subtitleLanguages) : null,
      });
      const pkByIndex = new Map<number, number>();
      for (const p of episodes) {
        const e = p.episode;
        const pk = repo.insertEpisode({
          item_pk: row.pk,
          collection_pk: collectionPk,
          idx: e.index,
          start: e.start,
          end: e.end,
          summary: e.summary,
          thumbnail: e.thumbnail,
          thumbnail_time: Number.isFinite(e.thumbnailTime) ? e.thumbnailTime : null,
          screen_text: p.screenText.join('\n'),
          tags: JSON.stringify(p.tags),
          pictures: e.pictures?.length ? JSON.stringify(e.pictures) : null,
        });
        pkByIndex.set(e.index, pk);
        for (const s of p.segments) repo.insertSegment({ episode_pk: pk, ...s });
        for (const o of p.others) this.store.subtitles.insert({ episode_pk: pk, ...o });
        this.store.text.insertText(collectionPk, pk, p.text, p.words);
      }
      let vectors = 0;
      for (const [kind, set] of vectorSets) {
        const space = repo.space(kind, set.model, set.dims, at);
        for (const v of set.items) {
          const episode = episodeFor(v, analysis.episodes);
          if (!episode) continue;
          const u = unit(v.vector);
          repo.insertVector(space, { episode_pk: pkByIndex.get(episode.index)!, collection_pk: collectionPk, time: v.time, embedding: toBlob(u) }, signBits(u));
          vectors++;
        }
      }
      this.storeSequence(row.pk, collectionPk, analysis);
      for (const print of analysis.framePrints ?? []) {
        const episode = episodeFor({ episodeIndex: -1, time: print.time, vector: new Float32Array(0) }, analysis.episodes) ?? analysis.episodes[0];
        if (episode) this.store.prints.insert({ ...printRow(print), episode_pk: pkByIndex.get(episode.index)!, item_pk: row.pk, collection_pk: collectionPk });
      }
      opts.alsoWrite?.(row);
      return { item: row, episodes: episodes.length, vectors, replaced: existing !== undefined };
    });
  }

  /** A video's dense frames, their looks and its sound print, which duplicates compare. */
  private storeSequence(itemPk: number, collectionPk: number, analysis: MediaAnalysis): void {
    const seq = analysis.frameSequence;
    if (!seq?.hashes) return;
    const sound = analysis.soundPrint ?? null;
    this.store.prints.putSequence(itemPk, collectionPk, {
      fps: seq.fps,
      hashes: Buffer.from(seq.hashes, 'hex'),
      looks: seq.looks ? Buffer.from(seq.looks, 'hex') : null,
      sound_fps: sound?.fps ?? null,
      sound: sound ? Buffer.from(sound.frames, 'hex') : null,
    });
  }

  /**
   * Fills the text tables of collections whose text waits for a rebuild (after a migration that changed
   * them) from the stored items, episodes and segments. One transaction per collection: a crash leaves the
   * collection marked and the next start rebuilds it again. Runs at start, before the server answers, so
   * it says what it does: once at the start (how many episodes), every `progressEveryMs` within a
   * collection (how far), and when each collection is done. Returns the number of episodes rebuilt.
   * @example
   * searchIndex.rebuildText(log); // logs "rebuilding the text index: 1000000 episodes in 1 collection(s) …"
   */
  rebuildText(log: Logger = () => {}, opts: RebuildPace = {}): number {
    const repo = this.store.text;
    const pending = repo.pendingRebuilds().map((pk) => ({ pk, episodes: repo.storedTextCount(pk) }));
    if (pending.length === 0) return 0;
    const episodes = pending.reduce((sum, c) => sum + c.episodes, 0);
    log(`rebuilding the text index: ${episodes} episodes in ${pending.length} collection(s) (after an upgrade, or a rebuild cut short); the server answers once it is done`, { collections: pending.length, episodes });
    let total = 0;
    for (const c of pending) {
      const t0 = Date.now();
      const n = inTransaction(this.store.db, () => this.rebuildCollection(c, log, { progressEveryMs: REBUILD_PROGRESS_MS, pageSize: REBUILD_PAGE, ...opts }));
      total += n;
      const ms = Date.now() - t0;
      log(`rebuilt the text index of collection ${c.pk}: ${n} episodes in ${ms} ms`, { collection_pk: c.pk, episodes: n, ms });
    }
    return total;
  }

  /** One collection's rebuild, in the caller's transaction, with a progress line every `progressEveryMs`. */
  private rebuildCollection(c: { pk: number; episodes: number }, log: Logger, pace: Required<RebuildPace>): number {
    const repo = this.store.text;
    repo.startRebuild(c.pk);
    let count = 0;
    let said = Date.now();
    for (let after = 0; ; ) {
      const page = repo.storedTexts(c.pk, after, pace.pageSize);
      if (page.length === 0) break;
      for (const r of page) {
        const { text, words } = tablesText(storedText(r), textLanguage(r.language), storedOthers(r));
        repo.insertRebuilt(c.pk, r.pk, text, words);
      }
      count += page.length;
      after = page[page.length - 1].pk;
      if (Date.now() - said >= pace.progressEveryMs && count < c.episodes) {
        said = Date.now();
        const percent = Math.floor((100 * count) / Math.max(c.episodes, 1));
        log(`rebuilding the text index of collection ${c.pk}: ${count} of ${c.episodes} episodes (${percent} %)`, { collection_pk: c.pk, done: count, episodes: c.episodes, percent });
      }
    }
    repo.finishRebuild(c.pk);
    return count;
  }

  /**
   * Writes an item's searchable text again from its stored rows (after its title or metadata changed), in
   * the caller's transaction.
   */
  retextItem(collectionPk: number, itemPk: number): void {
    const repo = this.store.text;
    const rows = repo.storedTextsOfItem(itemPk);
    repo.deleteRows(collectionPk, rows.map((r) => r.pk));
    for (const r of rows) {
      const { text, words } = tablesText(storedText(r), textLanguage(r.language), storedOthers(r));
      repo.insertText(collectionPk, r.pk, text, words);
    }
  }

  /** Item delete hook (ItemService.onDelete): runs inside the delete transaction. */
  removeItem(item: ItemRow): void {
    this.printIndex?.invalidate(item.collection_pk);
    this.store.search.deleteItem(item.pk);
  }

  /**
   * Collection delete hook (CollectionService.onDelete): removes one batch of the collection's index rows
   * inside the caller's transaction; true while more remains.
   */
  removeCollection(collectionPk: number): boolean {
    this.printIndex?.invalidate(collectionPk);
    return this.store.search.deleteCollectionSome(collectionPk, DELETE_BATCH) > 0;
  }
}
