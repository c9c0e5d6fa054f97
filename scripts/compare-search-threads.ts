/**
 * Same answers on threads: asks --queries searches (default 1000, words and hybrid, in the three 2k collections
 * and the big one) of the search threads and of the request thread alone, over a copy of a database built by
 * bench:search (--from DIR, kept with --keep), and compares the answers: results in the same order with the same
 * scores, the same notices and corrections (signed links aside, whose expiry is the second they were made).
 * The last line printed is one JSON object: how many answers were identical, and the first that was not.
 *
 *   npx tsx scripts/compare-search-threads.ts --from DIR [--queries 1000]
 */
import { copyFileSync, cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../src/config.js';
import { startVidx } from '../src/server.js';
import type { Caller } from '../src/services/caller.js';
import type { QueryEmbedder, QueryVector } from '../src/services/search/index.js';
import { SERVER_OUT, serverBuildFresh } from './build-server.js';
import { ADMIN_KEY, arg, benchEmbedder, queries } from './bench-search.js';

/** A signed link's signature and expiry depend on the second it was made: compared without them. */
const unsigned = (answer: unknown) => JSON.stringify(answer).replace(/\?exp=[^"]*/g, '?signed');

/** The bench embedder draws a little noise per call: here a query gets the same vector both times it is asked. */
function sameVectorTwice(embedder: QueryEmbedder): QueryEmbedder {
  const made = new Map<string, Promise<QueryVector | null>>();
  return {
    embed(query, space) {
      const key = `${space.model}\u0000${query}`;
      let v = made.get(key);
      if (!v) {
        v = embedder.embed(query, space);
        made.set(key, v);
      }
      return v;
    },
  };
}

async function main(): Promise<void> {
  const from = arg('from');
  if (!from || !existsSync(join(from, 'vidx.db'))) throw new Error('--from DIR: a data dir kept by bench:search --keep');
  const n = Number(arg('queries', '1000'));
  const dir = mkdtempSync(join(tmpdir(), 'vidx-compare-'));
  for (const f of ['vidx.db', 'vidx.db-wal']) if (existsSync(join(from, f))) copyFileSync(join(from, f), join(dir, f));
  if (existsSync(join(from, 'vector-index'))) cpSync(join(from, 'vector-index'), join(dir, 'vector-index'), { recursive: true });
  const compiled = join(SERVER_OUT, 'startup', 'search-thread.js');
  const searchThreadEntry = existsSync(compiled) && serverBuildFresh() ? pathToFileURL(compiled) : undefined;
  const config = loadConfig({ VIDX_HOST: '127.0.0.1', VIDX_PORT: '0', VIDX_DATA_DIR: dir, VIDX_LOG: 'silent', VIDX_ADMIN_KEY: ADMIN_KEY, VIDX_SEARCH_THREADS: '2' });
  const vidx = await startVidx(config, { queryEmbedder: sameVectorTwice(benchEmbedder), ...(searchThreadEntry ? { searchThreadEntry } : {}) });
  try {
    const caller: Caller = { id: 'bench', name: 'bench', role: 'admin' };
    const collections = ['side-a', 'side-b', 'side-c', 'main'];
    const qs = queries(n);
    let identical = 0;
    let differing: { query: string; collection: string } | null = null;
    const before = vidx.search.counts().answered;
    for (const [i, query] of qs.entries()) {
      const req = { query, collection: collections[i % collections.length]!, limit: 10, threshold: 0 };
      const onThread = await vidx.search.searchText(caller, req);
      const onRequestThread = await vidx.search.local().searchText(caller, req);
      if (unsigned(JSON.parse(onThread)) === unsigned(JSON.parse(onRequestThread))) identical++;
      else differing ??= { query, collection: req.collection };
    }
    console.log(JSON.stringify({ queries: qs.length, answered_on_threads: vidx.search.counts().answered - before, identical, first_differing: differing }));
  } finally {
    await vidx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
