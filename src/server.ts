import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Config } from './config.js';
import { createHttpApp } from './http/app.js';
import { taskEndpoint } from './http/task-endpoints.js';
import { openStore, type Store } from './store/index.js';
import { exposedFiles } from './store/privacy.js';
import { CollectionService } from './services/collections.js';
import { ItemService } from './services/items.js';
import { JobService, removeTaskUpload } from './services/jobs.js';
import { KeyService, type AdminKeySource } from './services/keys.js';
import { MediaLinks } from './services/links.js';
import { ServedFiles } from './services/served-files.js';
import { ModelService } from './services/models.js';
import { ShareService } from './services/shares.js';
import { nowIso } from './services/clock.js';
import { registerModelPullTask } from './services/model-pull-task.js';
import { uploadsDir } from './services/paths.js';
import { TaskEngine } from './services/task-engine.js';
import { TaskPresenter, TaskService } from './services/tasks.js';
import { DEFAULT_DELIVERY_POLICY, WebhookSender, type DeliveryPolicy } from './services/webhook-sender.js';
import { WebhookService } from './services/webhooks.js';
import { PeopleService } from './services/people/service.js';
import { AnalysisService, modelQueryEmbedder, SearchIndex, SearchService, type QueryEmbedder } from './services/search/index.js';
import { createLogger, type Logger } from './logger.js';
import { describeSystem } from './system.js';
import { configureFileAccess, egressPolicy, literalRefusal, primeSafeDemuxers, resolveInsideRoots, SourceError, type EgressPolicy, type Resolver } from './media/index.js';
import { configureTools, locateFfmpeg, locateFfprobe } from './media/binaries.js';
import { configureModelAssets } from './ml/assets.js';
import { primeGermanTesseract } from './ml/ocr/index.js';
import { ModelRuntime } from './ml/runtime.js';
import { loadManifest } from './ml/registry/manifest.js';
import { Analyzer } from './services/analysis/analyzer.js';
import { AnalysisCache } from './services/analysis/cache.js';
import { registerAnalyzeTask } from './services/analysis/handlers.js';
import { registerIndexTask } from './services/analysis/index-task.js';
import { registerReindexTask } from './services/analysis/reindex-task.js';
import { ExploreService } from './services/explore/index.js';
import { registerExploreTasks } from './services/explore/tasks.js';
import { WorkerPool } from './services/workers/pool.js';
import type { WorkerSettings } from './services/workers/protocol.js';
import { presentAnalyzeResult } from './services/analysis/present.js';
import { VERSION } from './version.js';
import { FolderService } from './services/folders/service.js';
import { registerScanTask } from './services/folders/tasks.js';
import { FolderWatcher } from './services/folders/watch.js';

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
  /** The analysis threads (tests look at them; unused when analyses run inline). */
  /** The threads analyses run in. */
  analysisWorkers: WorkerPool;
  adminKey: AdminKeySource;
  close(): Promise<void>;
}

/** Knobs tests turn; production uses the defaults. */
export interface StartOptions {
  deliveryPolicy?: DeliveryPolicy;
  logger?: Logger;
  /** Called before the engine starts, to register task handlers (later modules, tests). */
  registerTasks?: (engine: TaskEngine) => void;
  /** Embeds search queries; null searches words only. Default: the installed models of the models dir. */
  queryEmbedder?: QueryEmbedder | null;
  /** Resolves host names for URL downloads and webhooks; tests answer loopback names with it. */
  resolver?: Resolver;
  /** Where webhook deliveries may go; default loopback, public addresses and VIDX_URL_ALLOW. */
  webhookEgress?: EgressPolicy;
}

/** Task errors name files as the caller knows them: the server's own folder never appears in full. */
function dataDirRedactor(dataDir: string): (message: string) => string {
  const forms = [...new Set([dataDir, realpathSync(dataDir)])].sort((a, b) => b.length - a.length);
  return (message) => forms.reduce((m, d) => m.split(`${d}/`).join('').split(d).join('<data dir>'), message);
}

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/** A file changed less than this long ago may still be written: a scan waits until it holds still this long. */
const FILE_STABLE_MS = 2_000;
/** A file that keeps changing this long is reported as failed ("still being written") and tried by the next scan. */
const FILE_MAX_WAIT_MS = 10 * 60_000;
/** File events of a watched folder are gathered this long before one scan is asked for. */
const WATCH_DEBOUNCE_MS = 1_500;

function linkSecret(dataDir: string): Buffer {
  const file = join(dataDir, 'link.secret');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
  const secret = randomBytes(32);
  writeFileSync(file, secret.toString('base64url'), { mode: 0o600 });
  return secret;
}

/**
 * Opens the data dir, builds every service, starts the task engine and the HTTP server on config.host:port.
 * @example
 * const vidx = await startVidx(readConfig());
 * console.log(vidx.url); // http://127.0.0.1:8484
 * await vidx.close();
 */
