import { msg, type Lang } from '../../messages/index.js';
import type { Repos } from '../../store/index.js';
import { fold } from '../../tools/fold.js';
import type { ItemRow } from '../../store/items.js';
import type { CollectionRow } from '../../store/collections.js';
import type { NearFilter } from '../../store/item-filter.js';
import type { EpisodeWithItem, ItemFilter, SearchIndexRepository, VectorKind, VectorSpaceRow } from '../../store/search-index.js';
import type { Caller } from '../caller.js';
import type { CollectionService } from '../collections.js';
import { notFound, Problem } from '../errors.js';
import type { FileLinks } from '../file-links.js';
import type { QueryEmbedder, QueryVector } from './embedder.js';
import { fuse, type Fused, type RankedList, type TimedList } from './fusion.js';
import { matchTerms, scoreLine, type MatchTerm } from './moments.js';
import { correctedWords, foundByItemOnly, rankByLines, type LinedCandidate } from './ranking.js';
import { DEPTHS, depthFor, FUSION, VECTORS, WORD_RANKING } from './ranking-knobs.js';
import { parseQuery, withCorrections, type ParsedQuery } from './query.js';
import { TypoCorrector, type TypoFix } from './typos.js';
import { decodeQueryImage, likeProbe, pictureProbe, printList, type LikeMoment, type PictureProbe } from './picture-query.js';
import type { PrintIndex } from './print-index.js';
import type { RgbPicture } from '../../media/perceptual.js';
import { bestLine, episodeLines, itemWords, mergeCopies, mergeMoments, placeText, shapeResult, type SearchResult } from './results.js';
import type { CopyOf } from '../duplicates/service.js';
import { dot, fromBlob, signBits, unit } from '../../tools/vectors.js';
import type { SearchAnswer } from './answer.js';
import type { SearchGaps } from './gaps.js';
import { searchNotices } from './notices.js';
import { correctedQuery } from '../../tools/corrected-query.js';
import { placeIn, withPlaceIn } from '../places.js';
import { systemClock, type WallClock } from '../timestamps.js';
import { readQuery, type PlaceLookup, type QueryReading } from './understand.js';
import { dayBounds } from './date-words.js';
import { LRUMap } from 'mnemonist';

/** Collections whose place words are kept between searches. */
const PLACE_WORDS_KEPT = 64;

/** POST /search input (validated by the HTTP layer). */
export interface SearchRequest {
  /** Words to find; at least one of query, image and like is given. */
  query?: string;
  /** A query picture's bytes (a file part the request named in `image`): moments that look like it. */
  image?: Uint8Array;
  /** The request field the picture came from, named when it does not decode (default `image`). */
  image_field?: 'image' | 'image_path';
  /** A moment of the collection: moments like it, never itself. */
  like?: LikeMoment;
  collection: string;
  limit: number;
  media_id?: string;
  /** Only episodes this person is seen in (vidx extra, issue 17). */
  person_id?: string;
  /** Only episodes where this person speaks: a person id or name (vidx extra, issue 45). */
  speaker?: string;
  threshold: number;
  /** Also find another owner's public collection (search_public_collections). */
  public?: boolean;
  /** vidx extras: only items of this type, captured in this span (ISO 8601, inclusive), found in this folder. */
  media_type?: 'video' | 'audio' | 'image';
  captured_after?: string;
  captured_before?: string;
  folder_id?: string;
  /** Only items recorded near a place: a city, region, country or `latitude,longitude` (see PlaceService.nearFilter). */
  near?: string;
  /** The radius around a city or point, in km. */
  near_km?: number;
  /** The language of the answer's notices (vidx extra; default en). */
  search_language?: Lang;
  /** false: search the words as given, never as the collection's nearest words (vidx extra; default true). */
  correct_typos?: boolean;
  /** false: take a date or place in the words as words, never as filters (vidx extra; default true). */
  understand?: boolean;
}

/** A query vector in the vector space it was made for. */
export type SpaceQuery = { space: VectorSpaceRow; query: QueryVector };

/** What a search gathers before its synchronous part: what may wait on models, the index or another thread. */
interface AskedFirst {
  /** The vector spaces the collection holds vectors of (with an embedder). */
  spaces: VectorSpaceRow[];
  /** The query's words as vectors, per space. */
  vectors: SpaceQuery[];
  /** The query picture, decoded and embedded. */
  probe: PictureProbe | null;
  /** Each query vector's nearest candidates by space id (null: the index is being built). */
  nearest: ReadonlyMap<number, number[] | null>;
  /** The collection's items that have copies. */
  copies: ReadonlyMap<number, CopyOf>;
  /** The word lists when they were read while the vectors were made (undefined: not read yet). */
  words?: WordLists | null;
}

/** A query's word lists, the query as corrected, and the corrections kept. */
interface WordLists {
  query: ParsedQuery;
  text: TextLists;
  fixes: TypoFix[];
}

/** Whether a request keeps only some items (type, dates, folder or place): vector neighbours are then fetched deeper. */
const hasItemFilter = (req: SearchRequest, near: NearFilter | null) => Boolean(req.media_type || req.captured_after || req.captured_before || req.folder_id || near);

/**
 * Anything that answers POST /search: the request thread's SearchService, or the search threads in front of it.
 * @example
 * const { results } = await searcher.search(caller, { query: 'penalty', collection: 'matches', limit: 10, threshold: 0 });
 */
