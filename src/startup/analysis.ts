/**
 * The analysis side of a start: the models, the threads analyses and explore calls run in, the
 * analyzer, and the handlers of every task kind that analyses (index, analyze, re-index), explores or pulls
 * models.
 */
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { EgressPolicy, Resolver } from '../media/index.js';
import { egressPolicy } from '../media/index.js';
import { ModelRuntime } from '../ml/runtime.js';
import { MediaTools } from '../media/binaries.js';
import { Analyzer } from '../services/analysis/analyzer.js';
import { AnalysisCache } from '../analysis/cache.js';
import { poolRunner } from '../services/analysis/runner.js';
import { registerAnalyzeTask } from '../services/analysis/handlers.js';
import { registerIndexTask, type IndexDeps, type IndexStep, type IndexTaskOptions } from '../services/analysis/index-task.js';
import { registerReindexTask } from '../services/analysis/reindex-task.js';
import { ExploreService } from '../services/explore/index.js';
import { ExploreRepository } from '../store/explore.js';
import { registerExploreTasks } from '../services/explore/tasks.js';
import { registerModelPullTask } from '../services/model-pull-task.js';
import { ModelService } from '../services/models.js';
import { uploadsDir } from '../store/paths.js';
import type { TaskEngine } from '../services/task-engine.js';
import { ThreadPool } from '../services/threads/pool.js';
import type { ThreadSettings } from '../services/threads/protocol.js';
import { SPARE_WORK_SLOTS, type Core } from './core.js';
import { buildJobQueue } from './queue.js';
import type { JobBroker } from '../services/jobs/broker.js';

/** What the analysis wiring takes from the start options. */
export interface AnalysisOptions {
  resolver?: Resolver;
  /** Registers task handlers before the built-in ones (tests put stand-ins in). */
  registerTasks?: (engine: TaskEngine) => void;
  /** Told as indexing stores an item (crash tests stop the process there). */
  indexSteps?: (step: IndexStep) => void;
  /** The analysis threads' module when not the one beside the pool (tests: the compiled lib/ entry). */
  threadEntry?: URL;
}

/** The analysis services, for the HTTP app and for close(). */
export interface AnalysisSide {
  models: ModelRuntime;
  modelAdmin: ModelService;
  explore: ExploreService;
  /** What indexing needs (folder scans index through it too). */
  index: IndexDeps;
  indexOptions: IndexTaskOptions;
  analysisThreads: ThreadPool;
  /** The one job thread for light work off the request loop (explore, a photo's picture for browsers). */
  requestThread: ThreadPool;
  /** The job queue (VIDX_QUEUE_URL), or null: analyses run in this process. */
  jobs: JobBroker | null;
  /** Stops the job queue and the threads. */
  close(): Promise<void>;
}

/** What every thread starts with: plain data (file access, tool and model paths). */
function threadSettings(config: Config): ThreadSettings {
  return {
    modelsDir: config.modelsDir,
    ...(config.modelsManifest ? { manifestPath: config.modelsManifest } : {}),
    mediaRoots: config.mediaRoots,
    dataDir: config.dataDir,
    ownDirs: config.ownDirs,
    tools: config.tools,
    modelAssets: config.modelAssets,
    onnxProviders: config.onnxProviders,
    ...(config.nativeRoot ? { nativeRoot: config.nativeRoot } : {}),
  };
}

/**
 * Builds the models, threads and analyzer, and registers the task handlers that use them.
 * @example
 * const analysis = buildAnalysis(core, opts);
 */
export function buildAnalysis(core: Core, opts: AnalysisOptions): AnalysisSide {
  const { config, store, engine } = core;
  // The one place the server's tool and model settings become what every analysis and scan is handed.
  const models = new ModelRuntime({
    modelsDir: config.modelsDir,
    manifestPath: config.modelsManifest,
    tools: new MediaTools(config.tools, core.files),
    setup: { assets: config.modelAssets, providers: config.onnxProviders },
  });
  const modelAdmin = new ModelService(core.manifest, config.modelsDir, () => models.capabilities(), core.tasks, store.tasks);
  registerModelPullTask(engine, { manifest: core.manifest, modelsDir: config.modelsDir, hubUrl: config.hubUrl });
  const cache = new AnalysisCache(join(config.dataDir, 'cache'));
  cache.prune();
  // A task reaches what its owner's key may reach now (a key made admin later gains loopback, a revoked one nothing more).
  const egressFor = (owner: string): EgressPolicy => egressPolicy({ loopback: store.keys.get(owner)?.role === 'admin', allow: config.urlAllow });
  const pool = (threads: number, label: string) => new ThreadPool({ threads, settings: threadSettings(config), models, label, threadsDir: config.threadsDir, ...(opts.threadEntry ? { entry: opts.threadEntry } : {}) });
  // Analyses run in threads with their own models (ONNX inference is synchronous on the thread that
  // runs it), as many as the work gate lets run at once; VIDX_ANALYSIS_THREADS=0 runs them here.
  // With the job queue, the threads are the server's own workers' (VIDX_LOCAL_WORKERS).
  const threads = config.queueUrl ? Math.max(1, config.localWorkers) : config.taskConcurrency + SPARE_WORK_SLOTS;
  const analysisThreads = pool(config.analysisThreads ? threads : 0, 'analysis thread');
  const jobs = buildJobQueue(core, models, cache, analysisThreads);
  const analyzer = new Analyzer(models, cache, {
    egressFor,
    ...(opts.resolver ? { resolver: opts.resolver } : {}),
    dataDir: config.dataDir,
    mediaRoots: config.mediaRoots,
    tempDir: join(config.dataDir, 'tmp'),
    uploadsDir: uploadsDir(config.dataDir),
  }, jobs?.runner ?? poolRunner(analysisThreads));
  // One job thread for explore: on a 2-core machine the other core serves requests (and ONNX has its own threads).
  const requestThread = pool(1, 'job thread');
  const textEmbedder = async () => {
    const embedder = await models.textEmbedder();
    return embedder ? (texts: string[]) => embedder.embedPassages(texts) : null;
  };
  const explore = new ExploreService(new ExploreRepository(store.db), core.collections, core.search, textEmbedder, requestThread, (pk) => core.duplicates.copyGroups(pk));

  opts.registerTasks?.(engine);
  const indexOptions: IndexTaskOptions = { dataDir: config.dataDir, uploadsDir: uploadsDir(config.dataDir) };
  const index: IndexDeps = { analyzer, store, searchIndex: core.searchIndex, places: core.places, ...(opts.indexSteps ? { onStep: opts.indexSteps } : {}) };
  if (!engine.hasHandler('analyze')) registerAnalyzeTask(engine, analyzer, store.storage);
  if (!engine.hasHandler('index')) registerIndexTask(engine, index, indexOptions);
  registerReindexTask(engine, { ...index, options: indexOptions });
  registerExploreTasks(engine, store, explore);
  return {
    models, modelAdmin, explore, index, indexOptions, analysisThreads, jobs, requestThread,
    async close() {
      await jobs?.close();
      await requestThread.close();
      await analysisThreads.close();
    },
  };
}
