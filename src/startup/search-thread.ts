/**
 * Entry of a search thread: opens the database read-only and builds the same SearchService the request thread
 * has over it, with what only the request thread keeps (query embedder, nearest-vector indexes, gazetteer,
 * copies) asked of it; then answers the searches it is sent. Started by SearchThreads; never imported by the
 * request thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { LRUMapWithDelete } from 'mnemonist';
import { SignedFileLinks } from '../http/file-links.js';
import { pulledModel } from '../ml/pulled-model.js';
import { loadManifest } from '../ml/registry/manifest.js';
import { CollectionService } from '../services/collections.js';
import type { CopyOf } from '../services/duplicates/service.js';
import { SearchGaps } from '../services/search/gaps.js';
import { warmDateWords } from '../services/search/date-words.js';
import { PrintIndex } from '../services/search/print-index.js';
import { SearchService } from '../services/search/search.js';
import type { SearchThreadSettings } from '../services/search/threads/protocol.js';
import { RequestThreadAsks, serveSearches } from '../services/search/threads/serve.js';
import type { WallClock } from '../services/timestamps.js';
import { openReadStore } from '../store/read-store.js';
import { readCommonWords } from '../tools/common-words.js';
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
/** Collections whose copies a thread keeps: the ones searched lately (each map is the size of its copies). */
const COPIES_KEPT = 64;

// The collections' copies as the request thread found them, kept until a change to the collection is heard.
const copies = new LRUMapWithDelete<number, Promise<ReadonlyMap<number, CopyOf>>>(COPIES_KEPT);
const search = new SearchService(store, new CollectionService(store, links), links, new PrintIndex(store), {
  queryVectors: settings.embedder ? (query, spaces, collectionPk, limit) => asks.call('vectors', query, spaces.map((s) => s.id), collectionPk, limit) : null,
  gaps,
  nearFilter: (near, km) => asks.call('nearFilter', near, km),
  copiesIn: (collectionPk) => {
    let kept = copies.get(collectionPk);
    if (!kept) {
      kept = asks.call('copies', collectionPk);
      copies.set(collectionPk, kept);
      // A failed ask is asked again next time.
      kept.catch(() => copies.delete(collectionPk));
    }
    return kept;
  },
  time,
});

// Its first searches would otherwise pay chrono-node's first readings and the word lists that keep real words
// from being corrected: both done before the thread says it is ready.
warmDateWords();
readCommonWords();
serveSearches(port, {
  search,
  asks,
  changed: (collectionPks) => {
    for (const pk of collectionPks) {
      store.text.noteWrite(pk);
      gaps.forget(pk);
      copies.delete(pk);
    }
  },
  heardRequest: (now, linkBase) => {
    offsetMs = now - Date.now();
    links.setBaseUrl(linkBase);
  },
});