export interface Searcher {
  search(caller: Caller, req: SearchRequest): Promise<SearchAnswer>;
  /** The answer as JSON text (what POST /search sends): a search thread writes it, so the request thread only passes it on. */
  searchText(caller: Caller, req: SearchRequest): Promise<string>;
}

/** Lists whose episodes may have a line holding a query word (own text, as words or word parts). */
const WORD_LISTS = new Set(['words', 'trigram']);

/** Where one search looks: the collection, the filters, how deep each list goes, one item or all. */
interface ListScope {
  collectionPk: number;
  filter: ItemFilter | null;
  depth: number;
  item: ItemRow | null;
  limit: number;
}

/** The word lists of a query, and whether some episode holds all its words. */
interface TextLists {
  lists: RankedList[];
  allMatched: boolean;
}

/** How far a query's words meet the collection: 2 all together in one episode, 1 some, 0 none. */
const matchLevel = (text: TextLists) => (text.allMatched ? 2 : text.lists.some((l) => l.pks.length > 0) ? 1 : 0);

/**
 * The vector pks to re-score for a query: the nearest few the collection's HNSW index finds when it is
 * ready (0.1–1 ms from 2,000 to 100,000 vectors), else from the sharded sign-bit scan while the index is
 * being rebuilt; how many of each is VECTORS in ranking-knobs.ts. The sharded KNN keeps the bit pass near
 * the cost of one for 50 candidates (migration 004).
 * @example
 * nearestCandidates(store.search, space, collectionPk, unitQuery, 10); // [vector pks…]
 */
export function nearestCandidates(
  repo: SearchIndexRepository,
  space: VectorSpaceRow,
  collectionPk: number,
  query: Float32Array,
  limit: number,
  /** The index's answer when already asked (a search thread asks the request thread's index); null while it builds. */
  approx: number[] | null = repo.nearestApprox(space, collectionPk, query, depthFor(VECTORS.approx, limit)),
): number[] {
  if (approx) return approx.slice(0, depthFor(VECTORS.rescored, limit));
  const small = repo.countVectors(collectionPk, space.id, VECTORS.smallSet + 1) <= VECTORS.smallSet;
  return repo.nearestBits(space, collectionPk, signBits(query), depthFor(small ? VECTORS.coarseSmall : VECTORS.coarse, limit)).map((r) => r.pk);
}

/** `first`, then (only when it is short of `depth`) what `more` finds that `first` lacks, up to `depth`. */
function fillUp(first: number[], more: () => number[], depth: number): number[] {
  if (first.length >= depth) return first;
  const out = [...first];
  const have = new Set(first);
  for (const pk of more()) {
    if (out.length >= depth) break;
    if (!have.has(pk)) {
      have.add(pk);
      out.push(pk);
    }
  }
  return out;
}

/**
 * Fused candidates ranked by their lines: with several words the lists' depth, with one the page and its
 * spares (DEPTHS in ranking-knobs.ts says why).
 */
const candidatePool = (limit: number, words: number) => (words > 1 ? depthFor(DEPTHS.list, limit) : limit + DEPTHS.spares);

function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

/** A query's vectors, and each one's nearest stored vectors (see SearchService.vectorsFor). */
export interface AskedVectors {
  /** The query as a vector of each space whose model made one. */
  vectors: SpaceQuery[];
  /** Per space id, the pks of the nearest stored vectors from the HNSW index (null while it is being built). */
  nearest: Map<number, number[] | null>;
}

/** Makes a query's vectors in these spaces of a collection and looks up `k` nearest of each (none when k is null). */
export type QueryVectors = (query: string, spaces: VectorSpaceRow[], collectionPk: number, k: number | null) => Promise<AskedVectors>;

/** What a search asks beyond the store; each may answer from another thread (a search thread asks the request thread). */
export interface SearchHelpers {
  /** The query embedder; without it, words only. */
  embedder?: QueryEmbedder | null;
  /** What the answer's notices are made from; none without it. */
  gaps?: SearchGaps | null;
  /** Turns a `near` value into a filter (the gazetteer's place names); without it `near` is refused. */
  nearFilter?: (near: string, km?: number) => Promise<NearFilter>;
  /** The collection's items that have copies, each with its kept copy and how its times map onto it (duplicates). */
  copiesIn?: (collectionPk: number) => ReadonlyMap<number, CopyOf> | Promise<ReadonlyMap<number, CopyOf>>;
  /**
   * The query's vectors and their nearest stored ones (default: vectorsFor, with `embedder` and the store's own
   * index); a search thread asks the request thread, where the embedder and the indexes are.
   */
  queryVectors?: QueryVectors | null;
  /** Today, for dates said relative to it ("last summer"). */
  time?: WallClock;
}

interface SemanticHit {
  episodePk: number;
  time: number;
  similarity: number;
}

/**
 * Hybrid search over one collection: the FTS5 tables (bm25 with column weights) and, when a query
 * embedder is given and the collection has vectors, passage and frame vectors (sign-bit KNN in sqlite-vec,
 * re-scored with the stored floats), fused by reciprocal rank per episode.
 * @example
 * const { results } = await search.search(caller, { query: 'penalty', collection: 'matches', limit: 10, threshold: 0 });
 */
export class SearchService implements Searcher {
  private readonly embedder: QueryEmbedder | null;
  private readonly gaps: SearchGaps | null;
  private readonly nearFilter: SearchHelpers['nearFilter'] | null;
  private readonly copiesIn: SearchHelpers['copiesIn'] | null;
  private readonly queryVectors: QueryVectors | null;
  private readonly time: WallClock;

