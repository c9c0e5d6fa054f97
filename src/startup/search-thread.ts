/**
 * Entry of a search thread: opens the database read-only and builds the same SearchService the request thread
 * has over it, with what only the request thread keeps (query embedder, nearest-vector indexes, gazetteer,
 * copies) asked of it; then answers the searches it is sent. Started by SearchThreads; never imported by the
 * request thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SignedFileLinks } from '../http/file-links.js';
import { pulledModel } from '../ml/capabilities.js';
import { loadManifest } from '../ml/registry/manifest.js';
import { CollectionService } from '../services/collections.js';
import { SearchGaps } from '../services/search/gaps.js';
import { PrintIndex } from '../services/search/print-index.js';
import { SearchService } from '../services/search/search.js';
import type { SearchThreadSettings } from '../services/search/threads/protocol.js';
import { RequestThreadAsks, serveSearches } from '../services/search/threads/serve.js';
import type { WallClock } from '../services/timestamps.js';
import { openReadStore } from '../store/read-store.js';
import { linkSecret } from './data-dir.js';

const port = parentPort;
if (!port) throw new Error('src/startup/search-thread.ts runs as a thread only');
const settings = workerData as SearchThreadSettings;

// The request thread's clock, as its last search said it: a test's clock reaches the thread too.
let offsetMs = 0;
const time: WallClock = { now: () => new Date(Date.now() + offsetMs) };

const store = openReadStore(settings.dbFile, settings.dataDir);
const links = new SignedFileLinks('', linkSecret(settings.dataDir), settings.dataDir, undefined, time);
const manifest = loadManifest(settings.manifestPath);
const gaps = new SearchGaps(store.warnings, (capability) => pulledModel(settings.modelsDir, capability, { manifest }));
const asks = new RequestThreadAsks(port);
const search = new SearchService(store, new CollectionService(store, links), links, new PrintIndex(store), {
  embedder: settings.embedder ? { embed: (query, space) => asks.call('embed', query, space) } : null,
  gaps,
  ...(settings.near ? { nearFilter: (near: string, km?: number) => asks.call('nearFilter', near, km) } : {}),
  copiesIn: (collectionPk) => asks.call('copies', collectionPk),
  nearestVectors: (space, collectionPk, query, k) => asks.call('nearest', space.id, collectionPk, query, k),
  time,
});

serveSearches(port, {
  search,
  asks,
  changed: (collectionPks) => {
    for (const pk of collectionPks) {
      store.text.noteWrite(pk);
      gaps.forget(pk);
    }
  },
  heardRequest: (now, linkBase) => {
    offsetMs = now - Date.now();
    links.setBaseUrl(linkBase);
  },
});
