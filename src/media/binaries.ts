import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const require = createRequire(import.meta.url);

/** Where a media tool was found, or why it was not. */
export interface ToolLocation {
  path: string | null;
  source: 'env' | 'npm' | 'path' | 'missing';
}

function onPath(name: string): string | null {
  try {
    const out = execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
    return out || null;
  } catch {
    return null;
  }
}

function fromNpm(pkg: string): string | null {
  try {
    const mod = require(pkg) as string | { path?: string } | null;
    const p = typeof mod === 'string' ? mod : mod?.path;
    return p && existsSync(p) ? p : null;
  } catch {
    return null;
  }
}

/** External tools named by a setting (FFMPEG_PATH …); unset ones are looked up (npm package, then PATH). */
export interface ToolPaths {
  ffmpeg?: string;
  ffprobe?: string;
  ytdlp?: string;
  tesseract?: string;
}

const cache = new Map<string, ToolLocation>();
let configured: ToolPaths = {};

/**
 * Sets the tool paths the settings name (FFMPEG_PATH …; src/config.ts checked they exist); forgets earlier lookups.
 * @example
 * configureTools(config.tools);
 */
export function configureTools(paths: ToolPaths): void {
  configured = { ...paths };
  cache.clear();
}

/**
 * Finds ffmpeg: `FFMPEG_PATH`, then the optional ffmpeg-static package, then PATH.
 * @example
 * const { path } = locateFfmpeg(); // '/usr/bin/ffmpeg'
 */
export function locateFfmpeg(): ToolLocation {
  return memo('ffmpeg', () => {
    const set = configured.ffmpeg;
    if (set) return { path: set, source: 'env' };
    const npm = fromNpm('ffmpeg-static');
    if (npm) return { path: npm, source: 'npm' };
    const sys = onPath('ffmpeg');
    return sys ? { path: sys, source: 'path' } : { path: null, source: 'missing' };
  });
}

/**
 * Finds ffprobe: `FFPROBE_PATH`, then beside the chosen ffmpeg, then PATH.
 * @example
 * const { path } = locateFfprobe(); // '/usr/bin/ffprobe'
 */
export function locateFfprobe(): ToolLocation {
  return memo('ffprobe', () => {
    const set = configured.ffprobe;
    if (set) return { path: set, source: 'env' };
    const ff = locateFfmpeg().path;
    if (ff) {
      const beside = ff.replace(/ffmpeg([^/]*)$/, 'ffprobe$1');
      if (beside !== ff && existsSync(beside)) return { path: beside, source: locateFfmpeg().source };
    }
    const sys = onPath('ffprobe');
    return sys ? { path: sys, source: 'path' } : { path: null, source: 'missing' };
  });
}

/**
 * Finds yt-dlp: `YTDLP_PATH`, then the optional yt-dlp-exec package's binary, then PATH.
 * @example
 * if (!locateYtDlp().path) throw new Error('install yt-dlp');
 */
export function locateYtDlp(): ToolLocation {
  return memo('yt-dlp', () => {
    const set = configured.ytdlp;
    if (set) return { path: set, source: 'env' };
    try {
      const constants = require('yt-dlp-exec/src/constants') as { YOUTUBE_DL_PATH?: string };
      if (constants.YOUTUBE_DL_PATH && existsSync(constants.YOUTUBE_DL_PATH)) {
        return { path: constants.YOUTUBE_DL_PATH, source: 'npm' };
      }
    } catch {
      // yt-dlp-exec is optional and often absent offline.
    }
    const sys = onPath('yt-dlp');
    return sys ? { path: sys, source: 'path' } : { path: null, source: 'missing' };
  });
}

/**
 * Finds Tesseract (optional: a second OCR pass that knows German letters): `TESSERACT_PATH`, then PATH.
 * @example
 * const { path } = locateTesseract(); // '/usr/bin/tesseract' or null
 */
export function locateTesseract(): ToolLocation {
  return memo('tesseract', () => {
    const set = configured.tesseract;
    if (set) return { path: set, source: 'env' };
    const sys = onPath('tesseract');
    return sys ? { path: sys, source: 'path' } : { path: null, source: 'missing' };
  });
}

/**
 * The ffmpeg path, or an error that says how to install it.
 * @example
 * spawn(requireFfmpeg(), ['-version']);
 */
export function requireFfmpeg(): string {
  const { path } = locateFfmpeg();
  if (!path) throw new Error('ffmpeg not found: install it (Debian/Ubuntu: apt-get install ffmpeg) or set FFMPEG_PATH');
  return path;
}

/**
 * The ffprobe path, or an error that says how to install it.
 * @example
 * spawn(requireFfprobe(), ['-version']);
 */
export function requireFfprobe(): string {
  const { path } = locateFfprobe();
  if (!path) throw new Error('ffprobe not found: install ffmpeg (Debian/Ubuntu: apt-get install ffmpeg) or set FFPROBE_PATH');
  return path;
}

function memo(key: string, find: () => ToolLocation): ToolLocation {
  let hit = cache.get(key);
  if (!hit) {
    hit = find();
    cache.set(key, hit);
  }
  return hit;
}
