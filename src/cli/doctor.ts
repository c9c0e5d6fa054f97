import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { configuredSettings, ConfigError, readConfig, readConfigWithout, type Config } from '../config.js';
import type { ModelAssetPaths } from '../ml/assets.js';
import { SETTINGS } from '../settings/schema.js';
import { MediaTools, type ToolLocation } from '../media/binaries.js';
import { FileAccess } from '../media/index.js';
import { freeBytes } from './models-format.js';
import { formatBytes } from '../tools/bytes.js';
import { nativeRoot } from '../sea/native.js';
import { exposedFiles } from '../store/privacy.js';
import { VERSION } from '../version.js';
import { redactRedisUrl } from '../services/jobs/redis.js';
import { EXIT } from './client.js';
import { CLIENT_OPTIONS, clientFrom, output, parseFlags, runCommand } from './common.js';

const HELP = `Usage: vidx doctor [--data-dir D] [--models-dir D] [--json]

Checks what vidx needs and says what to do about each problem; it never downloads or changes anything:
  ffmpeg, ffprobe   found (FFMPEG_PATH / FFPROBE_PATH, PATH) and runnable
  yt-dlp            found (only needed for video-sharing page URLs)
  native parts      SQLite with sqlite-vec, ONNX Runtime (loads the VAD model), sharp
  capabilities      OCR and VAD (shipped), German OCR letters (system Tesseract with its deu model),
                    and the pulled models: speech recognition, image-text, text embedding
  data dir          exists or can be created, writable, free space; private: the dir 0700, vidx.db (and its
                    WAL/SHM), admin.key and link.secret 0600 (a failure otherwise, with the chmod)
  models dir        writable and free space for pulls
  server            whether a vidx answers at --url (information only)

Exit codes: 0 nothing failed (warnings allowed), 1 at least one check failed, 2 usage error.`;

type Status = 'ok' | 'warn' | 'fail' | 'info';

/** One line of the report; `fix` says what to do when the status is warn or fail. */
export interface Check {
  name: string;
  status: Status;
  detail: string;
  fix?: string;
}

const INSTALL_FFMPEG = 'install ffmpeg (Debian/Ubuntu: sudo apt-get install ffmpeg)';

function toolCheck(name: string, loc: ToolLocation, envVar: string, install: string, required: boolean): Check {
  if (!loc.path) {
    return { name, status: required ? 'fail' : 'warn', detail: required ? 'not found' : 'not found (needed only for video-sharing page URLs)', fix: `${install}, or set ${envVar}=/path/to/${name}` };
  }
  try {
    const out = execFileSync(loc.path, ['-version'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] });
    return { name, status: 'ok', detail: `${loc.path} (${out.split('\n')[0].trim().slice(0, 60)})` };
  } catch (err) {
    // yt-dlp has no -version; --version is its flag.
    if (name === 'yt-dlp') {
      try {
        const v = execFileSync(loc.path, ['--version'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] });
        return { name, status: 'ok', detail: `${loc.path} (${v.trim()})` };
      } catch {
        // Fall through to the failure below.
      }
    }
    return { name, status: required ? 'fail' : 'warn', detail: `${loc.path} does not run: ${(err as Error).message.split('\n')[0]}`, fix: `reinstall it (${install}) or set ${envVar}` };
  }
}

/** A failed check per setting that does not parse, with what the setting is for and its default. */
function settingProblemChecks(err: ConfigError): Check[] {
  if (err.problems.length === 0) return [{ name: 'config', status: 'fail', detail: err.message, fix: 'correct or unset that option' }];
  return err.problems.map((p) => {
    const s = SETTINGS[p.setting];
    return { name: p.setting, status: 'fail', detail: p.message, fix: `correct it or unset it (default ${s.default.replaceAll('`', '')}): ${s.meaning.replaceAll('`', '')}` };
  });
}

/**
 * The configuration with every setting that does not parse left at its default, so the other checks still
 * run, and a failed check for each such setting. No config only when a flag itself is wrong.
 */
function configDespiteProblems(flags: string[]): { config: Config | null; problems: Check[] } {
  try {
    return { config: readConfig(flags), problems: [] };
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    const problems = settingProblemChecks(err);
    if (err.problems.length === 0) return { config: null, problems };
    try {
      return { config: readConfigWithout(err.problems.map((p) => p.setting), flags), problems };
    } catch {
      return { config: null, problems };
    }
  }
}

/** Which settings this environment sets (keys shown only as set). */
function settingsCheck(): Check {
  const set = configuredSettings();
  const shown = set.map(({ name, value }) => (/KEY$/.test(name) ? `${name} (set)` : name === 'VIDX_QUEUE_URL' ? `${name}=${redactRedisUrl(value)}` : `${name}=${value}`));
  return { name: 'settings', status: 'info', detail: shown.length ? shown.join(', ') : 'all defaults (see docs/configuration.md)' };
}

function nearestExisting(dir: string): string {
  let d = dir;
  while (!existsSync(d) && dirname(d) !== d) d = dirname(d);
  return d;
}

