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

/** One rule per running server (tests run several in one process); none means no restriction. */
const rules = new Set<FileAccessRule>();

/**
 * Sets the file-access rule of a server, at its start; the returned function removes it at its stop.
 * From then on every ffmpeg/ffprobe input ({@link openToolInput}), every sidecar subtitle
 * ({@link readMediaFile}) and every file vidx reads for a request ({@link openCheckedFile}) is opened
 * first and the opened file's real path checked: media files must lie inside `mediaRoots` and outside
 * `dataDir` and `ownDirs`; a name vidx built inside `dataDir` may also be one of its own files there, but
 * never a link into it. Without any rule (library and unit-test use) nothing is restricted; with several
 * (servers in one process) a file one of them allows is allowed.
 * @example
 * const release = configureFileAccess({ mediaRoots: ['/home/me/Videos'], dataDir: '/home/me/.local/share/vidx', ownDirs: ['/srv/models'] });
 */
export function configureFileAccess(next: { mediaRoots: readonly string[]; dataDir: string | null; ownDirs?: readonly string[] }): () => void {
  const dataReal = next.dataDir ? realOrSelf(next.dataDir) : null;
  const rule: FileAccessRule = {
    mediaRoots: next.mediaRoots.map(realOrSelf),
    dataDir: next.dataDir && dataReal ? { real: dataReal, given: resolve(next.dataDir) } : null,
    ownDirs: [...(dataReal ? [dataReal] : []), ...(next.ownDirs ?? []).map(realOrSelf)],
  };
  rules.add(rule);
  return () => void rules.delete(rule);
}

/**
 * Whether a real path lies in a folder vidx itself writes (its data dir, models, unpacked binary files)
 * under any configured rule: scans, watchers and `path` inputs never go there.
 * @example
 * if (isVidxOwnPath(realDir)) continue; // not walked, not reported
 */
export function isVidxOwnPath(real: string): boolean {
  return [...rules].some((rule) => rule.ownDirs.some((d) => isInside(d, real)));
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

function mediaAllowed(real: string): boolean {
  return rules.size === 0 || [...rules].some((rule) => mediaAllowedBy(rule, real));
}

/**
 * A name vidx built inside its data dir (an upload, a download, kept media) may be one of its own files
 * there, opened under its own name (no link on the way), or, for path-indexed media kept as a link, lead
 * into the media roots; any other name only into the media roots. So a kept link, or a media file it
 * leads to, swapped for a link into the data dir (the database, the link secret) is refused.
 */
function storedOrMediaAllowed(name: string, real: string): boolean {
  if (rules.size === 0) return true;
  return [...rules].some((rule) => {
    const d = rule.dataDir;
    const own = d !== null && (isInside(d.given, resolve(name)) || isInside(d.real, resolve(name)));
    return (own && inDataDir(rule, real) && real === unlinkedRealPath(name)) || mediaAllowedBy(rule, real);
  });
}

function refuse(name: string): SourceError {
  return new SourceError('outside_roots', `${basename(name)} leads outside the configured media roots and was not opened`);
}

/**
 * Opens a file for a tool (ffmpeg, ffprobe) and checks the opened file itself: a regular file whose real
 * path is allowed by the file-access rule. The caller hands the descriptor to the child and closes it.
 * FIFOs and devices are refused without blocking (O_NONBLOCK on open).
 * @example
 * const { fd } = openToolInput('/srv/media/a.mp4'); // spawn(..., { stdio: ['ignore', 'pipe', 'pipe', fd] })
 */
export function openToolInput(path: string): { fd: number; real: string } {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    if (!fstatSync(fd).isFile()) throw new SourceError('not_a_file', `${basename(path)} is not a regular file`);
    const real = realPathOfFd(fd, path);
    if (!storedOrMediaAllowed(path, real)) throw refuse(path);
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
 * const fh = await openCheckedFile('/data/collections/3/clip/media.mp4');
 */
export function openCheckedFile(path: string): Promise<FileHandle> {
  return openChecked(path, (real) => storedOrMediaAllowed(path, real));
}

/**
 * Opens a file that sits in the media roots because of a request (a sidecar subtitle, a file of a
 * scanned folder) and checks the opened file: regular, real path inside the media roots, not in the
 * data dir. The caller closes the handle.
 * @example
 * const fh = await openMediaFile('/srv/media/talk.srt');
 * try { const text = await fh.readFile('utf8'); } finally { await fh.close(); }
 */
export function openMediaFile(path: string): Promise<FileHandle> {
  return openChecked(path, mediaAllowed);
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

/**
 * Reads a whole media-root file through {@link openMediaFile}.
 * @example
 * const bytes = await readMediaFile('/srv/media/talk.srt');
 */
export function readMediaFile(path: string): Promise<Buffer> {
  return readAll(openMediaFile(path));
}

/**
 * Reads a whole file through {@link openCheckedFile} (pictures, whose decoders take bytes).
 * @example
 * const jpeg = await readCheckedFile('/srv/media/photo.jpg');
 */
export function readCheckedFile(path: string): Promise<Buffer> {
  return readAll(openCheckedFile(path));
}

async function readAll(opening: Promise<FileHandle>): Promise<Buffer> {
  const fh = await opening;
  try {
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}