  constructor(
    private readonly store: Repos<'faces' | 'folders' | 'items' | 'prints' | 'search' | 'subtitles' | 'text' | 'voices'>,
    private readonly collections: CollectionService,
    private readonly links: FileLinks,
    private readonly printIndex: PrintIndex,
    helpers: SearchHelpers = {},
  ) {
    this.typos = new TypoCorrector(store.text);
    this.embedder = helpers.embedder ?? null;
    this.gaps = helpers.gaps ?? null;
    this.nearFilter = helpers.nearFilter ?? null;
    this.copiesIn = helpers.copiesIn ?? null;
    this.time = helpers.time ?? systemClock;
    this.queryVectors = helpers.queryVectors !== undefined ? helpers.queryVectors : this.embedder ? (query, spaces, collectionPk, k) => this.vectorsFor(query, spaces, collectionPk, k) : null;
  }

  private readonly typos: TypoCorrector;

  /**
   * The folded place words of a collection, with the text tables' generation they were read at: an item's place
   * words change only with its text (stored, re-texted after a place look-up, removed), so a new generation
   * means read again. Reading them is a scan of the collection's items, too much for every search.
   */
  private readonly placeWordSets = new LRUMap<number, { generation: number; words: ReadonlySet<string> }>(PLACE_WORDS_KEPT);

  async searchText(caller: Caller, req: SearchRequest): Promise<string> {
    return JSON.stringify(await this.search(caller, req));
  }

  async search(caller: Caller, req: SearchRequest): Promise<SearchAnswer> {
    // A collection the key may not read is a 404 before anything in the request is looked at.
    this.collections.readable(caller, req.collection, { public: req.public ?? false });
    const asked = req.near !== undefined ? await this.near(req.near, req.near_km) : null;
    const reading = req.query && req.understand !== false ? await this.understand(caller, req, asked === null) : null;
    if (!reading) return this.searchWith(caller, req, asked, false);
    const { understood } = reading;
    const bounds = understood.from && understood.to ? dayBounds({ from: understood.from, to: understood.to }) : null;
    const filtered: SearchRequest = {
      ...req,
      // With no words left, a place is also searched as its words (inside its own filter): items found by it
      // open where their place is said ("Lisbon, Portugal"), the rest of what was recorded there follows.
      query: understood.words || (reading.near ? (understood.place ?? undefined) : undefined),
      ...(bounds ? { captured_after: latest(req.captured_after, bounds.after), captured_before: earliest(req.captured_before, bounds.before) } : {}),
    };
    const answer = await this.searchWith(caller, filtered, asked ?? reading.near, !understood.words);
    const typed = await this.typedMatches(caller, req, asked);
    const results = withTypedMatches(answer.results, typed, req.limit);
    const corrected = answer.corrected.length > 0 && req.query ? { searched_query: correctedQuery(req.query, answer.corrected), original_query: req.query } : {};
    return { ...answer, ...corrected, results, understood };
  }

  /**
   * A date and a place of the collection in the query's words (understand.ts); null when it says neither.
   * Places are read only when the request names none itself (`near`).
   */
  private async understand(caller: Caller, req: SearchRequest, places: boolean): Promise<QueryReading | null> {
    const collection = this.collections.readable(caller, req.collection, { public: req.public ?? false });
    return readQuery(req.query!, this.time.now(), places ? this.placeLookup(collection.pk) : null);
  }

  /** The collection's places as a query may name them; a name filters only where items were recorded near it. */
  private placeLookup(collectionPk: number): PlaceLookup | null {
    const nearFilter = this.nearFilter;
    if (!nearFilter) return null;
    const generation = this.store.text.generation(collectionPk);
    let kept = this.placeWordSets.get(collectionPk);
    if (kept?.generation !== generation) {
      kept = { generation, words: new Set(this.store.items.placeWords(collectionPk).flatMap((w) => fold(w).split(/\s+/))) };
      this.placeWordSets.set(collectionPk, kept);
    }
    return {
      words: kept.words,
      filterOf: async (name) => {
        const near = await nearFilter(name).catch((err: unknown) => {
          if (err instanceof Problem) return null; // a name the gazetteer does not know is a word
          throw err;
        });
        return near && this.store.search.hasItems(collectionPk, { type: null, after: null, before: null, folderPk: null, near }) ? near : null;
      },
    };
  }

  /**
   * Moments whose text holds every word as typed, outside the understood filters (the request's own still
   * apply): a video where someone says "2019" is found by "2019" though it was recorded in 2023. Only for a
   * search by words alone (no picture, moment, person or speaker, whose lists these would bypass).
   */
  private async typedMatches(caller: Caller, req: SearchRequest, asked: NearFilter | null): Promise<SearchResult[]> {
    if (!req.query || req.image || req.like || req.person_id !== undefined || req.speaker !== undefined) return [];
    const q = parseQuery(req.query);
    if (!q.all) return [];
    const copies = await this.copiesOf(this.collections.readable(caller, req.collection, { public: req.public ?? false }).pk);
    return this.store.search.onOneView(() => {
      const collection = this.collections.readable(caller, req.collection, { public: req.public ?? false });
      const item = req.media_id !== undefined ? (this.store.items.find(collection.pk, req.media_id) ?? null) : null;
      const filter = this.itemFilter(req, collection.pk, asked);
      const pks = this.store.text.matchWords(q.all!, collection.pk, { limit: depthFor(DEPTHS.list, req.limit), itemPk: item?.pk ?? null, filter, columns: 'all', ranking: WORD_RANKING }).map((h) => h.pk);
      return this.shape(fuse([{ name: 'words', weight: FUSION.weights.words, pks }]), new Map(), q, { collectionPk: collection.pk, copies }, req, null).map((r) => withPlaceIn(r, req.search_language ?? 'en'));
    });
  }