/** The file (not a folder) at `dir` or at the nearest part of its path that exists; null when that is a folder. */
function regularFileOnPath(dir: string): string | null {
  const nearest = nearestExisting(dir);
  return existsSync(nearest) && !statSync(nearest).isDirectory() ? nearest : null;
}

async function dirChecks(label: string, dir: string, envVar: string, minFree: number): Promise<Check[]> {
  const checks: Check[] = [];
  const file = regularFileOnPath(dir);
  if (file) {
    // A file where a folder is wanted: no mkdir or permission fixes that.
    checks.push({ name: label, status: 'fail', detail: `${file} is a file, not a folder${file === dir ? '' : `, so ${dir} cannot be made inside it`}`, fix: `set ${envVar} to a folder, or move the file ${file} out of the way` });
    return checks;
  }
  if (!existsSync(dir)) {
    const parent = nearestExisting(dir);
    try {
      accessSync(parent, constants.W_OK | constants.X_OK);
      checks.push({ name: label, status: 'ok', detail: `${dir} (created at first start)` });
    } catch {
      checks.push({ name: label, status: 'fail', detail: `${dir} does not exist and ${parent} is not writable`, fix: `create it (mkdir -p ${dir}) as the user running vidx, or set ${envVar} to a writable folder` });
    }
  } else {
    try {
      accessSync(dir, constants.R_OK | constants.W_OK | constants.X_OK);
      checks.push({ name: label, status: 'ok', detail: `${dir} (writable)` });
    } catch (err) {
      checks.push({ name: label, status: 'fail', detail: `${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, fix: `give the user running vidx read and write access (chown -R $USER ${dir}), or set ${envVar} elsewhere` });
    }
  }
  const free = await freeBytes(dir);
  if (free === null) checks.push({ name: `${label} space`, status: 'warn', detail: 'free space unknown' });
  else if (free < minFree) checks.push({ name: `${label} space`, status: 'fail', detail: `${formatBytes(free)} free, under ${formatBytes(minFree)}`, fix: `free up space on that disk or set ${envVar} to a bigger one` });
  else if (free < minFree * 10) checks.push({ name: `${label} space`, status: 'warn', detail: `${formatBytes(free)} free; uploads, thumbnails and models need more as the library grows`, fix: `free up space or set ${envVar} to a bigger disk` });
  else checks.push({ name: `${label} space`, status: 'ok', detail: `${formatBytes(free)} free` });
  return checks;
}

/** The data dir and the files holding keys, secrets and the index must be private to vidx's user. */
function privacyChecks(dataDir: string): Check[] {
  if (!existsSync(dataDir)) return [];
  const exposed = exposedFiles(dataDir);
  if (!exposed.length) return [{ name: 'data dir privacy', status: 'ok', detail: 'the data dir (700) and its database, keys and secrets (600) are private' }];
  return exposed.map((f) => ({
    name: f.path === dataDir ? 'data dir privacy' : basename(f.path),
    status: 'fail' as const,
    detail: `${f.path} can be read by other users (mode ${f.mode.toString(8)}); it holds keys, webhook secrets or your index`,
    fix: f.fix,
  }));
}

function reinstall(): string {
  const root = nativeRoot();
  return root
    ? `delete the unpacked copy (rm -rf ${root}) and start vidx again; the binary needs glibc 2.34 or newer (Debian 12, Ubuntu 22.04)`
    : 'reinstall the dependencies (npm ci)';
}

async function nativeChecks(assets: ModelAssetPaths): Promise<Check[]> {
  const checks: Check[] = [];
  try {
    const { openDatabase } = await import('../store/connection.js');
    const db = openDatabase(':memory:');
    const row = db.prepare('select sqlite_version() as s, vec_version() as v').get() as { s: string; v: string };
    db.close();
    checks.push({ name: 'sqlite', status: 'ok', detail: `SQLite ${row.s}, sqlite-vec ${row.v}` });
  } catch (err) {
    checks.push({ name: 'sqlite', status: 'fail', detail: (err as Error).message, fix: reinstall() });
  }
  try {
    const { sileroSession, releaseSileroSession } = await import('../ml/vad/model.js');
    await sileroSession(assets);
    await releaseSileroSession();
    checks.push({ name: 'onnxruntime', status: 'ok', detail: 'loads the VAD model' });
  } catch (err) {
    checks.push({ name: 'onnxruntime', status: 'fail', detail: (err as Error).message.split('\n')[0], fix: reinstall() });
  }
  try {
    const sharp = (await import('sharp')).default;
    await sharp({ create: { width: 2, height: 2, channels: 3, background: '#000' } }).jpeg().toBuffer();
    checks.push({ name: 'sharp', status: 'ok', detail: `libvips ${sharp.versions.vips}` });
  } catch (err) {
    checks.push({ name: 'sharp', status: 'fail', detail: (err as Error).message.split('\n')[0], fix: reinstall() });
  }
  return checks;
}

async function capabilityChecks(config: Config, tools: MediaTools): Promise<Check[]> {
  const { describeCapabilities } = await import('../ml/capabilities.js');
  const { loadManifest } = await import('../ml/registry/manifest.js');
  const caps = describeCapabilities(config.modelsDir, { manifest: loadManifest(config.modelsManifest), tools, assets: config.modelAssets });
  const labels: Record<string, string> = { ocr: 'on-screen text', ocr_german: 'German letters in on-screen text', vad: 'voice activity', asr: 'speech recognition', image_text: 'image-text search', text_embedding: 'text embedding', face_detection: 'face detection', face_embedding: 'face grouping', speaker_segmentation: 'speaker turns (model)', speaker_embedding: 'telling voices apart (model)', answer: 'answers written by a local model' };
  return Object.entries(caps).map(([name, c]): Check => {
    const what = `${labels[name] ?? name}${c.model ? `: ${c.model}` : ''}`;
    if (c.available) return { name, status: 'ok', detail: what };
    const shipped = name === 'ocr' || name === 'vad' || name === 'face_detection';
    const fix = c.reason?.match(/`([^`]+)`/)?.[1] ?? reinstall();
    return { name, status: shipped ? 'fail' : 'warn', detail: `${what}: ${c.reason?.replace(/: run `[^`]+`$/, '') ?? 'unavailable'}${shipped ? '' : ' (vidx works without it, with less)'}`, fix };
  });
}

async function serverCheck(values: { url?: string; key?: string }): Promise<Check> {
  let url = '';
  try {
    url = clientFrom(values).url;
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(3000) });
    const body = (await res.json()) as { version?: string };
    return { name: 'server', status: 'info', detail: `vidx ${body.version ?? '?'} answers at ${url}` };
  } catch {
    return { name: 'server', status: 'info', detail: `nothing answers at ${url || 'the default URL'} (start one with \`vidx serve\`)` };
  }
}

function render(checks: Check[]): string {
  const label: Record<Status, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', info: 'info' };
  const w = Math.max(...checks.map((c) => c.name.length));
  const lines = checks.map((c) => `${label[c.status]}  ${c.name.padEnd(w)}  ${c.detail}${c.fix && c.status !== 'ok' ? `\n      ${''.padEnd(w)}  fix: ${c.fix}` : ''}`);
  const fails = checks.filter((c) => c.status === 'fail').length;
  const warns = checks.filter((c) => c.status === 'warn').length;
  lines.push('', fails ? `${fails} problem(s) to fix, ${warns} warning(s)` : warns ? `no problems, ${warns} warning(s)` : 'no problems');
  return lines.join('\n');
}

/**
 * `vidx doctor`: checks tools, native parts, models, the data dir and the server, and prints a fix for each problem.
 * @example
 * process.exitCode = await doctorCommand(['--json']);
 */
export async function doctorCommand(argv: string[]): Promise<number> {
  return runCommand('doctor', HELP, argv, async () => {
    const { values, positionals } = parseFlags(argv, { ...CLIENT_OPTIONS, 'data-dir': { type: 'string' }, 'models-dir': { type: 'string' } });
    if (positionals.length > 0) {
      process.stderr.write(`vidx doctor: unexpected argument ${positionals[0]}\n${HELP}\n`);
      return EXIT.USAGE;
    }
    const flags = [...(values['data-dir'] ? ['--data-dir', values['data-dir']] : []), ...(values['models-dir'] ? ['--models-dir', values['models-dir']] : [])];
    const loaded = configDespiteProblems(flags);
    if (!loaded.config) {
      output(values.json, { version: VERSION, ok: false, checks: loaded.problems }, render(loaded.problems));
      return EXIT.FAILED;
    }
    const { config } = loaded;
    // Only the tools' paths are checked here: nothing is opened.
    const tools = new MediaTools(config.tools, FileAccess.unrestricted());
    const checks: Check[] = [
      { name: 'vidx', status: 'info', detail: `${VERSION}${nativeRoot() ? `, single binary (files unpacked at ${nativeRoot()})` : `, Node ${process.version}`}` },
      ...loaded.problems,
      settingsCheck(),
      toolCheck('ffmpeg', tools.locateFfmpeg(), 'FFMPEG_PATH', INSTALL_FFMPEG, true),
      toolCheck('ffprobe', tools.locateFfprobe(), 'FFPROBE_PATH', INSTALL_FFMPEG, true),
      toolCheck('yt-dlp', tools.locateYtDlp(), 'YTDLP_PATH', 'install yt-dlp (https://github.com/yt-dlp/yt-dlp#installation, or pipx install yt-dlp)', false),
      ...(await nativeChecks(config.modelAssets)),
      ...(await capabilityChecks(config, tools)),
      ...(await dirChecks('data dir', config.dataDir, 'VIDX_DATA_DIR', 500e6)),
      ...privacyChecks(config.dataDir),
    ];
    if (!config.modelsDir.startsWith(`${config.dataDir}/`)) checks.push(...(await dirChecks('models dir', config.modelsDir, 'VIDX_MODELS_DIR', 200e6)));
    checks.push(await serverCheck(values));
    const ok = !checks.some((c) => c.status === 'fail');
    output(values.json, { version: VERSION, ok, checks }, render(checks));
    return ok ? EXIT.OK : EXIT.FAILED;
  });
}
