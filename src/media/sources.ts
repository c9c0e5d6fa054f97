import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { MediaTools } from './binaries.js';
import { downloadUrl } from './download.js';
import { egressPolicy, type EgressPolicy, type Resolver } from './egress.js';
import { startEgressProxy } from './egress-proxy.js';
import { SourceError } from './errors.js';
import { resolveInsideRoots } from './source-path.js';
import { isVideoSharingUrl } from './video-hosts.js';
import { downloadWithYtDlp } from './ytdlp.js';

/** The part of the API's video object (SPEC 2.2) that says where the media comes from; other fields are ignored. */
export interface VideoInput {
  path?: string | null;
  url?: string | null;
  /** For uploads: the path where the HTTP layer stored the uploaded file (not the client's file name). */
  content?: string | null;
}

/** A local file ready for probing. Always call `cleanup()` (in `finally`) when done with it. */
export interface ResolvedSource {
  file: string;
  origin: 'path' | 'url' | 'upload';
  /** The path or URL as the caller gave it. */
  src?: string;
  /** The title of the page a video-sharing URL pointed at (yt-dlp), when it has one. */
  pageTitle?: string;
  /** Removes whatever this source created (downloads, the upload unless kept). Idempotent; never throws. */
  cleanup(): Promise<void>;
}

/** Where files may come from and how downloads are limited. */
export interface SourceOptions {
  /** Directories a `path` input may point into (after symlinks are resolved). Empty: paths are refused. */
  mediaRoots: readonly string[];
  /** Downloads are written to a private sub-folder here. */
  tempDir: string;
  /** Uploaded files must live here (after symlinks). Default: `tempDir`. */
  uploadDir?: string;
  /** Leave the uploaded file in place on cleanup (the HTTP layer owns it). Default false. */
  keepUpload?: boolean;
  signal?: AbortSignal;
  /** Largest download in bytes. Default 4 GiB. */
  maxBytes?: number;
  /** Time to connect and get response headers. Default 15 s. */
  connectTimeoutMs?: number;
  /** Longest pause in a download. Default 30 s. */
  idleTimeoutMs?: number;
  /** The server's tools (YTDLP_PATH, FFMPEG_PATH) and its file-access rule. */
  tools: MediaTools;
  /** yt-dlp executable; `null` means "not installed". Default: the one `tools` finds. */
  ytDlpPath?: string | null;
  /** Addresses a `url` may reach (direct downloads and yt-dlp). Default: public addresses only. */
  egress?: EgressPolicy;
  /** Default: the system resolver. */
  resolver?: Resolver;
  /** Folders a `path` may not lead into even inside the roots: vidx's own data dir. */
  excludeDirs?: readonly string[];
}

const NOTHING = async (): Promise<void> => undefined;

function onlyOne(input: VideoInput): 'path' | 'url' | 'content' {
  const given = (['path', 'url', 'content'] as const).filter((k) => input[k] !== undefined && input[k] !== null);
  if (given.length !== 1) {
    throw new SourceError('invalid_input', `exactly one of path, url or content must be given (got ${given.length ? given.join(', ') : 'none'})`);
  }
  const key = given[0];
  if (typeof input[key] !== 'string' || input[key] === '') throw new SourceError('invalid_input', `${key} must be a non-empty string`);
  return key;
}

function ytDlpMissing(url: string, why: string): SourceError {
  return new SourceError(
    'ytdlp_missing',
    `${url} ${why}; downloading from web pages needs yt-dlp, which was not found (install it, e.g. "pipx install yt-dlp" or "apt-get install yt-dlp", or set YTDLP_PATH), or give a direct link to the video file`,
  );
}

async function fromUrl(raw: string, opts: SourceOptions): Promise<ResolvedSource> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SourceError('invalid_input', `url "${raw}" is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SourceError('unsupported_url', `url scheme ${url.protocol} is not supported (only http and https)`);
  const ytDlp = opts.ytDlpPath === undefined ? opts.tools.locateYtDlp().path : opts.ytDlpPath;
  const limits = {
    signal: opts.signal,
    maxBytes: opts.maxBytes ?? 4 * 1024 ** 3,
    connectTimeoutMs: opts.connectTimeoutMs ?? 15_000,
    idleTimeoutMs: opts.idleTimeoutMs ?? 30_000,
    egress: opts.egress ?? egressPolicy({ loopback: false }),
    ...(opts.resolver ? { resolver: opts.resolver } : {}),
  };
  if (isVideoSharingUrl(url) && !ytDlp) throw ytDlpMissing(raw, `is a video-sharing page (${url.hostname})`);

  await mkdir(opts.tempDir, { recursive: true });
  const dir = await mkdtemp(join(opts.tempDir, 'src-'));
  const cleanup = async (): Promise<void> => {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  };
  try {
    if (!isVideoSharingUrl(url)) {
      const got = await downloadUrl(url, dir, limits);
      if (got.kind === 'file') return { file: got.file, origin: 'url', src: raw, cleanup };
      if (!ytDlp) throw ytDlpMissing(raw, `is a web page (${got.contentType}), not a video file`);
    }
    const proxy = await startEgressProxy(limits.egress, opts.resolver);
    try {
      const { file, title } = await downloadWithYtDlp(raw, dir, { bin: ytDlp!, proxy: proxy.url, ...limits, tools: opts.tools });
      return { file, origin: 'url', src: raw, cleanup, ...(title ? { pageTitle: title } : {}) };
    } finally {
      await proxy.close();
    }
  } catch (e) {
    await cleanup();
    throw e;
  }
}

/**
 * Turns a video input into a local file. `path`: only a regular file inside `mediaRoots` (see
 * {@link resolveInsideRoots}; symlinks are followed on both sides, nothing outside is read).
 * `url`: http(s) streamed into a private folder under `tempDir` with byte limit, timeouts and abort;
 * web pages and known video-sharing sites go through yt-dlp (SourceError `ytdlp_missing` when it is
 * absent). `content`: a file the HTTP layer already stored under `uploadDir`.
 * @example
 * const src = await resolveSource(video, { mediaRoots: ['/srv/media'], tempDir: '/data/tmp', tools, signal });
 * try { const probe = await probeMedia(src.file); … } finally { await src.cleanup(); }
 */
export async function resolveSource(input: VideoInput, opts: SourceOptions): Promise<ResolvedSource> {
  opts.signal?.throwIfAborted();
  const key = onlyOne(input);
  const value = input[key] as string;
  if (key === 'path') {
    return { file: await resolveInsideRoots(opts.tools.files, value, opts.mediaRoots, opts.excludeDirs), origin: 'path', src: value, cleanup: NOTHING };
  }
  if (key === 'url') return fromUrl(value, opts);

  const uploadRoot = opts.uploadDir ?? opts.tempDir;
  let file: string;
  try {
    file = await resolveInsideRoots(opts.tools.files, value, [uploadRoot]);
  } catch (e) {
    if (e instanceof SourceError && e.code === 'outside_roots') throw new SourceError('invalid_input', 'content does not name a stored upload', { cause: e });
    throw e;
  }
  const cleanup = opts.keepUpload ? NOTHING : async (): Promise<void> => void (await rm(file, { force: true }).catch(() => undefined));
  return { file, origin: 'upload', cleanup };
}
