import { join } from 'node:path';
import type { Config } from './config.js';
import { createHttpApp } from './http/app.js';
import { createLogger, redacting, type Logger } from './logger.js';
import { isLoopbackHost, primeSafeDemuxers } from './media/index.js';
import { primeGermanTesseract } from './ml/ocr/index.js';
import { sweepItemFolders } from './services/analysis/item-files.js';
import type { CollectionService } from './services/collections.js';
import type { DuplicateService } from './services/duplicates/service.js';
import type { KeyService, AdminKeySource } from './services/keys.js';
import { uploadsDir } from './store/paths.js';
import { sweepUploads } from './services/upload-sweep.js';
import { warmDateWords, type SearchIndex, type SearchThreads } from './services/search/index.js';
import { pictureFileReader } from './services/search/picture-file.js';
import { ServedFiles } from './services/served-files.js';
import { ShownPictures } from './services/shown-pictures.js';
import type { TaskEngine } from './services/task-engine.js';
import type { ThreadPool } from './services/threads/pool.js';
import { buildAnalysis, type AnalysisOptions, type AnalysisSide } from './startup/analysis.js';
import { buildCore, type Core, type CoreOptions } from './startup/core.js';
import { prepareDataDir } from './startup/data-dir.js';
import { buildFolders, type FolderOptions } from './startup/folders.js';
import { servedHosts } from './startup/hosts.js';
import { listen, type Listening } from './startup/listen.js';
import { openStore, type Store } from './store/index.js';
import { describeSystem } from './system.js';
import type { MediaTools } from './media/binaries.js';
import { readCommonWords } from './tools/common-words.js';
import { VERSION } from './version.js';
import { systemClock, type WallClock } from './services/timestamps.js';

