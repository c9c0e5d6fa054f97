/**
 * Every weight and knob of search ranking, each with why it has its value: how the words tables rank
 * (bm25), how the ranked lists are fused, how a line says the query, how deep each list goes, the floors a
 * vector or picture must reach, and how far a typo may be corrected. Plain `as const` data; the code that
 * uses a knob names it here and keeps no number of its own. Changing a value changes results: run
 * `npm run bench:relevance` before and after (docs/search.md, *How it ranks*).
 *
 * Why here, and how the store gets its part: the store ranks words with bm25() in SQL, so it needs the
 * column weights and how many of the newest matches to rank. It takes them with each word query
 * (`WordRanking`, store/text-index.ts) instead of importing them, because the store sits below the
 * services and imports none of them (CONTRIBUTING.md). The words table and the own-words shards both read
 * their weights from the one list below, by column name. The weights are written into the SQL, and
 * prepared statements are keyed by their SQL (store/statements.ts), so the same knobs reuse the same
 * statements at every search. A module in src/tools would have let the store import the knobs, but it would
 * put search policy among the helpers every layer uses, and hide from the store's callers what decides its
 * order.
 *
 * Not here, because they do not decide an order: how alike two fingerprints are (`printSimilarity` in
 * media/perceptual.ts, the one measure duplicates and thumbnails use too; only the floor search applies is
 * a knob here), what a result shows (MOMENT_LINES and the snippet lengths in results.ts and moments.ts), the
 * caches (typos.ts, moments.ts), the own-words shard size (store/own-shards.ts: storage, though it bounds
 * the episodes bm25 counts a word over) and the sign-bit scan's spread over its shards (store/search-index.ts).
 */
import type { VectorKind } from '../../store/search-index.js';
import type { WordRanking } from '../../store/text-index.js';

/** How the words tables rank a word query with bm25 (passed to the store with each query, see above). */
export const WORD_RANKING = {
  /** bm25() weight of each column: evidence that names the moment more closely counts more per word. */
  bm25: {
    /** A title word names the whole item: the strongest evidence per word, though not of one moment. */
    title: 3,
    /** A transcript is long: one word among a minute of speech says least about what the moment is. */
    transcript: 1,
    /** On-screen text is short and chosen (a slide's heading): a word there says more than one spoken. */
    screen_text: 1.5,
    /** Tags name what is seen in a few words: as telling as on-screen text. */
    tags: 1.5,
    /** The summary is a few sentences about the moment: as telling as its tags. */
    summary: 1.5,
    /** Metadata values often describe the file (camera, software) rather than what it shows: the weakest. */
    metadata: 0.5,
  },
  /**
   * bm25 ranks only the newest this many matches per pass (~2 µs each): for a word that common its newest
   * 1,000 stand in for all, since the lines rank the final order; 1,000 instead of 2,000 took 2 ms off a
   * search at 100,000 episodes (docs/performance.md).
   */
  newest: 1000,
} as const satisfies WordRanking;

/** Reciprocal rank fusion of the ranked lists (fusion.ts): each list adds weight / (k + rank). */
export const FUSION = {
  /**
   * RRF's k. The classic 60 was tuned for pools of 1,000 documents; with pages of ten, 20 keeps a visible
   * difference between the first and the tenth place.
   */
  k: 20,
  /** How much first place in each list counts. */
  weights: {
    /** What a moment says and shows, by bm25: the main evidence. */
    words: 1,
    /** The item's title, summary or metadata: says nothing of the moment itself, so it only lifts or breaks ties. */
    title: 0.3,
    /** Word parts come newest first, without a relevance order: they bring candidates and break ties, the lines rank them. */
    trigram: 0.25,
    /** Passage vectors past their floor: what the moment means, as strong as its words. */
    passage: 1,
    /** Frame vectors: words meet a picture more loosely than a passage (see VECTORS.minSimilarity), so a little less. */
    frame: 0.8,
    /** A person named in the query, or asked for by `person_id`: who is seen is as strong as what is said. */
    people: 1,
    /** Look-alike frames by fingerprint (a query picture or `like`): a near copy is as strong as words. */
    prints: 1,
  },
} as const;

/**
 * A number of candidates that grows with the page: `perResult` per result asked for, at least `atLeast`,
 * at most `atMost` when given.
 */
export interface Depth {
  readonly perResult: number;
  readonly atLeast: number;
  readonly atMost?: number;
}

/**
 * The candidates a depth asks for at a page of `limit` results.
 * @example
 * depthFor(DEPTHS.list, 10); // 30
 * depthFor(DEPTHS.list, 20); // 60
 */
export function depthFor(depth: Depth, limit: number): number {
  return Math.min(depth.atMost ?? Number.POSITIVE_INFINITY, Math.max(limit * depth.perResult, depth.atLeast));
}

/** How deep the lists go and how many candidates are ranked by their lines (search.ts). */
export const DEPTHS = {
  /**
   * Candidates per list, and candidates ranked by their lines when the query has several words: enough
   * that fusion can lift an episode that is only second-best everywhere, and that a moment whose line says
   * every word is there even when bm25 put it low.
   */
  list: { perResult: 3, atLeast: 30 },
  /**
   * Candidates beyond the page: merging neighbours that share a moment still fills it. With one word every
   * line that says it ties, so the fused order already is the order and the page with these is enough.
   */
  spares: 5,
  /** Vector neighbours fetched per result when the items are filtered: the KNN cannot filter, so more are fetched and filtered after. */
  filteredVectors: 4,
} as const satisfies { list: Depth; spares: number; filteredVectors: number };