export async function startVidx(config: Config, opts: StartOptions = {}): Promise<Vidx> {
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const releaseFileAccess = configureFileAccess({ mediaRoots: config.mediaRoots, dataDir: config.dataDir, ownDirs: config.ownDirs });
  configureTools(config.tools);
  configureModelAssets(config.modelAssets);
  for (const f of exposedFiles(config.dataDir)) {
    process.stderr.write(`vidx: warning: ${f.path} can be read by other users (mode ${f.mode.toString(8)}); it holds keys and secrets. Fix: ${f.fix}\n`);
  }
  const log = opts.logger ?? createLogger(config.logLevel);
  const store = openStore(join(config.dataDir, 'vidx.db'));
  const keys = new KeyService(store.keys);
  const adminKey = keys.bootstrap(config.adminKey, config.dataDir);

  let baseUrl = config.publicUrl ?? '';
  const links = new MediaLinks('', linkSecret(config.dataDir), config.dataDir);
  const presenter = new TaskPresenter(taskEndpoint);
  presenter.register('analyze', (result, row) => presentAnalyzeResult(result, links, row.owner));

  const webhookEgress = opts.webhookEgress ?? egressPolicy({ loopback: true, allow: config.urlAllow });
  const sender = new WebhookSender(store.webhooks, opts.deliveryPolicy ?? DEFAULT_DELIVERY_POLICY, VERSION, webhookEgress, opts.resolver);
  const webhooks = new WebhookService(store.webhooks, () => sender.wake(), presenter, (url) => literalRefusal(url, webhookEgress), config.maxWebhooksPerKey);
  const engine = new TaskEngine(store.tasks, config.taskConcurrency, (event, row) => webhooks.enqueue(event, row), log, dataDirRedactor(config.dataDir));
  const tasks = new TaskService(store.tasks, engine, presenter, (pk) => store.collections.findLiveByPk(pk) !== undefined);
  tasks.onDelete((task) => removeTaskUpload(task.data, uploadsDir(config.dataDir)));

  const collections = new CollectionService(store, config.dataDir, links);
  const items = new ItemService(store, collections, config.dataDir, links);
  const searchIndex = new SearchIndex(store);
  searchIndex.rebuildText((msg) => log(msg));
  collections.onDelete((pk) => searchIndex.removeCollection(pk));
  // The collection's queued and running tasks end at once: its id is free again, and another owner's
  // collection of that id must receive nothing of them.
  collections.whenDeleted((pk) => engine.endCollectionTasks(pk));
  items.onDelete((item) => searchIndex.removeItem(item));
  items.onEdit((collectionPk, itemPk) => searchIndex.retextItem(collectionPk, itemPk));
  items.onDelete((item) => store.shares.deleteOfItem(item.collection_pk, item.media_id));
  const shares = new ShareService(store, collections, links);
  store.shares.pruneExpired(nowIso());
  const manifest = loadManifest(config.modelsManifest);
  const queryEmbedder = opts.queryEmbedder !== undefined ? opts.queryEmbedder : modelQueryEmbedder({ modelsDir: config.modelsDir, manifest });
  const search = new SearchService(store, collections, links, queryEmbedder);
  const people = new PeopleService(store, collections, links, config.dataDir);
  const analysis = new AnalysisService(store, items, links, (c, i) => people.episodeFaces(c, i));
  const jobs = new JobService(tasks, collections, async (p) => {
    try {
      await resolveInsideRoots(p, config.mediaRoots, [config.dataDir]);
      return { ok: true };
    } catch (err) {
      if (err instanceof SourceError) return { ok: false, reason: err.message };
      throw err;
    }
  }, (collectionPk, mediaId) => store.items.find(collectionPk, mediaId) !== undefined);

  const models = new ModelRuntime({ modelsDir: config.modelsDir, manifestPath: config.modelsManifest });
  const modelAdmin = new ModelService(manifest, config.modelsDir, () => models.capabilities(), tasks, store.tasks);
  registerModelPullTask(engine, { manifest, modelsDir: config.modelsDir, hubUrl: config.hubUrl });
  const cache = new AnalysisCache(join(config.dataDir, 'cache'));
  cache.prune();
  // A task reaches what its owner's key may reach now (a key made admin later gains loopback, a revoked one nothing more).
  const egressFor = (owner: string): EgressPolicy => egressPolicy({ loopback: store.keys.get(owner)?.role === 'admin', allow: config.urlAllow });
  // Analyses run in worker threads with their own models (ONNX inference is synchronous on the thread that
  // runs it); VIDX_ANALYSIS_THREADS=0 runs them here.
  const workerSettings: WorkerSettings = {
    modelsDir: config.modelsDir,
    ...(config.modelsManifest ? { manifestPath: config.modelsManifest } : {}),
    mediaRoots: config.mediaRoots,
    dataDir: config.dataDir,
    ownDirs: config.ownDirs,
    tools: config.tools,
    modelAssets: config.modelAssets,
    ...(config.nativeRoot ? { nativeRoot: config.nativeRoot } : {}),
  };
  const pool = (threads: number, label: string) => new WorkerPool({ threads, settings: workerSettings, models, label, workersDir: config.workersDir });
  // As many analysis threads as tasks run at once; each has its own models.
  const analysisWorkers = pool(config.analysisThreads ? config.taskConcurrency : 0, 'analysis thread');
  const analyzer = new Analyzer(models, cache, {
    egressFor,
    ...(opts.resolver ? { resolver: opts.resolver } : {}),
    dataDir: config.dataDir,
    mediaRoots: config.mediaRoots,
    tempDir: join(config.dataDir, 'tmp'),
    uploadsDir: uploadsDir(config.dataDir),
  }, analysisWorkers);
  if (opts.registerTasks) opts.registerTasks(engine);
  if (!engine.hasHandler('analyze')) registerAnalyzeTask(engine, analyzer, uploadsDir(config.dataDir));
  // One job thread: on a 2-core machine the other core serves requests (and ONNX has its own threads).
  const runner = pool(1, 'job thread');
  const explore = new ExploreService(
    store,
    collections,
    search,
    async () => {
      const embedder = await models.textEmbedder();
      return embedder ? (texts) => embedder.embedPassages(texts) : null;
    },
    runner,
  );
  registerExploreTasks(engine, store, explore);
  const indexOptions = { dataDir: config.dataDir, uploadsDir: uploadsDir(config.dataDir) };
  if (!engine.hasHandler('index')) registerIndexTask(engine, { analyzer, store, searchIndex }, indexOptions);
  registerReindexTask(engine, { analyzer, store, searchIndex, options: indexOptions });
  const folders = new FolderService(store, collections, items, engine, config.mediaRoots);
  registerScanTask(engine, {
    store, items, index: { analyzer, store, searchIndex }, indexOptions, mediaRoots: config.mediaRoots,
    stableMs: FILE_STABLE_MS, maxWaitMs: FILE_MAX_WAIT_MS, concurrency: config.taskConcurrency,
  });
  const watcher = new FolderWatcher(
    (pk) => {
      const folder = store.folders.listWatched().find((f) => f.pk === pk);
      if (folder) folders.requestScan(folder, folder.owner);
    },
    { debounceMs: WATCH_DEBOUNCE_MS, rescanMs: config.folderRescanMinutes * 60_000 },
  );
  folders.watchWith(watcher);
  collections.onDelete((pk) => {
    for (const f of store.folders.listForCollection(pk)) watcher.removed(f.pk);
    return false; // one step: nothing left for another batch
  });
  const stopping = new AbortController();
  const app = createHttpApp({
    version: VERSION,
    keys, collections, items, tasks, webhooks, jobs, links, search, analysis, explore, folders, people,
    servedFiles: new ServedFiles(config.dataDir, store.collections, store.keys, (id, pk, folder) => shares.allows(id, pk, folder)),
    models: modelAdmin,
    shares,
    webDir: config.webDir,
    form: { uploadsDir: uploadsDir(config.dataDir), maxUploadBytes: config.maxUploadBytes, maxBodyBytes: config.maxBodyBytes },
    health: () => ({
      ...describeSystem(models, { threads: analysisWorkers.threaded }),
      // The sign-in page names where the admin key was written; only to a server on loopback (this machine).
      ...(isLoopbackHost(config.host) ? { admin_key_file: adminKey.kind === 'file' ? adminKey.path : null } : {}),
    }),
    log,
    stopping: stopping.signal,
  });

  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const hostForUrl = config.host.includes(':') ? `[${config.host}]` : config.host;
  if (!baseUrl) baseUrl = `http://${hostForUrl}:${port}`;
  links.setBaseUrl(baseUrl);

  // One-time tool checks (ffmpeg's demuxer list, Tesseract's languages) run now, off the request thread,
  // instead of as blocking spawns inside the first task.
  for (const tool of [locateFfmpeg().path, locateFfprobe().path]) if (tool) void primeSafeDemuxers(tool);
  void primeGermanTesseract();
  engine.start();
  sender.start();
  collections.startPurges((err) => log('purging a deleted collection failed; it is resumed at the next start', { error: String(err) }));
  for (const f of store.folders.listWatched()) watcher.added(f);

  let closed = false;
  return {
    url: `http://${hostForUrl}:${port}`,
    store,
    engine,
    keys,
    collections,
    searchIndex,
    analysisWorkers,
    adminKey,
    async close() {
      if (closed) return;
      closed = true;
      stopping.abort();
      await new Promise<void>((r) => server.close(() => r()));
      await watcher.close();
      await engine.stop();
      await collections.stopPurges();
      await runner.close();
      await analysisWorkers.close();
      sender.stop();
      store.close();
      releaseFileAccess();
    },
  };
}