  /** The collection's items that have copies (none without the duplicates helper). */
  private async copiesOf(collectionPk: number): Promise<ReadonlyMap<number, CopyOf>> {
    return (await this.copiesIn?.(collectionPk)) ?? new Map();
  }

  /** One search with its filters resolved; `listing`: no words are left, so every item the filters keep is listed. */
  private async searchWith(caller: Caller, req: SearchRequest, near: NearFilter | null, listing: boolean): Promise<SearchAnswer> {
    const collectionPk = this.collections.readable(caller, req.collection, { public: req.public ?? false }).pk;
    const spaces = this.queryVectors ? this.store.search.spaces().filter((s) => this.store.search.hasVectors(collectionPk, s.id)) : [];
    const vectorLimit = hasItemFilter(req, near) ? req.limit * DEPTHS.filteredVectors : req.limit;
    const vectorsAsked = req.query && spaces.length && this.queryVectors ? this.queryVectors(req.query, spaces, collectionPk, req.media_id === undefined ? vectorLimit : null) : null;
    // The word lists are read while the query's vectors are made (a model's run; on a search thread, the request
    // thread's answer), on a view of their own: an episode removed before the later view is only left out.
    let words: WordLists | null | undefined;
    if (vectorsAsked) {
      // A Problem of the reads below (an unknown item or folder) leaves the vectors unawaited.
      vectorsAsked.catch(() => undefined);
      words = this.store.search.onOneView(() => this.wordsOf(req, this.scopeOf(caller, req, near).scope));
    }
    const { vectors, nearest } = vectorsAsked ? await vectorsAsked : { vectors: [], nearest: new Map<number, number[] | null>() };
    const picture = req.image ? await decodeQueryImage(req.image, req.image_field) : null;
    const pictureVectors = picture ? await this.embedPicture(picture, spaces) : [];
    const asked: AskedFirst = {
      spaces,
      vectors,
      probe: picture ? { ...pictureProbe(picture), vectors: new Map(pictureVectors.map((v) => [v.space.id, v.query.vector])) } : null,
      nearest,
      copies: await this.copiesOf(collectionPk),
      words,
    };
    // From here on everything is synchronous and on one committed view of the database: no half-written item.
    return this.store.search.onOneView(() => this.answer(caller, req, near, listing, asked));
  }

  /**
   * A query's vectors in these spaces (the embedder's) and, unless `limit` is null, the candidates of each from
   * the collection's nearest-vector index, for a search of `limit` results: what a search asks before its
   * synchronous part, and what a search thread asks the request thread for in one message.
   * @example
   * const { vectors, nearest } = await search.vectorsFor('sunset at the lake', spaces, collectionPk, 10);
   */
  async vectorsFor(query: string, spaces: VectorSpaceRow[], collectionPk: number, limit: number | null): Promise<AskedVectors> {
    const vectors = await this.embedQuery(query, spaces);
    const nearest = new Map<number, number[] | null>();
    if (limit !== null) for (const v of vectors) nearest.set(v.space.id, this.store.search.nearestApprox(v.space, collectionPk, unit(v.query.vector), depthFor(VECTORS.approx, limit)));
    return { vectors, nearest };
  }

  /** The lists of one search, fused and shaped into its answer (synchronous: see searchWith). */
  private answer(caller: Caller, req: SearchRequest, near: NearFilter | null, listing: boolean, asked: AskedFirst): SearchAnswer {
    const { collection, item, scope } = this.scopeOf(caller, req, near);
    const probes: PictureProbe[] = asked.probe ? [asked.probe] : [];
    if (req.like) probes.push(likeProbe(this.store, collection.pk, req.like, asked.spaces.filter((sp) => sp.kind === 'frame')));
    const lists: RankedList[] = [];
    const frameTimes = new Map<number, number>();
    const add = (timed: TimedList) => {
      lists.push(timed.list);
      for (const [pk, t] of timed.times) if (!frameTimes.has(pk)) frameTimes.set(pk, t);
    };
    const words = asked.words !== undefined ? asked.words : this.wordsOf(req, scope);
    const q = words?.query ?? null;
    for (const list of words?.text.lists ?? []) lists.push(list);
    for (const kind of ['passage', 'frame'] as const) {
      const ofKind = asked.vectors.filter((v) => v.space.kind === kind);
      if (ofKind.length) add(this.vectorList(kind, ofKind, scope, null, asked.nearest));
    }
    for (const probe of probes) for (const timed of this.probeLists(probe, asked.spaces, scope)) add(timed);
    if (listing && scope.filter) lists.push({ name: 'recorded', weight: FUSION.weights.words, pks: this.store.search.firstEpisodesRecorded(collection.pk, scope.filter, scope.depth, item?.pk ?? null) });
    const excluded = new Set(probes.map((p) => p.exclude).filter((pk): pk is number => pk !== null));

    // The people a `speaker` names, looked up once: they keep the episodes and, in them, the lines.
    const speakers = req.speaker !== undefined ? this.speakers(collection.pk, req.speaker) : null;
    const only = this.addPeople(lists, collection.pk, req, scope.depth, item?.pk ?? null, speakers);
    // A few spare hits, so merging neighbours that share a moment still fills the page.
    const fused = fuse(lists)
      .filter((f) => f.score > 0 && (!only || only.has(f.pk)) && !excluded.has(f.pk))
      .slice(0, candidatePool(req.limit, q ? q.terms.length + q.phrases.length : 0));
    const results = this.shape(fused, frameTimes, q, { collectionPk: collection.pk, copies: asked.copies }, req, speakers ? this.store.voices.labelsOf(speakers) : null).map((r) => withPlaceIn(r, req.search_language ?? 'en'));
    const gaps = this.gaps?.of({ collectionPk: collection.pk, itemPk: item?.pk ?? null, words: Boolean(q?.all), framesSearched: asked.vectors.some((v) => v.space.kind === 'frame') });
    const corrected = words?.fixes.length ? correctedWords(words.fixes, results) : [];
    const notices = gaps ? searchNotices(gaps, req.search_language ?? 'en') : [];
    if (!req.query || corrected.length === 0) return { results, notices, corrected, searched_query: null, original_query: null };
    return { results, notices, corrected, searched_query: correctedQuery(req.query, corrected), original_query: req.query };
  }

