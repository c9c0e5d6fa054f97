import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllowList, type AllowList } from './media/egress.js';

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
  logLevel: 'info' | 'silent';
  /** Download missing default models at start (only when asked for with --pull-models). */
  pullModels: boolean;
  /** Hosts and ranges every key's URLs and webhooks may reach (VIDX_URL_ALLOW). */
  urlAllow: AllowList;
  /** The built web page (index.html, assets/): dist/web of the checkout, or the binary's unpacked copy. */
  webDir: string;
  /** Watched folders are rescanned in full this often (minutes; 0 = only on file events). */
  folderRescanMinutes: number;
  /** Analyses run in worker threads (VIDX_ANALYSIS_THREADS=1, the default) or on the request thread (0). */
  analysisThreads: boolean;
  /**
   * Every folder vidx writes: the data dir, the models dir and the single binary's unpacked files
   * (VIDX_NATIVE_ROOT, set by the binary). Scans, watchers and `path` inputs never read from them.
   */
  ownDirs: string[];
  /** Webhooks one key may register (VIDX_MAX_WEBHOOKS_PER_KEY). */
  maxWebhooksPerKey: number;
}

/** Environment variable ↔ flag names; docs/configuration.md's table mirrors this. */
const FLAGS: Record<string, string> = {
  '--host': 'VIDX_HOST',
  '--port': 'VIDX_PORT',
  '--data-dir': 'VIDX_DATA_DIR',
  '--media-roots': 'VIDX_MEDIA_ROOTS',
  '--models-dir': 'VIDX_MODELS_DIR',
  '--hub-url': 'VIDX_HUB_URL',
  '--max-upload-mb': 'VIDX_MAX_UPLOAD_MB',
  '--concurrency': 'VIDX_TASK_CONCURRENCY',
  '--public-url': 'VIDX_PUBLIC_URL',
  '--log': 'VIDX_LOG',
  '--url-allow': 'VIDX_URL_ALLOW',
};

/** A configuration error the CLI prints without a stack trace. */
export class ConfigError extends Error {}

function defaultDataDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(base, 'vidx');
}

function int(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

/**
 * Reads flags (which win) and environment variables into a Config.
 * @example
 * const config = loadConfig(process.env, ['--port', '9000']);
 */
export function loadConfig(env: NodeJS.ProcessEnv, argv: string[] = []): Config {
  const vars: Record<string, string | undefined> = { ...env };
  let pullModels = false;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    if (flag === '--pull-models') {
      pullModels = true;
      continue;
    }
    const name = FLAGS[flag];
    if (!name) throw new ConfigError(`unknown option ${flag}; see vidx serve --help`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new ConfigError(`${flag} needs a value`);
    vars[name] = value;
  }
  const host = vars.VIDX_HOST || '127.0.0.1';
  const port = int('VIDX_PORT', vars.VIDX_PORT, 8484, 0, 65535);
  const dataDir = resolve(vars.VIDX_DATA_DIR || defaultDataDir(env));
  const roots = (vars.VIDX_MEDIA_ROOTS || homedir()).split(delimiter).filter(Boolean).map((p) => resolve(p));
  const log = vars.VIDX_LOG || 'info';
  if (log !== 'info' && log !== 'silent') throw new ConfigError(`VIDX_LOG must be info or silent, got "${log}"`);
  let urlAllow: AllowList;
  try {
    urlAllow = parseAllowList(vars.VIDX_URL_ALLOW);
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  const modelsDir = resolve(vars.VIDX_MODELS_DIR || join(dataDir, 'models'));
  return {
    host,
    port,
    dataDir,
    adminKey: vars.VIDX_ADMIN_KEY || undefined,
    mediaRoots: roots,
    modelsDir,
    modelsManifest: vars.VIDX_MODELS_MANIFEST || undefined,
    hubUrl: (vars.VIDX_HUB_URL || 'https://huggingface.co').replace(/\/+$/, ''),
    maxUploadBytes: int('VIDX_MAX_UPLOAD_MB', vars.VIDX_MAX_UPLOAD_MB, 4096, 1, 1024 * 1024) * 1024 * 1024,
    maxBodyBytes: 1024 * 1024,
    taskConcurrency: int('VIDX_TASK_CONCURRENCY', vars.VIDX_TASK_CONCURRENCY, 1, 1, 16),
    publicUrl: vars.VIDX_PUBLIC_URL?.replace(/\/+$/, '') || undefined,
    logLevel: log,
    pullModels,
    urlAllow,
    // The binary sets VIDX_WEB_DIR to its unpacked copy (its import.meta.url is the executable).
    webDir: resolve(vars.VIDX_WEB_DIR || fileURLToPath(new URL('../dist/web', import.meta.url))),
    folderRescanMinutes: int('VIDX_FOLDER_RESCAN_MINUTES', vars.VIDX_FOLDER_RESCAN_MINUTES, 60, 0, 10_080),
    analysisThreads: int('VIDX_ANALYSIS_THREADS', vars.VIDX_ANALYSIS_THREADS, 1, 0, 1) === 1,
    ownDirs: [dataDir, modelsDir, ...(vars.VIDX_NATIVE_ROOT ? [resolve(vars.VIDX_NATIVE_ROOT)] : [])],
    maxWebhooksPerKey: int('VIDX_MAX_WEBHOOKS_PER_KEY', vars.VIDX_MAX_WEBHOOKS_PER_KEY, 100, 1, 10_000),
  };
}