/** A running vidx: its URL, services for in-process callers (tests, CLI) and a clean stop. */
export interface Vidx {
  url: string;
  store: Store;
  engine: TaskEngine;
  keys: KeyService;
  /** Collections (tests and benchmarks wait for background purges with `collections.purged()`). */
  collections: CollectionService;
  /** Writes analysed items into the search index (indexing, tests). */
  searchIndex: SearchIndex;
  /** Copies across a collection (benchmarks rebuild them from scratch). */
  duplicates: DuplicateService;
  /** The threads analyses run in (tests look at them; unused when analyses run inline). */
  analysisThreads: ThreadPool;
  /** Searches: on the search threads, else on the request thread (tests start the threads with `warm()`). */
  search: SearchThreads;
  adminKey: AdminKeySource;
  /** Answers a request in-process, as the socket would (tests of routes that need no socket). */
  request(req: Request): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Knobs tests turn; production uses the defaults: the delivery policy of webhooks, a resolver that answers
 * loopback names, where webhooks may go, the query embedder (null: words only), task stand-ins, and a hook
 * told as indexing stores an item.
 */
export interface StartOptions extends CoreOptions, AnalysisOptions, FolderOptions {
  logger?: Logger;
  /** The time services judge by; tests give one that stands still until they move it. Default the system's. */
  time?: WallClock;
  /** false opens no socket (tests that call `request`); everything else starts as usual. Default true. */
  listen?: boolean;
}

/**
 * Opens the data dir, builds every service, starts the task engine and the HTTP server on config.host:port.
 * @example
 * const vidx = await startVidx(readConfig());
 * console.log(vidx.url); // http://127.0.0.1:8484
 * await vidx.close();
 */
export async function startVidx(config: Config, opts: StartOptions = {}): Promise<Vidx> {
  const files = prepareDataDir(config);
  // Share tokens and link signatures never reach the log, whichever logger writes it.
  const log = redacting(opts.logger ?? createLogger(config.logLevel));
  for (const warning of config.warnings) log(`settings: ${warning}`);
  const store = openStore(join(config.dataDir, 'vidx.db'));
  // Versions of item files a crash left unnamed (before or after a commit) go before anything is served.
  sweepItemFolders(store.db, config.dataDir);
  // Uploads a killed server was receiving belong to no task: nothing would ever remove them.
  const partial = sweepUploads(store);
  if (partial > 0) log('removed uploads no task holds (left by an interrupted request)', { files: partial });
  const core = buildCore({ config, log, store, files, time: opts.time ?? systemClock }, opts);
  const analysis = buildAnalysis(core, opts);
  const folders = buildFolders(core, analysis, opts);
  const stopping = new AbortController();
  // The core's services go to the HTTP layer under their own names; HttpDeps's type names the ones it may use.
  const app = createHttpApp({
    ...core,
    version: VERSION,
    pictureFile: pictureFileReader(files, config.mediaRoots, config.dataDir),
    explore: analysis.explore,
    folders: folders.folders,
    models: analysis.modelAdmin,
    jobs: analysis.jobs,
    servedFiles: new ServedFiles(config.dataDir, files, store.collections, store.keys, (id, pk, folder) => core.shares.allows(id, pk, folder), (job, n, key) => analysis.jobs?.jobFile(job, n, key) ?? null, new ShownPictures((input) => analysis.requestThread.run('browser_picture', input))),
    webDir: config.webDir,
    form: { uploadsDir: uploadsDir(config.dataDir), maxUploadBytes: config.maxUploadBytes, maxBodyBytes: config.maxBodyBytes },
    hosts: servedHosts(config),
    health: () => healthFacts(core, analysis),
    log,
    stopping: stopping.signal,
  });
  // The first searches after a start would otherwise pay chrono-node's first readings (200–300 ms), and the
  // first misspelt one the word lists (~90 ms): the lists are read here only when searches are answered here.
  warmDateWords();
  if (config.searchThreads === 0) readCommonWords();
  // The search threads start before the server listens, not on the first search: loading one takes most of a
  // second of CPU, which the first searches would wait behind.
  await core.search.warm();
  // Without a socket, links name the configured host; a test that fetches them listens instead.
  const listening = opts.listen === false ? unlistened(config.host) : await listen(app.fetch, config.host, config.port);
  core.links.setBaseUrl(config.publicUrl ?? listening.url);
  startBackground(core, analysis.models.tools, log);
  folders.watchAll();

  let closed = false;
  return {
    url: listening.url,
    store,
    engine: core.engine,
    keys: core.keys,
    collections: core.collections,
    searchIndex: core.searchIndex,
    duplicates: core.duplicates,
    analysisThreads: analysis.analysisThreads,
    search: core.search,
    adminKey: core.adminKey,
    request: async (req) => app.fetch(req),
    async close() {
      if (closed) return;
      closed = true;
      stopping.abort();
      await listening.close();
      await folders.close();
      await core.engine.stop();
      await core.collections.stopPurges();
      await core.search.close();
      await core.searchIndex.stop();
      await analysis.close();
      await core.answers.unload();
      core.sender.stop();
      store.close();
    },
  };
}

/** What stands for the socket when a server starts without one: nothing to close. */
function unlistened(host: string): Pick<Listening, 'url' | 'close'> {
  return { url: `http://${host.includes(':') ? `[${host}]` : host}`, close: async () => {} };
}

/** What GET /health adds: capabilities and tools, where analyses run, the work gate, the job queue and (on loopback) the admin key file. */
function healthFacts(core: Core, analysis: AnalysisSide) {
  const { config } = core;
  return {
    ...describeSystem(analysis.models, { threads: analysis.analysisThreads.threaded }),
    work: core.gate.counts(),
    answer_model: { loaded: core.answers.isLoaded },
    search: core.search.counts(),
    ...(analysis.jobs?.health() ?? { workers: 0, queue: null }),
    // The sign-in page says where the admin key is (a file's path, or VIDX_ADMIN_KEY); only from a server on
    // loopback, where whoever asks is on this machine. Off loopback a caller without a key learns neither.
    ...(isLoopbackHost(config.host) ? { admin_key_file: core.adminKey.kind === 'file' ? core.adminKey.path : null, admin_key_source: core.adminKey.kind } : {}),
  };
}

/** Starts what runs in the background: tool checks, the task engine, webhook deliveries, collection purges. */
function startBackground(core: Core, tools: MediaTools, log: Logger): void {
  // One-time tool checks (ffmpeg's demuxer list, Tesseract's languages) run now, off the request thread,
  // instead of as blocking spawns inside the first task.
  for (const tool of [tools.locateFfmpeg().path, tools.locateFfprobe().path]) if (tool) void primeSafeDemuxers(tool);
  void primeGermanTesseract(tools);
  core.engine.start();
  core.sender.start();
  core.collections.startPurges((err) => log('purging a deleted collection failed; it is resumed at the next start', { error: String(err) }));
  // Items stored before places existed get theirs; the gazetteer loads only when some are waiting.
  void core.places.backfill().catch((err) => log('looking up places of earlier items failed; it is retried at the next start', { error: String(err) }));
}
