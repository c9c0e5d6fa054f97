import { closeSync, constants, fstatSync, openSync, readlinkSync, realpathSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { SourceError } from './errors.js';

/**
 * Whether `p` is `root` or lies below it (both absolute and normalised).
 * @example
 * isInside('/srv/media', '/srv/media/a.mp4'); // true
 * isInside('/srv/media', '/srv/mediax/a.mp4'); // false
 */
export function isInside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(resolve(p));
  } catch {
    return resolve(p);
  }
}

/** Where files opened for a request may lie: the media roots (minus vidx's own folders) and vidx's own data dir. */
interface FileAccessRule {
  mediaRoots: string[];
  /** The data dir's real path and the path as configured (names vidx builds start with the latter). */
  dataDir: { real: string; given: string } | null;
  /** Real paths of every folder vidx writes (data dir, models dir, the binary's unpacked files): never media. */
  ownDirs: string[];
}

/** What a server's file-access rule is made from (its settings). */
export interface FileAccessSettings {
  mediaRoots: readonly string[];
  dataDir: string | null;
  ownDirs?: readonly string[];
}

/**
 * The real path of an open file descriptor: what was really opened, whatever links the name went through.
 * @example
 * realPathOfFd(fd); // '/srv/media/a.mp4'
 */
export function realPathOfFd(fd: number, openedName: string): string {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    // No /proc (not Linux): fall back to resolving the name, which is what was just opened.
    return realpathSync(openedName);
  }
}

function inDataDir(rule: FileAccessRule, real: string): boolean {
  return rule.dataDir ? isInside(rule.dataDir.real, real) : false;
}

function mediaAllowedBy(rule: FileAccessRule, real: string): boolean {
  return !rule.ownDirs.some((d) => isInside(d, real)) && rule.mediaRoots.some((r) => isInside(r, real));
}

/**
 * The real path a name has when its last part is not a link: the real folder plus the name. A file that
 * vidx wrote is opened under exactly this path; anything else came through a link.
 */
function unlinkedRealPath(name: string): string | null {
  try {
    return join(realpathSync(dirname(resolve(name))), basename(name));
  } catch {
    return null;
  }
}

function refuse(name: string): SourceError {
  return new SourceError('outside_roots', `${basename(name)} leads outside the configured media roots and was not opened`);
}

async function openChecked(path: string, allowed: (real: string) => boolean): Promise<FileHandle> {
  const fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    if (!(await fh.stat()).isFile()) throw new SourceError('not_a_file', `${basename(path)} is not a regular file`);
    if (!allowed(realPathOfFd(fh.fd, path))) throw refuse(path);
    return fh;
  } catch (e) {
    await fh.close();
    throw e;
  }
}

