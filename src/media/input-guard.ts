import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { closeSync } from 'node:fs';
import { basename } from 'node:path';
import type { FileAccess } from './file-access.js';

/**
 * Demuxers that open further files or URLs named inside the input (playlists, reference lists, network
 * session descriptions), read devices or run scripts. Reading a media file must never reach past it, so
 * these are never allowed, whatever the file is called.
 */
export const REFERENCE_DEMUXERS: ReadonlySet<string> = new Set([
  'hls', 'applehttp', 'dash', 'concat', 'imf', 'webm_dash_manifest', 'ffmetadata',
  'sdp', 'rtp', 'rtsp', 'sap', 'image2', 'image2pipe', 'vobsub', 'lavfi', 'avisynth', 'vapoursynth', 'dvdvideo',
  'libcdio', 'libdc1394', 'iec61883', 'kmsgrab', 'x11grab', 'fbdev', 'alsa', 'pulse', 'jack', 'oss', 'openal',
  'video4linux2', 'v4l2', 'dshow', 'gdigrab', 'avfoundation', 'android_camera', 'decklink',
]);

/** Only local files and pipes: nothing networked, no `concat:`, `subfile:` or `crypto:` wrappers. */
export const INPUT_PROTOCOLS = 'file,pipe';

const allowCache = new Map<string, string>();

/** The names in `ffmpeg -demuxers` / `-devices` output (the lines after `--`). */
function parseNames(out: string): string[] {
  const names: string[] = [];
  let body = false;
  for (const line of out.split('\n')) {
    if (/^\s*--\s*$/.test(line)) {
      body = true;
      continue;
    }
    const m = body ? /^\s*D\S*\s+(\S+)/.exec(line) : null;
    if (m) names.push(...m[1].split(','));
  }
  return names;
}

const allowedOf = (demuxers: string[], devices: string[]) => {
  const dev = new Set(devices);
  return [...new Set(demuxers)].filter((n) => !dev.has(n) && !REFERENCE_DEMUXERS.has(n)).join(',');
};

function listNames(bin: string, flag: '-demuxers' | '-devices'): string[] {
  return parseNames(execFileSync(bin, ['-hide_banner', flag], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 15_000 }));
}

/**
 * Fills safeDemuxers' cache for `bin` without blocking: the two listings take ~0.4 s each, which a first
 * task would otherwise spend on the request thread. Started with the server; failures leave the lazy path.
 * @example
 * void primeSafeDemuxers('/usr/bin/ffprobe');
 */
export async function primeSafeDemuxers(bin: string): Promise<void> {
  if (allowCache.has(bin)) return;
  const run = (flag: string) => promisify(execFile)(bin, ['-hide_banner', flag], { encoding: 'utf8', timeout: 15_000 }).then((r) => parseNames(r.stdout));
  try {
    const [demuxers, devices] = await Promise.all([run('-demuxers'), run('-devices')]);
    if (!allowCache.has(bin)) allowCache.set(bin, allowedOf(demuxers, devices));
  } catch {
    // safeDemuxers tries again (and reports) when an input needs it.
  }
}

/**
 * The demuxers this ffmpeg/ffprobe build has, minus devices and {@link REFERENCE_DEMUXERS}, as a
 * `-format_whitelist` value. Computed once per binary.
 * @example
 * safeDemuxers('/usr/bin/ffprobe'); // 'aac,ac3,…,mov,mp4,m4a,…,matroska,webm,…'
 */
export function safeDemuxers(bin: string): string {
  let list = allowCache.get(bin);
  if (list === undefined) {
    list = allowedOf(listNames(bin, '-demuxers'), listNames(bin, '-devices'));
    allowCache.set(bin, list);
  }
  return list;
}

function localPath(input: string): string | null {
  if (input.startsWith('file:')) return input.slice('file:'.length);
  if (input.startsWith('/')) return input;
  return null;
}

/** Arguments rewritten so each local input is an inherited, checked descriptor, plus the descriptors to pass. */
export interface GuardedArgs {
  args: string[];
  /** Open descriptors, in order: the child sees them as fd 3, 4, …; close them after spawning. */
  fds: number[];
  /** The file each descriptor was opened from, in the same order (for messages: never `/proc/self/fd/N`). */
  names: string[];
}

/**
 * A tool's text (stderr, an error message) with each descriptor input named by its file's name, so a
 * message says `talk.mp4: Invalid data…` rather than `file:/proc/self/fd/3: Invalid data…`.
 * @example
 * nameDescriptors('file:/proc/self/fd/3: Invalid data', ['/srv/media/talk.mp4']); // 'talk.mp4: Invalid data'
 */
export function nameDescriptors(text: string, names: readonly string[]): string {
  if (!names.length) return text;
  return text.replace(/(?:file:)?\/proc\/self\/fd\/(\d+)/g, (whole, n: string) => {
    const name = names[Number(n) - 3];
    return name === undefined ? whole : basename(name);
  });
}

/**
 * Rewrites ffmpeg/ffprobe arguments so each input reads exactly the file vidx resolved: the file is opened
 * here and checked against the server's rule ({@link FileAccess.openToolInput}), the child reads it as `/proc/self/fd/N` (the same open
 * file, whatever happens to the name afterwards), and the input is limited to local protocols and to
 * demuxers that do not open further inputs. Inputs with a forced `-f` (generated test sources such as
 * `lavfi`) are left alone; vidx never forces a format on a caller's file.
 * @example
 * const { args, fds } = guardInputs('/usr/bin/ffmpeg', ['-i', 'file:/srv/media/a.mp4', '-f', 'null', '-'], tools.files);
 * // args: ['-protocol_whitelist', 'file,pipe', '-format_whitelist', '…', '-i', 'file:/proc/self/fd/3', …]
 */
export function guardInputs(bin: string, args: readonly string[], files: FileAccess): GuardedArgs {
  const out: string[] = [];
  const fds: number[] = [];
  const names: string[] = [];
  let forcedFormat = false;
  try {
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a === '-f' && i + 1 < args.length) forcedFormat = true;
      if (a !== '-i' || i + 1 >= args.length) {
        out.push(a);
        continue;
      }
      const input = args[++i];
      const path = forcedFormat ? null : localPath(input);
      forcedFormat = false;
      if (path === null) {
        out.push('-i', input);
        continue;
      }
      const { fd } = files.openToolInput(path);
      fds.push(fd);
      names.push(path);
      out.push('-protocol_whitelist', INPUT_PROTOCOLS, '-format_whitelist', safeDemuxers(bin), '-i', `file:/proc/self/fd/${2 + fds.length}`);
    }
  } catch (e) {
    for (const fd of fds) closeSync(fd);
    throw e;
  }
  return { args: out, fds, names };
}
