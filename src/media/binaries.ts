import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { FileAccess } from './file-access.js';

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

/** Tools found on PATH or in npm packages: the same for every server of the process, so looked up once. */
const found = new Map<string, ToolLocation>();

function foundOnce(key: string, find: () => ToolLocation): ToolLocation {
  let hit = found.get(key);
  if (!hit) {
    hit = find();
    found.set(key, hit);
  }
  return hit;
}

function ffmpegFound(): ToolLocation {
  return foundOnce('ffmpeg', () => {
    const npm = fromNpm('ffmpeg-static');
    if (npm) return { path: npm, source: 'npm' };
    const sys = onPath('ffmpeg');
    return sys ? { path: sys, source: 'path' } : { path: null, source: 'missing' };
  });
}

function ytDlpFound(): ToolLocation {
  return foundOnce('yt-dlp', () => {
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

function onPathFound(name: string): ToolLocation {
  return foundOnce(`path:${name}`, () => {
    const sys = onPath(name);
    return sys ? { path: sys, source: 'path' } : { path: null, source: 'missing' };
  });
}

/**
 * The external tools of one server (or `vidx worker`, or analysis thread): the paths its settings name
 * (FFMPEG_PATH …; src/config.ts checked they exist), the rest looked up in npm packages and on PATH.
 * Made once at start from the Config and passed down to whatever runs a tool, so two servers in one
 * process each use their own.
 * @example
 * const tools = new MediaTools(config.tools, files);
 * spawn(tools.ffmpeg(), ['-version']);
 */
export class MediaTools {
  private readonly paths: Readonly<ToolPaths>;
  private ffprobeAt: ToolLocation | null = null;
  /**
   * Told of every tool process started and ended through these tools (media/run.ts): an analysis thread passes
   * them to the pool, which ends them itself when a cancel finds the thread too busy to.
   */
  onChild: ((pid: number, running: boolean) => void) | null = null;

  constructor(
    paths: ToolPaths,
    /** The server's file-access rule: which files the tools' inputs may be (src/media/file-access.ts). */
    readonly files: FileAccess,
  ) {
    this.paths = { ...paths };
  }

  /** The paths the settings named (for a thread's settings). */
  get configured(): Readonly<ToolPaths> {
    return this.paths;
  }

  /** ffmpeg: `FFMPEG_PATH`, then the optional ffmpeg-static package, then PATH. */
  locateFfmpeg(): ToolLocation {
    return this.paths.ffmpeg ? { path: this.paths.ffmpeg, source: 'env' } : ffmpegFound();
  }

  /** ffprobe: `FFPROBE_PATH`, then beside the chosen ffmpeg, then PATH. */
  locateFfprobe(): ToolLocation {
    if (this.paths.ffprobe) return { path: this.paths.ffprobe, source: 'env' };
    this.ffprobeAt ??= this.ffprobeBesideFfmpeg() ?? onPathFound('ffprobe');
    return this.ffprobeAt;
  }

  /** yt-dlp: `YTDLP_PATH`, then the optional yt-dlp-exec package's binary, then PATH. */
  locateYtDlp(): ToolLocation {
    return this.paths.ytdlp ? { path: this.paths.ytdlp, source: 'env' } : ytDlpFound();
  }

  /** Tesseract (optional: a second OCR pass that knows German letters): `TESSERACT_PATH`, then PATH. */
  locateTesseract(): ToolLocation {
    return this.paths.tesseract ? { path: this.paths.tesseract, source: 'env' } : onPathFound('tesseract');
  }

  /** The ffmpeg path, or an error that says how to install it. */
  ffmpeg(): string {
    const { path } = this.locateFfmpeg();
    if (!path) throw new Error('ffmpeg not found: install it (Debian/Ubuntu: apt-get install ffmpeg) or set FFMPEG_PATH');
    return path;
  }

  /** The ffprobe path, or an error that says how to install it. */
  ffprobe(): string {
    const { path } = this.locateFfprobe();
    if (!path) throw new Error('ffprobe not found: install ffmpeg (Debian/Ubuntu: apt-get install ffmpeg) or set FFPROBE_PATH');
    return path;
  }

  private ffprobeBesideFfmpeg(): ToolLocation | null {
    const ff = this.locateFfmpeg();
    if (!ff.path) return null;
    const beside = ff.path.replace(/ffmpeg([^/]*)$/, 'ffprobe$1');
    return beside !== ff.path && existsSync(beside) ? { path: beside, source: ff.source } : null;
  }
}

/**
 * The tools of library and test use, where no settings name any: npm packages, then PATH, reading any file.
 * A server never uses them: it makes its own from its settings and its file-access rule.
 * @example
 * spawn(defaultTools.ffmpeg(), ['-version']);
 */
export const defaultTools = new MediaTools({}, FileAccess.unrestricted());