async function readAll(opening: Promise<FileHandle>): Promise<Buffer> {
  const fh = await opening;
  try {
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}

/**
 * One server's file-access rule, made at its start from its settings and passed down to whatever opens a
 * file for it: every ffmpeg/ffprobe input ({@link FileAccess.openToolInput}, through the server's
 * `MediaTools`), every sidecar subtitle and scanned file ({@link FileAccess.openMediaFile}) and every file
 * vidx reads for a request ({@link FileAccess.openCheckedFile}) is opened first and the opened file's real
 * path checked: media files must lie inside the media roots and outside the data dir and vidx's own
 * folders; a name vidx built inside its data dir may also be one of its own files there, but never a link
 * into it. Two servers in one process each keep their own rule. `FileAccess.unrestricted` (library and
 * unit-test use, `vidx worker`, which reads only what its server sent) allows every regular file.
 * @example
 * const files = new FileAccess({ mediaRoots: ['/home/me/Videos'], dataDir: '/home/me/.local/share/vidx', ownDirs: ['/srv/models'] });
 * const fh = await files.openCheckedFile('/home/me/Videos/a.mp4');
 */
export class FileAccess {
  private readonly rule: FileAccessRule | null;

  constructor(settings: FileAccessSettings | null) {
    if (!settings) {
      this.rule = null;
      return;
    }
    const dataReal = settings.dataDir ? realOrSelf(settings.dataDir) : null;
    this.rule = {
      mediaRoots: settings.mediaRoots.map(realOrSelf),
      dataDir: settings.dataDir && dataReal ? { real: dataReal, given: resolve(settings.dataDir) } : null,
      ownDirs: [...(dataReal ? [dataReal] : []), ...(settings.ownDirs ?? []).map(realOrSelf)],
    };
  }

  /**
   * Access without a rule: every regular file is allowed (library and test use, `vidx worker`).
   * @example
   * await FileAccess.unrestricted().readMediaFile('/tmp/talk.srt');
   */
  static unrestricted(): FileAccess {
    return UNRESTRICTED;
  }

  /**
   * Whether a real path lies in a folder vidx itself writes (its data dir, models, unpacked binary files):
   * scans, watchers and `path` inputs never go there.
   * @example
   * if (files.isOwnPath(realDir)) continue; // not walked, not reported
   */
  isOwnPath(real: string): boolean {
    return this.rule?.ownDirs.some((d) => isInside(d, real)) ?? false;
  }

  /**
   * Opens a file for a tool (ffmpeg, ffprobe) and checks the opened file itself: a regular file whose real
   * path the rule allows. The caller hands the descriptor to the child and closes it. FIFOs and devices are
   * refused without blocking (O_NONBLOCK on open).
   * @example
   * const { fd } = files.openToolInput('/srv/media/a.mp4'); // spawn(..., { stdio: ['ignore', 'pipe', 'pipe', fd] })
   */
  openToolInput(path: string): { fd: number; real: string } {
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    try {
      if (!fstatSync(fd).isFile()) throw new SourceError('not_a_file', `${basename(path)} is not a regular file`);
      const real = realPathOfFd(fd, path);
      if (!this.storedOrMediaAllowed(path, real)) throw refuse(path);
      return { fd, real };
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  }

  /**
   * Opens a file vidx reads itself because of a request (a task's media for its fingerprint, a picture, a
   * `/files` link): a regular file that vidx stored under its data dir, or one inside the media roots now
   * (also through a kept link to path-indexed media). Never a link that has come to point elsewhere. The
   * caller closes the handle.
   * @example
   * const fh = await files.openCheckedFile('/data/collections/3/clip/media.mp4');
   */
  openCheckedFile(path: string): Promise<FileHandle> {
    return openChecked(path, (real) => this.storedOrMediaAllowed(path, real));
  }

  /**
   * Opens a file that sits in the media roots because of a request (a sidecar subtitle, a file of a scanned
   * folder) and checks the opened file: regular, real path inside the media roots, not in the data dir. The
   * caller closes the handle.
   * @example
   * const fh = await files.openMediaFile('/srv/media/talk.srt');
   * try { const text = await fh.readFile('utf8'); } finally { await fh.close(); }
   */
  openMediaFile(path: string): Promise<FileHandle> {
    return openChecked(path, (real) => this.rule === null || mediaAllowedBy(this.rule, real));
  }

  /**
   * Reads a whole media-root file through {@link openMediaFile}.
   * @example
   * const bytes = await files.readMediaFile('/srv/media/talk.srt');
   */
  readMediaFile(path: string): Promise<Buffer> {
    return readAll(this.openMediaFile(path));
  }

  /**
   * Reads a whole file through {@link openCheckedFile} (pictures, whose decoders take bytes).
   * @example
   * const jpeg = await files.readCheckedFile('/srv/media/photo.jpg');
   */
  readCheckedFile(path: string): Promise<Buffer> {
    return readAll(this.openCheckedFile(path));
  }

  /**
   * A name vidx built inside its data dir (an upload, a download, kept media) may be one of its own files
   * there, opened under its own name (no link on the way), or, for path-indexed media kept as a link, lead
   * into the media roots; any other name only into the media roots. So a kept link, or a media file it
   * leads to, swapped for a link into the data dir (the database, the link secret) is refused.
   */
  private storedOrMediaAllowed(name: string, real: string): boolean {
    const rule = this.rule;
    if (rule === null) return true;
    const d = rule.dataDir;
    const own = d !== null && (isInside(d.given, resolve(name)) || isInside(d.real, resolve(name)));
    return (own && inDataDir(rule, real) && real === unlinkedRealPath(name)) || mediaAllowedBy(rule, real);
  }
}

const UNRESTRICTED = new FileAccess(null);