/** How well one line says the query (moments.ts): each word's match, then phrase and closeness. */
export const LINE_MATCH = {
  /** A query word as written: full credit. */
  asWritten: 1,
  /** The same stem ("bakes" for `baking`), or a stem that begins the word: as good in meaning, but the word as typed wins a tie. */
  sameStem: 0.9,
  /** Inside a longer word (`Kuchen` in "Apfelkuchen"): a compound part is often the thing meant, but not always. */
  wordPart: 0.6,
  /** Shortest stem that counts as beginning a longer word: shorter stems begin too many unrelated words. */
  minStemPrefix: 4,
  /** Shortest query word that counts inside a longer word: shorter ones sit inside too many words. */
  minWordPart: 4,
  /** Every query word in the query's order next to each other: the line says the phrase itself. */
  phrase: 0.5,
  /** The most closeness adds (the words next to each other, not in order), less the further apart: below a phrase. */
  near: 0.4,
  /** A quoted phrase found as written: the caller asked for those words in that order. */
  quotedPhrase: 0.5,
  /** Taken off two consecutive lines read as one sentence: one line that says it all wins a tie. */
  splitLines: 0.05,
  /** A word's first places in a line tried for the narrowest window: the tries grow as places^words, and lines are short. */
  closenessPlaces: 8,
} as const;

/** The final order (ranking.ts) and the score a result shows. */
export const FINAL_ORDER = {
  /** Moments found only through their item's title, summary or metadata, kept per item: such a match names every moment alike, so a few stand for the item. */
  itemOnlyPerItem: 3,
  /** Hits of one media starting closer than this (seconds) are one moment: two neighbouring episodes matching at their shared boundary. */
  sameMomentSeconds: 2,
  /** A result's score: this share from how well its best line says the query, the rest from the fused score, so both the line and the lists show. */
  lineShare: 0.5,
} as const;

/** The nearest vectors (search.ts `nearestCandidates`, embedder.ts): how many are looked at, and the floors. */
export const VECTORS = {
  /**
   * The least cosine similarity of a query's words and a stored vector that counts, per kind: e5 similarities
   * of unrelated texts sit around 0.7–0.8 and CLIP text–image similarities of related pairs around 0.2–0.35,
   * so one number cannot serve both. Starting values, not measured on real models (none can be fetched here).
   */
  minSimilarity: { passage: 0.8, frame: 0.2 },
  /** The least cosine similarity of a query picture (or a `like` moment) and a stored frame (image–image): a starting value, not measured on real CLIP vectors. */
  pictureMinSimilarity: 0.5,
  /** Asked of the HNSW index: re-scored, 60 held the true 10 nearest of 100,000 at recall 0.95–0.995 and 100 at 0.9975; 100 keep a margin for ~0.4 ms (bench:search). */
  approx: { perResult: 10, atLeast: 100 },
  /**
   * Of the index's candidates (nearest first by its half-float distance; int8 before format 3), how many are
   * re-scored with the stored floats: the index misorders only near-ties, and at 100,000 vectors the first 20
   * held every true neighbour the 100 did (recall@10 0.9925 for 20, 30 and 100); 30 rows instead of 100 save
   * ~0.5 ms (docs/performance.md).
   */
  rescored: { perResult: 3, atLeast: 30 },
  /**
   * Sign-bit candidates re-scored while a collection's index is missing or rebuilt: sign bits rank the true 10
   * nearest of 100,000 within their first 200–400, so 250 are re-scored (about a millisecond).
   */
  coarse: { perResult: 25, atLeast: 250, atMost: 500 },
  /** The same in a small collection (at most `smallSet` vectors): 50 already hold its true 10 nearest. */
  coarseSmall: { perResult: 5, atLeast: 50, atMost: 250 },
  /** Up to this many vectors a collection is small for the sign-bit scan. */
  smallSet: 5000,
} as const satisfies { minSimilarity: Record<VectorKind, number>; pictureMinSimilarity: number; approx: Depth; rescored: Depth; coarse: Depth; coarseSmall: Depth; smallSet: number };

/** Search by picture (picture-query.ts, print-index.ts). How alike two prints are is the media layer's measure (media/perceptual.ts). */
export const PICTURES = {
  /** Frames at least this alike by fingerprint are hits: re-encoded and rescaled copies score 0.86–1, slides of one template 0.38–0.59, unrelated pictures 0–0.15. */
  minPrintSimilarity: 0.5,
  /** Frames kept after the first pass (the 64-bit hash alone) for the full comparison: the coarse hash misorders near frames, so far more than a page go on. */
  firstPass: 1000,
  /** Words a `like` moment without pictures (audio) is searched by, its most frequent: they name its topic, and stay under a query's 16 terms (query.ts). */
  likeWords: 12,
} as const;

/** Typo correction (typos.ts). Whether a correction is kept is the search's to judge: it must find more. */
export const TYPOS = {
  /** Shortest word corrected: a shorter word is one edit away from too many others. */
  minLetters: 4,
  /** From this length two edits are allowed, below it one: a long word takes two slips and still has few neighbours. */
  twoEditsFrom: 8,
  /** Nearest words searched in place of a misspelt one, most frequent first: a few, so a wrong guess does not crowd the answer. */
  alternatives: 3,
} as const;
