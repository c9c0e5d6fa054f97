/**
 * The services every request needs, wired to one store: keys, signed file links, tasks with their engine and
 * webhooks, collections, items, search, people, shares and the submissions of /index and /analyze. What one
 * service must learn from another (a deleted collection ends its tasks, a deleted item its shares) is wired
 * here, so no service holds another it does not use.
 */
import { join } from 'node:path';
import type { FileAccess } from '../media/index.js';
import type { Config } from '../config.js';
import { SignedFileLinks } from '../http/file-links.js';
import { taskEndpoint } from '../http/task-endpoints.js';
import type { Logger } from '../logger.js';
import { egressPolicy, literalRefusal, type EgressPolicy, type Resolver } from '../media/index.js';
import { loadManifest, type Manifest } from '../ml/registry/manifest.js';
import { pulledModel } from '../ml/pulled-model.js';
import { presentAnalyzeResult, presentWarnings } from '../services/analysis/present.js';
import { isKeptUpload } from '../services/analysis/item-files.js';
import { CollectionService } from '../services/collections.js';
import { DuplicateService } from '../services/duplicates/service.js';
import { ItemAnalysisService } from '../services/item-analysis.js';
import { ItemService } from '../services/items.js';
import { KeyService, type AdminKeySource } from '../services/keys.js';
import { PeopleService } from '../services/people/service.js';
import { VoiceService } from '../services/people/voices.js';
import { AskService } from '../services/ask/service.js';
import { TimelineService } from '../services/timeline/service.js';
import { LocalAnswerModel, PACKED_LLAMA_ENTRY } from '../ml/answer/local-model.js';
import { PlaceService } from '../services/places.js';
import { modelQueryEmbedder, SearchIndex, SearchService, SearchThreads, type QueryEmbedder, type SliceOptions } from '../services/search/index.js';
import { threadSource } from '../services/threads/entry.js';
import { PrintIndex } from '../services/search/print-index.js';
import { SearchGaps } from '../services/search/gaps.js';
import { ShareService } from '../services/shares.js';
import { mediaPathGuard, removeTaskUpload, SubmissionService } from '../services/submissions.js';
import { TaskEngine, type TaskEvent } from '../services/task-engine.js';
import type { TaskRow } from '../store/tasks.js';
import { TaskPresenter, TaskService } from '../services/tasks.js';
import { nowIso, type WallClock } from '../services/timestamps.js';
import { DEFAULT_DELIVERY_POLICY, WebhookSender, type DeliveryPolicy } from '../services/webhook-sender.js';
import { WebhookService } from '../services/webhooks.js';
import { WorkGate } from '../services/work-gate.js';
import type { Store } from '../store/index.js';
import { VERSION } from '../version.js';
import { dataDirRedactor, linkSecret } from './data-dir.js';

/**
 * Slots lent beyond VIDX_TASK_CONCURRENCY, each only to an owner with nothing running while others fill every
 * slot: another owner's short clip never waits behind a long analysis (issue 43). One is enough for turns, and
 * on 2 cores two analyses at once still leave the request thread its share.
 */
export const SPARE_WORK_SLOTS = 1;

/** What the core wiring takes from the start options. */
export interface CoreOptions {
  deliveryPolicy?: DeliveryPolicy;
  /** How large items are written in slices (tests stage every item, or hold a write between slices). */
  slicing?: SliceOptions;
  queryEmbedder?: QueryEmbedder | null;
  resolver?: Resolver;
  webhookEgress?: EgressPolicy;
  /** The search threads' module when not the one beside core.ts (tests: the compiled lib/ entry). */
  searchThreadEntry?: URL;
}

/**
 * What a start has before any service: the settings read once, the log, the open store and the file-access
 * rule. Every later step is handed these on one object (PocketBase's app), never through a module.
 */
export interface AppBase {
  /** The settings, read once (src/config.ts). */
  config: Config;
  log: Logger;
  store: Store;
  /** The server's file-access rule (src/media/file-access.ts). */
  files: FileAccess;
  /** The time services judge by (expiry of shares and signed links, key use): the system's, or a test's. */
  time: WallClock;
}

/** The app: its base and the core services, for the HTTP app and the later wiring steps (analysis, folders). */
export interface Core extends AppBase {
  keys: KeyService;
  adminKey: AdminKeySource;
  links: SignedFileLinks;
  gate: WorkGate;
  engine: TaskEngine;
  tasks: TaskService;
  webhooks: WebhookService;
  sender: WebhookSender;
  collections: CollectionService;
  items: ItemService;
  searchIndex: SearchIndex;
  places: PlaceService;
  /** Searches: on the search threads, or on the request thread (by picture, or before a thread is ready). */
  search: SearchThreads;
  people: PeopleService;
  voices: VoiceService;
  ask: AskService;
  timeline: TimelineService;
  /** The local answer model (unloaded at stop). */
  answers: LocalAnswerModel;
  analysis: ItemAnalysisService;
  duplicates: DuplicateService;
  shares: ShareService;
  submissions: SubmissionService;
  manifest: Manifest;
}

