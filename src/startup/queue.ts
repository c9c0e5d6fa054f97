/**
 * The job queue of a start with VIDX_QUEUE_URL: the broker that turns analyses into BullMQ jobs for
 * `vidx worker` processes and the server's own workers. Without the setting there is none, and analyses
 * run in this process as before.
 */
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import type { ModelRuntime } from '../ml/runtime.js';
import type { AnalysisCache } from '../analysis/cache.js';
import { JobBroker } from '../services/jobs/broker.js';
import { ModelPack } from '../services/jobs/model-pack.js';
import type { ThreadPool } from '../services/threads/pool.js';
import { VERSION } from '../version.js';
import type { Core } from './core.js';
import { linkSecret } from './data-dir.js';

/**
 * The broker of the job queue, or null without VIDX_QUEUE_URL.
 * @example
 * const jobs = buildJobQueue(core, models, cache, analysisThreads);
 * const runner = jobs?.runner ?? poolRunner(analysisThreads);
 */
export function buildJobQueue(core: Core, models: ModelRuntime, cache: AnalysisCache, pool: ThreadPool): JobBroker | null {
  const { config } = core;
  if (!config.queueUrl) return null;
  return new JobBroker({
    url: config.queueUrl,
    // A stable name of this data dir that tells nothing of its link secret: servers may share one Redis.
    serverId: createHmac('sha256', linkSecret(config.dataDir)).update('vidx job queue').digest('hex').slice(0, 10),
    models: () => models.capabilities(),
    cache,
    store: core.store,
    gate: core.gate,
    localWorkers: config.localWorkers,
    lockSeconds: config.workerLockSeconds,
    spareRequests: config.workerSpareRequests,
    pool,
    workDir: join(config.dataDir, 'tmp'),
    version: VERSION,
    pack: new ModelPack(core.manifest, config.modelsDir, () => models.capabilities()),
    log: core.log,
  });
}
