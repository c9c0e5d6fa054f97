import type { ExploreRepository } from '../../store/explore.js';
import type { Caller } from '../caller.js';
import type { CollectionService } from '../collections.js';
import type { Searcher } from '../search/index.js';
import type { ThreadPool } from '../threads/pool.js';
import { resultText, type ClusterElement, type GroupEmbedder } from './clusters.js';
import { onePerCopy, type CopyGroups } from './copies.js';
import type { SuggestionElement } from './suggestions.js';
import type { Lang } from '../../messages/index.js';

export type { ClusterElement } from './clusters.js';
export type { SuggestionElement } from './suggestions.js';

/** POST /search_clusters input. */
export interface ClustersRequest {
  query: string;
  collection: string;
  search_public_collections: boolean;
  search_language: Lang;
}

/** POST /collection_suggestions input. */
export interface SuggestionsRequest {
  collection: string;
  search_public_collections: boolean;
  search_language: Lang;
}

/** Hits clustered per search, clusters streamed per response: enough to group, few enough to read. */
const HITS_TO_CLUSTER = 40;
const MAX_CLUSTERS = 8;
const EPISODES_FOR_TOPICS = 400;

/** Each item of a collection that has copies, with the media_id of the copy its group keeps (DuplicateService.copyGroups). */
export type CopyGroupsOf = (collectionPk: number) => ReadonlyMap<string, string>;

/**
 * Exploring a collection: search hits grouped into clusters, and topics and questions drawn from its
 * content. Both yield elements one by one (for streaming) and stop when `signal` aborts. A video and its
 * copies count as one item (`copyGroups`).
 * @example
 * for await (const el of explore.clusters(caller, { query: 'penalty', collection: 'sport', search_public_collections: false, search_language: 'en' }, signal)) send(el);
 */
export class ExploreService {
  constructor(
    private readonly repo: ExploreRepository,
    private readonly collections: CollectionService,
    private readonly search: Searcher,
    private readonly embedder: () => Promise<GroupEmbedder>,
    private readonly runner: ThreadPool,
    private readonly copyGroups: CopyGroupsOf,
  ) {}

  /** Checks the caller may read the collection; answers its internal key, which a deferred task binds to. */
  check(caller: Caller, collection: string, publicLookup: boolean): number {
    return this.collections.readable(caller, collection, { public: publicLookup }).pk;
  }

  async *clusters(caller: Caller, req: ClustersRequest, signal: AbortSignal): AsyncGenerator<ClusterElement> {
    const collectionPk = this.check(caller, req.collection, req.search_public_collections);
    const { results } = await this.search.search(caller, {
      // Clusters group what the words find; the page's chips for dates and places belong to POST /search.
      query: req.query, collection: req.collection, limit: HITS_TO_CLUSTER, threshold: 0, public: req.search_public_collections, understand: false,
    });
    if (signal.aborted || results.length === 0) return;
    // The text model runs here (its session lives in this thread, with its own threads); grouping and
    // describing are plain CPU work and go to a job worker.
    const embed = await this.embedder();
    const vectors = embed ? await embed(results.map(resultText)) : null;
    if (signal.aborted) return;
    const groups = this.copyGroups(collectionPk);
    const copies: CopyGroups = Object.fromEntries(results.flatMap((r) => (groups.has(r.media_id) ? [[r.media_id, groups.get(r.media_id)!]] : [])));
    const elements = await this.runner.run('clusters', { results, vectors, query: req.query, language: req.search_language, maxClusters: MAX_CLUSTERS, copies });
    for (const element of elements) {
      if (signal.aborted) return;
      yield element;
    }
  }

  async *suggestions(caller: Caller, req: SuggestionsRequest, signal: AbortSignal): AsyncGenerator<SuggestionElement> {
    const collection = this.collections.readable(caller, req.collection, { public: req.search_public_collections });
    // The same words in three copies are one item's: topics are drawn from one copy of each.
    const rows = onePerCopy(this.repo.episodeTexts(collection.pk, EPISODES_FOR_TOPICS), Object.fromEntries(this.copyGroups(collection.pk)));
    const elements = await this.runner.run('suggestions', { rows, language: req.search_language, maxTopics: 8 });
    for (const element of elements) {
      if (signal.aborted) return;
      yield element;
      // Let the event loop flush each element to the client before computing the next.
      await new Promise((r) => setImmediate(r));
    }
  }
}