/**
 * Builds the core services over an open store.
 * @example
 * const core = buildCore({ config, log, store, files, time: systemClock }, opts);
 * core.engine.start();
 */
export function buildCore(app: AppBase, opts: CoreOptions): Core {
  const { config, store, log, files, time } = app;
  const keys = new KeyService(store.keys, store.storage, time);
  const adminKey = keys.bootstrap(config.adminKey, config.dataDir);
  // The base URL is known once the server listens (port 0 picks one): startVidx sets it then.
  const links = new SignedFileLinks('', linkSecret(config.dataDir), config.dataDir, undefined, time);
  const presenter = new TaskPresenter(taskEndpoint);
  presenter.register('analyze', (result, row, lang) => presentAnalyzeResult(result, links, row.owner, lang));
  presenter.register('index', (result, _row, lang) => presentWarnings(result, lang));

  const webhookEgress = opts.webhookEgress ?? egressPolicy({ loopback: true, allow: config.urlAllow });
  const sender = new WebhookSender(store.webhooks, opts.deliveryPolicy ?? DEFAULT_DELIVERY_POLICY, VERSION, webhookEgress, opts.resolver);
  const webhooks = new WebhookService(store.webhooks, () => sender.wake(), presenter, (url) => literalRefusal(url, webhookEgress), config.maxWebhooksPerKey, time);
  // One bound for all heavy work, shared by owners in turn (tasks, and every folder scan's files), and one
  // spare slot for an owner with nothing running (without a job queue: remote workers bound their own work).
  const gate = new WorkGate(config.taskConcurrency, config.queueUrl ? 0 : SPARE_WORK_SLOTS);
  const engine = new TaskEngine(store.tasks, gate, (event, row) => onTaskEvent(event, row), log, dataDirRedactor(config.dataDir), time);
  // An upload a task can never use (not media, a refused path) goes at once, not when the task is deleted.
  const onTaskEvent = (event: TaskEvent, row: TaskRow) => {
    webhooks.enqueue(event, row);
    if (event === 'task.failed' && row.error_retryable === 0) removeTaskUpload(JSON.parse(row.data), store.storage);
  };
  const tasks = new TaskService(store.tasks, engine, presenter, (pk) => store.collections.findLiveByPk(pk) !== undefined);
  tasks.onDelete((task) => removeTaskUpload(task.data, store.storage));

  const collections = new CollectionService(store, links);
  const items = new ItemService(store, collections, links, (near, km) => places.nearFilter(near, km));
  // The in-memory fingerprints of image search, forgotten per collection as its items change.
  const printIndex = new PrintIndex(store);
  const searchIndex = new SearchIndex(store, printIndex, opts.slicing, log);
  searchIndex.rebuildText(log);
  // Items a stop cut short while they were written in slices, and replaced ones not yet removed: nothing shows them.
  searchIndex.dropLeftovers();
  wireDeletions(store, engine, collections, items, searchIndex);
  const places = new PlaceService(config.placesFiles, store.items, store.db, (c, i) => searchIndex.retextItem(c, i), log);
  const shares = new ShareService(store, collections, links, time);
  store.shares.pruneExpired(nowIso(time));

  const manifest = loadManifest(config.modelsManifest);
  const queryEmbedder = opts.queryEmbedder !== undefined ? opts.queryEmbedder : modelQueryEmbedder({ modelsDir: config.modelsDir, manifest });
  // What answers say they could not look for: a missing model, speech never transcribed.
  const gaps = new SearchGaps(store.warnings, (capability) => pulledModel(config.modelsDir, capability, { manifest }));
  searchIndex.afterStore((collectionPk) => gaps.forget(collectionPk));
  items.onDelete((item) => gaps.forget(item.collection_pk));
  const people = new PeopleService(store, collections, links);
  const voices = new VoiceService(store, collections, links);
  const analysis = new ItemAnalysisService(store, items, links, (c, i) => people.episodeFaces(c, i));
  const duplicates = new DuplicateService(store, collections, (stored) => isKeptUpload(config.dataDir, stored));
  const localSearch = new SearchService(store, collections, links, printIndex, { embedder: queryEmbedder, gaps, nearFilter: (near, km) => places.nearFilter(near, km), copiesIn: (pk) => duplicates.copiesIn(pk), time });
  const search = searchThreads(app, opts, { local: localSearch, embedder: queryEmbedder, places, duplicates, links });
  searchIndex.afterStore((collectionPk) => search.changed(collectionPk));
  items.onDelete((item) => search.changed(item.collection_pk));
  collections.onDelete((pk) => {
    search.changed(pk);
    return false; // one step: nothing left for another batch
  });
  // The local answer model, when one is pulled: loaded on the first question, unloaded when idle.
  const answers = new LocalAnswerModel({ modelsDir: config.modelsDir, manifest }, {
    idleMs: config.askModelIdleMs,
    ...(config.askModelThreads ? { threads: config.askModelThreads } : {}),
    // The single binary carries node-llama-cpp unpacked beside its other parts.
    ...(config.nativeRoot ? { library: join(config.nativeRoot, PACKED_LLAMA_ENTRY) } : {}),
  });
  const installedAnswerModel = () => {
    const status = pulledModel(config.modelsDir, 'answer', { manifest });
    return status.available ? (status.model ?? null) : null;
  };
  const timeline = new TimelineService(store, collections, items, time);
  const ask = new AskService(search, collections, { installed: installedAnswerModel, writer: answers, timeoutMs: config.askModelMs });
  searchIndex.afterStore((collectionPk, itemPk) => duplicates.itemStored(collectionPk, itemPk));
  items.onDelete((item) => duplicates.itemRemoved(item.collection_pk, item.pk));
  collections.onDelete((pk) => {
    duplicates.collectionRemoved(pk);
    return false; // one step: nothing left for another batch
  });
  const submissions = new SubmissionService(tasks, collections, mediaPathGuard(files, config.mediaRoots, config.dataDir), (collectionPk, mediaId) => store.items.find(collectionPk, mediaId) !== undefined, store.storage);
  return { ...app, keys, adminKey, links, gate, engine, tasks, webhooks, sender, collections, items, searchIndex, places, search, people, voices, ask, answers, timeline, analysis, duplicates, shares, submissions, manifest };
}

