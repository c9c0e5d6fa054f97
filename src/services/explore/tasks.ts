import type { Repos } from '../../store/index.js';
import type { Caller } from '../caller.js';
import type { TaskEngine } from '../task-engine.js';
import type { ClustersRequest, ExploreService, SuggestionsRequest } from './index.js';

/** The caller a deferred task acts for: its owner's key, as it is now (a revoked key fails the task). */
function ownerOf(store: Repos<'keys'>, owner: string): Caller {
  const key = store.keys.get(owner);
  if (!key) throw new Error('the API key that created this task was revoked');
  return { id: key.id, name: key.name, role: key.role };
}

async function collect<T>(gen: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const el of gen) out.push(el);
  return out;
}

/**
 * Registers the deferred forms of POST /search_clusters and /collection_suggestions (`?defer=true`): the
 * task's result is the list of elements the stream would have sent.
 * @example
 * registerExploreTasks(engine, store, explore);
 */
export function registerExploreTasks(engine: TaskEngine, store: Repos<'keys'>, explore: ExploreService): void {
  engine.register<{ request: ClustersRequest }>('clusters', async (ctx) =>
    collect(explore.clusters(ownerOf(store, ctx.owner), ctx.data.request, ctx.signal)),
  );
  engine.register<{ request: SuggestionsRequest }>('suggestions', async (ctx) =>
    collect(explore.suggestions(ownerOf(store, ctx.owner), ctx.data.request, ctx.signal)),
  );
}