  /** Where a search looks: its collection, the item of `media_id` (a 404 when unknown) and the filters. */
  private scopeOf(caller: Caller, req: SearchRequest, near: NearFilter | null): { collection: CollectionRow; item: ItemRow | null; scope: ListScope } {
    const collection = this.collections.readable(caller, req.collection, { public: req.public ?? false });
    let item: ItemRow | null = null;
    if (req.media_id !== undefined) {
      item = this.store.items.find(collection.pk, req.media_id) ?? null;
      if (!item) throw notFound('media item', req.media_id);
    }
    const scope: ListScope = { collectionPk: collection.pk, filter: this.itemFilter(req, collection.pk, near), depth: depthFor(DEPTHS.list, req.limit), item, limit: req.limit };
    return { collection, item, scope };
  }

  /** The request's word lists, or null without words. */
  private wordsOf(req: SearchRequest, scope: ListScope): WordLists | null {
    return req.query ? this.wordLists(parseQuery(req.query), scope, scope.collectionPk, req.correct_typos ?? true) : null;
  }

  /**
   * The word lists of a query, with its misspelt words corrected where that helps. Typos are looked for only
   * when the words together matched nothing (a query whose words all occur somewhere has none to correct,
   * and most queries are spared the vocabulary look-ups), and a correction is kept only when the query then
   * finds more: all its words together where no moment held them all, or any moment where none matched.
   * A word is not read as another just because the collection holds that one somewhere apart from the rest.
   */
  private wordLists(typed: ParsedQuery, scope: ListScope, collectionPk: number, correct: boolean): WordLists {
    let text = this.textLists(typed, scope);
    let query = typed;
    const fixes: TypoFix[] = [];
    if (!correct || text.allMatched) return { query, text, fixes };
    for (const fix of this.typos.correct(typed, collectionPk).corrections) {
      const tried = withCorrections(typed, new Map([...fixes, fix].map((f) => [f.from, f.stems])));
      const got = this.textLists(tried, scope);
      if (matchLevel(got) <= matchLevel(text)) continue;
      fixes.push(fix);
      query = tried;
      text = got;
    }
    return { query, text, fixes };
  }

  /** Fused episodes as SPEC 2.7 results: ranked by the line each says best, one per moment, with the people seen in each. */
  private shape(fused: Fused[], frameTimes: Map<number, number>, q: ParsedQuery | null, where: { collectionPk: number; copies: ReadonlyMap<number, CopyOf> }, req: SearchRequest, spokenBy: Map<number, Set<number>> | null): SearchResult[] {
    if (fused.length === 0) return [];
    const { collectionPk } = where;
    const episodes = new Map(this.store.search.episodesWithItems(fused.map((f) => f.pk)).map((e) => [e.pk, e]));
    const terms = q ? matchTerms(q) : [];
    // Only an episode a word list found can have a line with a query word: the lines of the others (found
    // by vectors, people or pictures alone) are read for the page only.
    const worded = terms.length ? fused.filter((f) => f.via.some((v) => WORD_LISTS.has(v))).map((f) => f.pk) : [];
    const segments = groupBy(this.store.search.segmentsOf(worded).filter((s) => !spokenBy || saidBy(s, episodes.get(s.episode_pk), spokenBy)), (s) => s.episode_pk);
    // Lines of other subtitle languages are matched too, so a German word finds the German line's moment
    // (not under a speaker filter: those lines carry no speaker).
    const others = groupBy(spokenBy ? [] : this.store.subtitles.of(worded), (l) => l.episode_pk);
    const titleWords = new Map<number, number>();
    const lined = fused.flatMap((f) => {
      const e = episodes.get(f.pk);
      if (!e) return [];
      if (!titleWords.has(e.item_pk)) titleWords.set(e.item_pk, scoreLine(e.item_title ?? '', terms).mask);
      const lines = segments.get(f.pk);
      const other = others.get(f.pk);
      return [{ ...f, item: e.item_pk, titleWords: titleWords.get(e.item_pk)!, best: lines || other ? bestLine(episodeLines(lines ?? [], other), terms, q?.phrases ?? []) : null }];
    });
    // Under a speaker filter, words count only where that person says them.
    const ranked = rankByLines(spokenBy && terms.length ? lined.filter((l) => (l.best?.match.matched ?? 0) > 0) : lined, terms, q?.phrases.length ?? 0);
    const page = ranked.filter((r) => r.score >= req.threshold).slice(0, req.limit + DEPTHS.spares);
    const openings = this.itemOpenings(page, episodes, terms);
    const shown = (r: LinedCandidate) => openings.get(r.pk) ?? episodes.get(r.pk)!;
    for (const [pk, rows] of groupBy(this.store.search.segmentsOf(page.map((r) => shown(r).pk).filter((pk) => !segments.has(pk))), (s) => s.episode_pk)) segments.set(pk, rows);
    const results = page.map((r) => {
      const e = shown(r);
      const rows = segments.get(e.pk) ?? [];
      const said = openings.has(r.pk) ? itemWords(e, rows, terms, e.place ? placeText(placeIn(JSON.parse(e.place), req.search_language ?? 'en')) : null) : undefined;
      return shapeResult(e, rows, { score: r.score, frameTime: said === undefined ? (frameTimes.get(r.pk) ?? null) : null }, said === undefined ? r.best : null, terms, this.links, said);
    });
    const moments = mergeMoments(oneCopy(results, page.map((r) => r.item), where.copies)).slice(0, req.limit);
    const byMoment = new Map([...episodes.values()].map((e) => [`${e.media_id}:${e.idx}`, e]));
    this.addPeopleSeen(moments, collectionPk, byMoment);
    this.addSpeakers(moments, collectionPk, byMoment);
    return moments;
  }

