import type { VidxClient } from '../client/index.js';
import type { WorkerConfig } from '../config.js';
import type { Logger } from '../logger.js';
import { parseManifest } from '../ml/registry/manifest.js';
import { pull } from '../ml/registry/pull.js';

/**
 * `vidx worker --pull-models`: pulls the models the server analyses with from the server itself (its
 * `/worker/hub`, laid out like a model hub), as `vidx models pull` would from the hub: only missing files,
 * resumed, checked. A worker on a machine without the internet gets them this way.
 * @example
 * await pullServerModels(client, config, log); // { pulled: ['whisper-base'], … }
 */
export async function pullServerModels(client: VidxClient, c: Pick<WorkerConfig, 'serverUrl' | 'apiKey' | 'modelsDir'>, log: Logger): Promise<string[]> {
  const { models } = await client.GET('/worker/models');
  if (models.length === 0) return [];
  const manifest = parseManifest({ schemaVersion: 1, models });
  const withKey: typeof fetch = (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string> | undefined), 'x-api-key': c.apiKey } });
  const ids = manifest.models.map((m) => m.id);
  log('worker: pulling the server’s models', { models: ids });
  const result = await pull(ids, { hubUrl: `${c.serverUrl}/worker/hub`, modelsDir: c.modelsDir, manifest, fetch: withKey });
  log('worker: the server’s models are here', { pulled: result.pulled, already_installed: result.alreadyInstalled, bytes: result.bytesFetched });
  return ids;
}
