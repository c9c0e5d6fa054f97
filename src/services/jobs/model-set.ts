/**
 * A model set: which capabilities an installation can run and with which model. It is part of every
 * analysis's cache key, and it names the queue a server puts its jobs in: a worker listens only on the
 * queue of its own model set, so a worker without the server's models never takes one of its jobs.
 */
import { createHash } from 'node:crypto';
import { PIPELINE_VERSION } from '../../analysis/cache.js';
import { modelSetEntries, type ModelSet } from '../../ml/model-set.js';

/**
 * The queue of a model set and pipeline version: `vidx-analysis-v<pipeline>-<12 hex>`.
 * @example
 * queueName(models.capabilities()); // 'vidx-analysis-v3-5f0c2a91be47'
 */
export function queueName(models: ModelSet): string {
  const digest = createHash('sha256').update(JSON.stringify(modelSetEntries(models))).digest('hex').slice(0, 12);
  return `vidx-analysis-v${PIPELINE_VERSION}-${digest}`;
}

/**
 * What a worker's set lacks or has besides the server's, in words (empty when they are the same).
 * @example
 * modelSetDifference(serverModels, workerModels);
 * // ['asr: the server has whisper-base, this worker has none']
 */
export function modelSetDifference(server: ModelSet, worker: ModelSet): string[] {
  const mine = new Map(modelSetEntries(worker).map(([name, available, model]) => [name, available ? model : null]));
  const theirs = new Map(modelSetEntries(server).map(([name, available, model]) => [name, available ? model : null]));
  const out: string[] = [];
  for (const name of [...new Set([...theirs.keys(), ...mine.keys()])].sort()) {
    const s = theirs.get(name) ?? null;
    const w = mine.get(name) ?? null;
    if (s !== w) out.push(`${name}: the server has ${s ?? 'none'}, this worker has ${w ?? 'none'}`);
  }
  return out;
}