  /**
   * Where each candidate found only through its item (its title, place or metadata, not its own summary)
   * opens: the item's first episode, by candidate pk. Such a match says nothing of any moment, so the item
   * plays from its start and the passage shows the item's words; moments of one item become one result.
   */
  private itemOpenings(page: LinedCandidate[], episodes: Map<number, EpisodeWithItem>, terms: MatchTerm[]): Map<number, EpisodeWithItem> {
    const only = terms.length ? page.filter((r) => foundByItemOnly(r) && scoreLine(episodes.get(r.pk)!.summary, terms).matched === 0) : [];
    if (only.length === 0) return new Map();
    const first = this.store.search.firstEpisodes([...new Set(only.map((r) => r.item))]);
    const rows = new Map(this.store.search.episodesWithItems([...first.values()]).map((e) => [e.pk, e]));
    return new Map(only.flatMap((r) => {
      const e = rows.get(first.get(r.item) ?? -1);
      return e ? [[r.pk, e] as const] : [];
    }));
  }

  /**
   * The words list: moments whose own text (transcript, on-screen text, tags) holds all the words, then
   * any of them. Only when those are fewer than `depth`, the title list: moments whose item's title,
   * summary or metadata holds them (all, then any), a weaker list since it says nothing of the moment. Word parts (trigrams) only when the words alone found fewer than `depth`
   * episodes: then compounds and partial words fill up; otherwise they would only repeat the word matches
   * in a worse order, at several times the cost.
   */
  private textLists(q: ParsedQuery, scope: ListScope): TextLists {
    const { collectionPk, depth, filter } = scope;
    const itemPk = scope.item?.pk ?? null;
    const text = this.store.text;
    const lists: RankedList[] = [];
    if (!q.all) return { lists, allMatched: true };
    const words = (match: string | null, columns: 'own' | 'all') => () =>
      match ? text.matchWords(match, collectionPk, { limit: depth, itemPk, filter, columns, ranking: WORD_RANKING }).map((h) => h.pk) : [];
    const ownAll = words(q.all, 'own')();
    let allMatched = ownAll.length > 0;
    const own = fillUp(ownAll, words(q.any, 'own'), depth);
    lists.push({ name: 'words', weight: FUSION.weights.words, pks: own });
    if (own.length < depth) {
      const have = new Set(own);
      const itemAll = words(q.all, 'all')();
      allMatched ||= itemAll.length > 0;
      const item = fillUp(itemAll, words(q.any, 'all'), depth).filter((pk) => !have.has(pk));
      if (item.length) lists.push({ name: 'title', weight: FUSION.weights.title, pks: item.slice(0, depth - own.length) });
    }
    if (q.allTrigram && ownAll.length < depth) {
      const parts = text.matchParts(q.allTrigram, collectionPk, depth, itemPk, filter);
      allMatched ||= parts.length > 0;
      lists.push({ name: 'trigram', weight: FUSION.weights.trigram, pks: fillUp(parts, () => (q.anyTrigram ? text.matchParts(q.anyTrigram, collectionPk, depth, itemPk, filter) : []), depth) });
    }
    return { lists, allMatched };
  }

  /** The nearest episodes of one kind of vector space, filtered, with each frame's time. */
  private vectorList(kind: VectorKind, queries: SpaceQuery[], scope: ListScope, name: string | null, nearest?: ReadonlyMap<number, number[] | null>): TimedList {
    const { collectionPk, filter, item, limit } = scope;
    let hits = queries.flatMap((v) => this.semantic(v.space, v.query, collectionPk, filter ? limit * DEPTHS.filteredVectors : limit, item, nearest?.get(v.space.id))).sort((a, b) => b.similarity - a.similarity);
    // Vector neighbours cannot be filtered inside sqlite-vec's KNN: more are fetched and filtered here.
    if (filter) {
      const allowed = this.store.search.filterEpisodes([...new Set(hits.map((h) => h.episodePk))], collectionPk, filter);
      hits = hits.filter((h) => allowed.has(h.episodePk));
    }
    const pks: number[] = [];
    const times = new Map<number, number>();
    for (const h of hits) {
      if (pks.includes(h.episodePk)) continue;
      pks.push(h.episodePk);
      if (kind === 'frame') times.set(h.episodePk, h.time);
    }
    return { list: { name: name ?? kind, weight: FUSION.weights[kind], pks: pks.slice(0, scope.depth) }, times };
  }

