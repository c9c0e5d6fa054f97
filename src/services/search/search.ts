import type { Store } from '../../store/index.js';
import type { ItemRow } from '../../store/items.js';
import type { FtsTable, VectorKind, VectorSpaceRow } from '../../store/search-index.js';
import type { Caller } from '../caller.js';
import type { CollectionService } from '../collections.js';
import { notFound } from '../errors.js';
import type { MediaLinks } from '../links.js';
import type { QueryEmbedder, QueryVector } from './embedder.js';
import { fuse, type RankedList } from './fusion.js';
import { matchTerms } from './moments.js';
import { parseQuery } from './query.js';
import { shapeResult, type SearchResult } from './results.js';
import { dot, fromBlob, signBits, unit } from './vectors.js';

/** POST /search input (validated by the HTTP layer). */
export interface SearchRequest {
  query: string;
  collection: string;
  limit: number;
  media_id?: string;
  threshold: number;
}

/** How much first place in each list counts in the fusion. */
export const LIST_WEIGHTS = { words: 1, trigram: 0.6, passage: 1, frame: 0.8 } as const;

/** Candidates per list: enough that fusion can lift an episode that is only second-best everywhere. */
const depthFor = (limit: number) => Math.max(limit * 3, 30);

/** Coarse (bit) candidates per vector space before float re-scoring; sqlite-vec's KNN cost grows with k. */
const coarseFor = (limit: number) => Math.min(200, Math.max(limit * 4, 40));

interface SemanticHit {
  episodePk: number;
  time: number;
  similarity: number;
}

/**
 * Hybrid search over one collection: both FTS5 tables (bm25 with column weights) and, when a query
 * embedder is given and the collection has vectors, passage and frame vectors (sign-bit KNN in sqlite-vec,
 * re-scored with the stored floats), fused by reciprocal rank per episode.
 * @example
 * const { results } = await search.search(caller, { query: 'penalty', collection: 'matches', limit: 10, threshold: 0 });
 */
export class SearchService {
  constructor(
    private readonly store: Store,
    private readonly collections: CollectionService,
    private readonly links: MediaLinks,
    private readonly embedder: QueryEmbedder | null,
  ) {}

  async search(caller: Caller, req: SearchRequest): Promise<{ results: SearchResult[] }> {
    let collection = this.collections.readable(caller, req.collection);
    const q = parseQuery(req.query);
    const spaces = this.embedder ? this.store.search.spaces().filter((s) => this.store.search.hasVectors(collection.pk, s.id)) : [];
    const vectors = await this.embedQuery(req.query, spaces);
    // From here on everything is synchronous: one consistent view of the database, no half-written item.
    collection = this.collections.readable(caller, req.collection);
    let item: ItemRow | null = null;
    if (req.media_id !== undefined) {
      item = this.store.items.find(collection.pk, req.media_id) ?? null;
      if (!item) throw notFound('media item', req.media_id);
    }

    const depth = depthFor(req.limit);
    const lists: RankedList[] = [];
    if (q.all) lists.push({ name: 'words', weight: LIST_WEIGHTS.words, pks: this.lexical('episode_fts', q.all, q.any, collection.pk, depth, item) });
    if (q.allTrigram) {
      lists.push({ name: 'trigram', weight: LIST_WEIGHTS.trigram, pks: this.lexical('episode_trigram', q.allTrigram, q.anyTrigram, collection.pk, depth, item) });
    }
    const frameTimes = new Map<number, number>();
    for (const kind of ['passage', 'frame'] as const) {
      const ofKind = vectors.filter((v) => v.space.kind === kind);
      if (ofKind.length === 0) continue;
      const hits = ofKind.flatMap((v) => this.semantic(v.space, v.query, collection.pk, req.limit, item)).sort((a, b) => b.similarity - a.similarity);
      const pks: number[] = [];
      for (const h of hits) {
        if (pks.includes(h.episodePk)) continue;
        pks.push(h.episodePk);
        if (kind === 'frame') frameTimes.set(h.episodePk, h.time);
      }
      lists.push({ name: kind, weight: LIST_WEIGHTS[kind], pks: pks.slice(0, depth) });
    }

    const fused = fuse(lists).filter((f) => f.score >= req.threshold && f.score > 0).slice(0, req.limit);
    if (fused.length === 0) return { results: [] };
    const pks = fused.map((f) => f.pk);
    const episodes = new Map(this.store.search.episodesWithItems(pks).map((e) => [e.pk, e]));
    const segments = this.store.search.segmentsOf(pks);
    const terms = matchTerms(q);
    const results: SearchResult[] = [];
    for (const f of fused) {
      const e = episodes.get(f.pk);
      if (!e) continue;
      const own = segments.filter((s) => s.episode_pk === f.pk);
      results.push(shapeResult(e, own, { score: f.score, frameTime: frameTimes.get(f.pk) ?? null }, terms, q.phrases, this.links));
    }
    return { results };
  }

  /** All terms first; when that finds fewer than `depth`, episodes with any term follow. */
  private lexical(table: FtsTable, all: string, any: string | null, collectionPk: number, depth: number, item: ItemRow | null): number[] {
    const repo = this.store.search;
    const pks = repo.matchEpisodes(table, all, collectionPk, depth, item?.pk ?? null).map((h) => h.pk);
    if (any && pks.length < depth) {
      const have = new Set(pks);
      for (const h of repo.matchEpisodes(table, any, collectionPk, depth, item?.pk ?? null)) {
        if (pks.length >= depth) break;
        if (!have.has(h.pk)) pks.push(h.pk);
      }
    }
    return pks;
  }

  private semantic(space: VectorSpaceRow, query: QueryVector, collectionPk: number, limit: number, item: ItemRow | null): SemanticHit[] {
    const repo = this.store.search;
    const q = unit(query.vector);
    const rows = item
      ? repo.vectorsOfItem(item.pk, space.id)
      : repo.vectorsByPk(repo.nearestBits(space, collectionPk, signBits(q), coarseFor(limit)).map((r) => r.pk));
    return rows
      .map((r) => ({ episodePk: r.episode_pk, time: r.time, similarity: dot(q, fromBlob(r.embedding)) }))
      .filter((h) => h.similarity >= query.minSimilarity);
  }

  private async embedQuery(query: string, spaces: VectorSpaceRow[]): Promise<{ space: VectorSpaceRow; query: QueryVector }[]> {
    if (!this.embedder || spaces.length === 0) return [];
    const out: { space: VectorSpaceRow; query: QueryVector }[] = [];
    for (const space of spaces) {
      const v = await this.embedder.embed(query, { kind: space.kind as VectorKind, model: space.model, dims: space.dims });
      if (v && v.vector.length === space.dims) out.push({ space, query: v });
    }
    return out;
  }
}
