import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { defaultTools, type MediaTools } from './binaries.js';
import { SourceError } from './errors.js';
import { spawnTool, ToolError } from './run.js';

/** Options for {@link downloadWithYtDlp}. */
export interface YtDlpOptions {
  /** Path of the yt-dlp executable. */
  bin: string;
  signal?: AbortSignal;
  maxBytes: number;
  /** yt-dlp's --socket-timeout, in ms (rounded up to seconds). */
  idleTimeoutMs: number;
  /** The policy proxy every request of yt-dlp goes through (see egress-proxy.ts). */
  proxy: string;
  /** Where ffmpeg is (yt-dlp merges with it): the server's tools. Default: npm packages, then PATH. */
  tools?: MediaTools;
}

const LEFTOVER = /\.(part|ytdl|temp|tmp)$|\.part-Frag\d+|\.f\d+\.\w+$/;
const SUBTITLE = /\.(srt|vtt|ass|lrc|json3|srv\d|ttml)$/;

/** The page's title as yt-dlp printed it beside the video, or null. */
async function pageTitle(dir: string): Promise<string | null> {
  const text = await readFile(join(dir, TITLE_FILE), 'utf8').catch(() => '');
  const title = text.split('\n')[0]?.trim() ?? '';
  return title && title !== 'NA' ? title.slice(0, 1000) : null;
}

/** Where yt-dlp prints the page's title (`--print-to-file`); never taken for the video. */
const TITLE_FILE = 'page-title.txt';

/**
 * Downloads the video behind a page URL with yt-dlp into `dir` (which should be empty and private to
 * this download): single video (no playlists), at most 720p, merged with ffmpeg, plus any
 * uploader-provided subtitles written beside it as `video.<lang>.vtt` so sidecar lookup finds them.
 * Returns the media file's path and the page's title. Fails with SourceError `ytdlp_failed` (yt-dlp's own
 * last message) or `too_large`.
 * @example
 * const { file, title } = await downloadWithYtDlp('https://vimeo.com/123', dir, { bin, maxBytes: 2e9, idleTimeoutMs: 30_000 });
 */
export async function downloadWithYtDlp(url: string, dir: string, opts: YtDlpOptions): Promise<{ file: string; title: string | null }> {
  const ffmpeg = (opts.tools ?? defaultTools).locateFfmpeg().path;
  const args = [
    // No user config (it could name another proxy or an exec hook); every request through the policy proxy;
    // yt-dlp's own downloader, so no external tool fetches around the proxy.
    '--ignore-config', '--proxy', opts.proxy, '--downloader', 'native',
    '--no-playlist', '--no-progress', '--no-color', '--restrict-filenames',
    '-f', 'bv*[height<=720]+ba/b[height<=720]/bv*+ba/b',
    '--max-filesize', String(opts.maxBytes),
    '--socket-timeout', String(Math.max(1, Math.ceil(opts.idleTimeoutMs / 1000))),
    '--write-subs', '--sub-langs', 'all,-live_chat',
    // The page's title names the item when the caller gives none.
    '--print-to-file', '%(title)s', join(dir, TITLE_FILE),
    ...(ffmpeg ? ['--ffmpeg-location', dirname(ffmpeg)] : []),
    '-o', join(dir, 'video.%(ext)s'),
    '--', url,
  ];
  const proc = spawnTool({ path: opts.bin }, args, { signal: opts.signal, stderrLimit: 8192 });
  let out = '';
  proc.stdout.setEncoding('utf8');
  for await (const chunk of proc.stdout as AsyncIterable<string>) out = (out + chunk).slice(-8192);
  try {
    await proc.done;
  } catch (e) {
    if (opts.signal?.aborted) throw e;
    const msg = e instanceof ToolError ? (e.stderr.trim().split('\n').filter((l) => /ERROR/.test(l)).at(-1) ?? e.message) : String(e);
    throw new SourceError('ytdlp_failed', `yt-dlp could not download ${url}: ${msg}`, { cause: e });
  }
  const names = (await readdir(dir)).filter((n) => !LEFTOVER.test(n) && !SUBTITLE.test(n) && n !== TITLE_FILE);
  if (!names.length) {
    if (/larger than max-filesize|File is larger/i.test(out + proc.stderr())) {
      throw new SourceError('too_large', `the video at ${url} is larger than the limit of ${opts.maxBytes} bytes`);
    }
    throw new SourceError('ytdlp_failed', `yt-dlp finished but wrote no video file for ${url}`);
  }
  // Largest file is the merged video (thumbnails or info files would be small).
  const sized = await Promise.all(names.map(async (n) => ({ n, size: (await stat(join(dir, n))).size })));
  sized.sort((a, b) => b.size - a.size);
  return { file: join(dir, sized[0].n), title: await pageTitle(dir) };
}