  /** The lists a picture or a moment brings: look-alike frames by fingerprint, near frame vectors, or its words. */
  private probeLists(probe: PictureProbe, spaces: VectorSpaceRow[], scope: ListScope): TimedList[] {
    const out: TimedList[] = [];
    const { collectionPk, filter } = scope;
    if (probe.print) {
      const allowed = filter ? new Set(this.store.search.filterItems(collectionPk, filter)) : null;
      const keep = scope.item ? (pk: number) => pk === scope.item!.pk : allowed ? (pk: number) => allowed.has(pk) : undefined;
      out.push(printList(this.printIndex, collectionPk, probe.print, { depth: scope.depth, exclude: probe.exclude, ...(keep ? { keep } : {}) }));
    }
    const frameQueries = spaces.filter((sp) => sp.kind === 'frame' && probe.vectors.has(sp.id)).map((space) => ({ space, query: { vector: probe.vectors.get(space.id)!, minSimilarity: VECTORS.pictureMinSimilarity } }));
    if (frameQueries.length) out.push(this.vectorList('frame', frameQueries, { ...scope, limit: scope.limit + 1 }, 'frame'));
    if (probe.words) {
      const q = parseQuery(probe.words);
      const match = q.any ?? q.all;
      if (match) {
        const hits = this.store.text.matchWords(match, collectionPk, { limit: scope.depth + 1, itemPk: scope.item?.pk ?? null, filter, ranking: WORD_RANKING });
        out.push({ list: { name: 'words', weight: FUSION.weights.words, pks: hits.map((h) => h.pk) }, times: new Map() });
      }
    }
    return out;
  }

  /** Names the people seen in each result's episode (a vidx extra), when the collection has faces on. */
  private addPeopleSeen(page: SearchResult[], collectionPk: number, byMoment: Map<string, { item_pk: number; start: number; end: number }>): void {
    const faces = this.store.faces;
    if (page.length === 0 || !faces.enabled(collectionPk)) return;
    const names = new Map(faces.people(collectionPk).map((p) => [p.person_id, p.name]));
    const tracks = new Map<number, ReturnType<typeof faces.tracksOfItem>>();
    for (const r of page) {
      const e = byMoment.get(`${r.media_id}:${r.episode_id}`);
      if (!e) continue;
      if (!tracks.has(e.item_pk)) tracks.set(e.item_pk, faces.tracksOfItem(e.item_pk));
      const seen = new Set(tracks.get(e.item_pk)!.filter((t) => t.person_id && t.start < e.end && t.end > e.start).map((t) => t.person_id!));
      r.people = [...seen].map((id) => ({ person_id: id, name: names.get(id) ?? null }));
    }
  }

  /** Names who says each result's line (a vidx extra), when the collection groups voices. */
  private addSpeakers(page: SearchResult[], collectionPk: number, byMoment: Map<string, { pk: number; item_pk: number }>): void {
    const voices = this.store.voices;
    if (page.length === 0 || !voices.enabled(collectionPk)) return;
    const tracks = new Map<number, ReturnType<typeof voices.tracksOfItem>>();
    const shown = page.map((r) => byMoment.get(`${r.media_id}:${r.episode_id}`));
    // The page's lines in one read, not one per result.
    const lines = groupBy(this.store.search.segmentsOf(shown.flatMap((e) => (e ? [e.pk] : []))), (s) => s.episode_pk);
    page.forEach((r, i) => {
      const e = shown[i];
      if (!e) return;
      if (!tracks.has(e.item_pk)) tracks.set(e.item_pk, voices.tracksOfItem(e.item_pk));
      const line = (lines.get(e.pk) ?? []).find((s) => s.kind === 'audio' && s.start <= r.start_time + 0.01 && s.end > r.start_time);
      const v = line?.speaker ? tracks.get(e.item_pk)!.find((t) => t.speaker === line.speaker) : undefined;
      if (v?.person_id) r.speaker = { person_id: v.person_id, name: v.name };
    });
  }

  /** The vidx-extra filters as the store takes them; null when none is set. A folder of another collection is a 404. */
  private itemFilter(req: SearchRequest, collectionPk: number, near: NearFilter | null): ItemFilter | null {
    if (!hasItemFilter(req, near)) return null;
    let folderPk: number | null = null;
    if (req.folder_id) {
      const folder = this.store.folders.get(req.folder_id);
      if (!folder || folder.collection_pk !== collectionPk) throw notFound('folder', req.folder_id);
      folderPk = folder.pk;
    }
    const iso = (t: string | undefined) => (t ? new Date(t).toISOString() : null);
    return { type: req.media_type ?? null, after: iso(req.captured_after), before: iso(req.captured_before), folderPk, near };
  }

  private near(near: string, km: number | undefined): Promise<NearFilter> {
    if (!this.nearFilter) throw new Problem('unsupported', msg('near_unsupported'));
    return this.nearFilter(near, km);
  }

