/**
 * Searching every collection of the caller: the SPEC searches one collection at a time and leaves merging
 * to clients, so the page asks each collection (a few at a time) and merges the answers by score as they
 * arrive. Scores are comparable within one answer only, so the merged order is a good guess, not a ranking.
 */
import type { Api, SearchFilterFields, SearchProbe, SearchResult, SearchSaid } from './api.js';
import { joinSaid, NOTHING_SAID } from './search-said.js';

/** A result with the collection it came from. */
export type FoundResult = SearchResult & { collection: string };

/** Collections asked at once: enough to feel quick, few enough not to crowd the server's single task slot out. */
const FAN_OUT = 3;

/**
 * Searches each collection with the same words and picture, calling `onProgress` with the merged results
 * (best first) and what the answers said besides (notices, corrected words, each once) after every answer. Resolves when all have answered; collections that fail are skipped (and counted).
 * @example
 * await searchAll(api, ['trips', 'family'], { query: 'cake' }, {}, (results, done) => render(results, done), signal);
 */
export async function searchAll(
  api: Api,
  collections: string[],
  probe: SearchProbe,
  filters: SearchFilterFields,
  onProgress: (results: FoundResult[], answered: number, failed: number, said: SearchSaid) => void,
  signal: AbortSignal,
): Promise<void> {
  let merged: FoundResult[] = [];
  let said = NOTHING_SAID;
  let answered = 0;
  let failed = 0;
  const queue = [...collections];
  const worker = async () => {
    for (let c = queue.shift(); c !== undefined && !signal.aborted; c = queue.shift()) {
      try {
        const { results, notices, corrected } = await api.search(c, probe, filters);
        said = joinSaid(said, { notices, corrected });
        merged = [...merged, ...results.map((r) => ({ ...r, collection: c }))].sort((a, b) => b.score - a.score);
      } catch {
        failed++;
      }
      answered++;
      if (!signal.aborted) onProgress(merged, answered, failed, said);
    }
  };
  await Promise.all(Array.from({ length: Math.min(FAN_OUT, collections.length) }, worker));
}