/** What follows a deletion: a collection's text, vectors and tasks; an item's index rows and shares. */
/** The search threads in front of the request thread's search, told of every committed change a search could see. */
function searchThreads(app: AppBase, opts: CoreOptions, parts: { local: SearchService; embedder: QueryEmbedder | null; places: PlaceService; duplicates: DuplicateService; links: SignedFileLinks }): SearchThreads {
  const { config, store, log, time } = app;
  const { embedder, places, duplicates, links } = parts;
  const memory = store.db.memory;
  const threads = new SearchThreads({
    // An in-memory database has no file a thread could open.
    threads: memory ? 0 : config.searchThreads,
    // The single binary runs them from its one thread bundle (src/sea/thread.ts, by the settings' role).
    source: () => (opts.searchThreadEntry ? { url: opts.searchThreadEntry, eval: false } : threadSource(import.meta.url, 'search-thread', 'thread', config.threadsDir)),
    settings: {
      role: 'search',
      dbFile: store.db.name,
      dataDir: config.dataDir,
      modelsDir: config.modelsDir,
      ...(config.modelsManifest ? { manifestPath: config.modelsManifest } : {}),
      embedder: embedder !== null,
      ...(config.nativeRoot ? { nativeRoot: config.nativeRoot } : {}),
    },
    local: parts.local,
    asks: {
      vectors: (query, spaceIds, collectionPk, limit) => parts.local.vectorsFor(query, store.search.spaces().filter((s) => spaceIds.includes(s.id)), collectionPk, limit),
      nearFilter: (near, km) => places.nearFilter(near, km),
      copies: (collectionPk) => duplicates.copiesIn(collectionPk),
    },
    linkBase: () => links.base(),
    time,
    log,
  });
  // Every write a search could see: text tables, stored or removed items (notices); deleted collections below.
  store.text.onWrite((pk) => threads.changed(pk));
  return threads;
}

function wireDeletions(store: Store, engine: TaskEngine, collections: CollectionService, items: ItemService, searchIndex: SearchIndex): void {
  collections.onDelete((pk) => searchIndex.removeCollection(pk));
  // The collection's queued and running tasks end at once: its id is free again, and another owner's
  // collection of that id must receive nothing of them.
  collections.whenDeleted((pk) => engine.endCollectionTasks(pk));
  items.onDelete((item) => searchIndex.removeItem(item));
  items.onEdit((collectionPk, itemPk) => searchIndex.retextItem(collectionPk, itemPk));
  items.onDelete((item) => store.shares.deleteOfItem(item.collection_pk, item.media_id));
}