  /**
   * People in the search: a person named in the query adds the episodes they are seen in as one more ranked
   * list; `person_id` adds theirs and keeps only those. Returns the episodes to keep, or null for all.
   */
  private addPeople(lists: RankedList[], collectionPk: number, req: SearchRequest, depth: number, itemPk: number | null, speakers: number[] | null): Set<number> | null {
    const faces = this.store.faces;
    let only: Set<number> | null = null;
    if (req.person_id !== undefined) {
      const p = faces.person(collectionPk, req.person_id);
      if (!p) throw notFound('person', req.person_id);
      only = new Set(faces.episodesOfPerson(p.pk, itemPk));
      lists.push({ name: 'people', weight: FUSION.weights.people, pks: [...only].slice(0, depth) });
    }
    if (speakers) {
      const spoken = this.store.voices.episodesSpokenBy(speakers, itemPk);
      only = only ? new Set(spoken.filter((pk) => only!.has(pk))) : new Set(spoken);
      lists.push({ name: 'people', weight: FUSION.weights.people, pks: spoken.slice(0, depth) });
    }
    for (const p of req.query ? faces.peopleNamedIn([collectionPk], req.query) : []) {
      lists.push({ name: 'people', weight: FUSION.weights.people, pks: faces.episodesOfPerson(p.pk, itemPk).slice(0, depth) });
    }
    return only;
  }

  /** The people a `speaker` value names: the person of that id, else those of that name; none is a 404. */
  private speakers(collectionPk: number, speaker: string): number[] {
    const byId = this.store.faces.person(collectionPk, speaker);
    if (byId) return [byId.pk];
    // A name as the people tool and the page compare it: case and accents aside.
    const wanted = fold(speaker.trim());
    const named = this.store.faces.people(collectionPk).filter((p) => p.name !== null && fold(p.name.trim()) === wanted);
    if (named.length === 0) throw new Problem('not_found', msg('no_such_speaker', { speaker }), [{ field: 'speaker', message: msg('no_such_person') }]);
    return named.map((p) => p.pk);
  }

  /** `approx`: the index's candidates asked before (see nearestOf); undefined asks the store's own index now. */
  private semantic(space: VectorSpaceRow, query: QueryVector, collectionPk: number, limit: number, item: ItemRow | null, approx?: number[] | null): SemanticHit[] {
    const repo = this.store.search;
    const q = unit(query.vector);
    const rows = item ? repo.vectorsOfItem(item.pk, space.id) : repo.vectorsByPk(nearestCandidates(repo, space, collectionPk, q, limit, approx), collectionPk, space.id);
    return rows
      .map((r) => ({ episodePk: r.episode_pk, time: r.time, similarity: dot(q, fromBlob(r.embedding)) }))
      .filter((h) => h.similarity >= query.minSimilarity);
  }

  /** The query picture in each frame space whose model is installed (image–text search by picture). */
  private async embedPicture(picture: RgbPicture, spaces: VectorSpaceRow[]): Promise<SpaceQuery[]> {
    if (!this.embedder?.embedImage) return [];
    const out: SpaceQuery[] = [];
    for (const space of spaces.filter((sp) => sp.kind === 'frame')) {
      const v = await this.embedder.embedImage(picture, { kind: 'frame', model: space.model, dims: space.dims });
      if (v && v.vector.length === space.dims) out.push({ space, query: v });
    }
    return out;
  }

  private async embedQuery(query: string, spaces: VectorSpaceRow[]): Promise<SpaceQuery[]> {
    if (!this.embedder || spaces.length === 0) return [];
    const out: SpaceQuery[] = [];
    for (const space of spaces) {
      const v = await this.embedder.embed(query, { kind: space.kind as VectorKind, model: space.model, dims: space.dims });
      if (v && v.vector.length === space.dims) out.push({ space, query: v });
    }
    return out;
  }
}

/** The later of two ISO times (either may be missing). */
const latest = (a: string | undefined, b: string) => (a && new Date(a) > new Date(b) ? a : b);
/** The earlier of two ISO times (either may be missing). */
const earliest = (a: string | undefined, b: string) => (a && new Date(a) < new Date(b) ? a : b);

/**
 * The understood search's results, then the moments that hold the words as typed outside its filters (each
 * scored no higher than the last understood one, so the understood stay first), one result per moment.
 * @example
 * withTypedMatches([inLisbon2019], [said2019In2023], 10); // [inLisbon2019, said2019In2023]
 */
export function withTypedMatches(found: SearchResult[], typed: SearchResult[], limit: number): SearchResult[] {
  const key = (r: SearchResult) => `${r.media_id}:${r.episode_id}`;
  const seen = new Set(found.map(key));
  const floor = found.at(-1)?.score ?? 1;
  const more = typed.filter((r) => !seen.has(key(r))).map((r) => ({ ...r, score: Math.min(r.score, floor) }));
  return [...found, ...more].slice(0, limit);
}

/** One result for a moment several copies share: the kept copy's (see mergeCopies); `items` are the results' items in order. */
function oneCopy(results: SearchResult[], items: number[], copies: ReadonlyMap<number, CopyOf>): SearchResult[] {
  if (!copies.size) return results;
  const itemOf = new Map(results.map((r, i) => [r, items[i]!]));
  return mergeCopies(results, (r) => {
    const item = itemOf.get(r)!;
    const c = copies.get(item);
    return c && { item, lead: c.lead, offset: c.offset };
  });
}

/** Whether a stored line is one the speaker filter's people say (`spokenBy`: their speaker numbers by item). */
function saidBy(s: { kind: string; speaker?: number | null }, e: { item_pk: number } | undefined, spokenBy: Map<number, Set<number>>): boolean {
  return s.kind === 'audio' && e !== undefined && s.speaker != null && (spokenBy.get(e.item_pk)?.has(s.speaker) ?? false);
}
