import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Config } from './config.js';
import { createHttpApp } from './http/app.js';
import { openStore, type Store } from './store/index.js';
import { CollectionService } from './services/collections.js';
import { ItemService } from './services/items.js';
import { JobService, removeTaskUpload } from './services/jobs.js';
import { KeyService, type AdminKeySource } from './services/keys.js';
import { MediaLinks } from './services/links.js';
import { uploadsDir } from './services/paths.js';
import { TaskEngine } from './services/task-engine.js';
import { TaskService } from './services/tasks.js';
import { DEFAULT_DELIVERY_POLICY, WebhookSender, type DeliveryPolicy } from './services/webhook-sender.js';
import { WebhookService } from './services/webhooks.js';
import { createLogger, type Logger } from './logger.js';
import { describeSystem } from './system.js';
import { checkMediaPath } from './media/roots.js';
import { VERSION } from './version.js';

/** A running vidx: its URL, services for in-process callers (tests, CLI) and a clean stop. */
export interface Vidx {
  url: string;
  store: Store;
  engine: TaskEngine;
  keys: KeyService;
  adminKey: AdminKeySource;
  close(): Promise<void>;
}

/** Knobs tests turn; production uses the defaults. */
export interface StartOptions {
  deliveryPolicy?: DeliveryPolicy;
  logger?: Logger;
  /** Called before the engine starts, to register task handlers (later modules, tests). */
  registerTasks?: (engine: TaskEngine) => void;
}

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
 * const vidx = await startVidx(loadConfig(process.env));
 * console.log(vidx.url); // http://127.0.0.1:8484
 * await vidx.close();
 */
export async function startVidx(config: Config, opts: StartOptions = {}): Promise<Vidx> {
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const log = opts.logger ?? createLogger(config.logLevel);
  const store = openStore(join(config.dataDir, 'vidx.db'));
  const keys = new KeyService(store.keys);
  const adminKey = keys.bootstrap(config.adminKey, config.dataDir);

  const sender = new WebhookSender(store.webhooks, opts.deliveryPolicy ?? DEFAULT_DELIVERY_POLICY, VERSION);
  const webhooks = new WebhookService(store.webhooks, () => sender.wake());
  const engine = new TaskEngine(store.tasks, config.taskConcurrency, (event, row) => webhooks.enqueue(event, row), log);
  const tasks = new TaskService(store.tasks, engine);
  tasks.onDelete((task) => removeTaskUpload(task.data, uploadsDir(config.dataDir)));

  let baseUrl = config.publicUrl ?? '';
  const links = new MediaLinks('', linkSecret(config.dataDir), config.dataDir);
  const collections = new CollectionService(store, config.dataDir, links);
  const items = new ItemService(store, collections, config.dataDir, links);
  const jobs = new JobService(tasks, collections, (p) => checkMediaPath(p, config.mediaRoots));

  opts.registerTasks?.(engine);
  const app = createHttpApp({
    version: VERSION,
    keys, collections, items, tasks, webhooks, jobs, links,
    dataDir: config.dataDir,
    form: { uploadsDir: uploadsDir(config.dataDir), maxUploadBytes: config.maxUploadBytes, maxBodyBytes: config.maxBodyBytes },
    health: () => describeSystem(config),
    log,
  });

  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const hostForUrl = config.host.includes(':') ? `[${config.host}]` : config.host;
  if (!baseUrl) baseUrl = `http://${hostForUrl}:${port}`;
  links.setBaseUrl(baseUrl);

  engine.start();
  sender.start();

  let closed = false;
  return {
    url: `http://${hostForUrl}:${port}`,
    store,
    engine,
    keys,
    adminKey,
    async close() {
      if (closed) return;
      closed = true;
      await new Promise<void>((r) => server.close(() => r()));
      await engine.stop();
      sender.stop();
      store.close();
    },
  };
}
