/**
 * Unpacks the single binary's embedded files (native libraries, npm-shipped models) once per build into
 * `$XDG_CACHE_HOME/vidx/<build id>/` (default `~/.cache`), or `<temp dir>/vidx-<uid>/<build id>/` when the home
 * cache is not writable. Every file goes through a temp name and a rename, so two vidx starting at once both
 * end up with whole files; later starts only compare sizes. Folders of other build ids are removed unless a
 * live process still uses them.
 */
import { randomBytes } from 'node:crypto';
import { accessSync, closeSync, constants, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { processAlive } from '../tools/process-alive.js';

/** One embedded file: its SEA asset key, where it goes inside the build folder, and how it is stored. */
export interface AssetFile {
  key: string;
  /** Relative path inside `<cache>/<build id>/`; the layout keeps each library's RPATH ($ORIGIN/…) valid. */
  path: string;
  /** Size once extracted. */
  size: number;
  gzip: boolean;
  mode: number;
}

/** What the build wrote into the binary as `build.json`. */
export interface BuildInfo {
  /** 16 hex digits: a hash of the bundle and every asset. */
  id: string;
  version: string;
  node: string;
  builtAt: string;
  files: AssetFile[];
}

/** Where the files are, and what the extraction did. */
export interface Extracted {
  dir: string;
  /** Files written this time (0 on every start after the first). */
  written: number;
  /** Old build folders removed. */
  removed: string[];
  /** Set when the home cache could not be used. */
  fallbackReason?: string;
}

const BUILD_ID = /^[0-9a-f]{16}$/;

/**
 * The cache folders to try, in order: `$XDG_CACHE_HOME/vidx` (or `~/.cache/vidx`), then one in the temp dir.
 * @example
 * cacheRoots(process.env); // ['/home/me/.cache/vidx', '/tmp/vidx-1000']
 */
export function cacheRoots(env: NodeJS.ProcessEnv): string[] {
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return [join(base, 'vidx'), join(env.TMPDIR || tmpdir(), `vidx-${uid}`)];
}

/** The temp dir is shared: a folder someone else made (or a symlink) could hand us their libraries. */
function assertPrivate(dir: string): void {
  const st = lstatSync(dir);
  if (!st.isDirectory()) throw new Error(`${dir} is not a directory`);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) throw new Error(`${dir} belongs to another user`);
  if ((st.mode & 0o022) !== 0) throw new Error(`${dir} is writable by others`);
}

function usable(root: string, id: string, shared: boolean): string {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  if (shared) assertPrivate(root);
  const dir = join(root, id);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  accessSync(dir, constants.W_OK);
  return dir;
}

function writeWhole(target: string, data: Uint8Array, mode: number): void {
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  const tmp = `${target}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'wx', mode);
  try {
    for (let off = 0; off < data.length; ) off += writeSync(fd, data, off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  // rename is atomic: a concurrent start sees the old state or the whole file, never half of it.
  renameSync(tmp, target);
}

/** Marks the build folder as used by this process until it exits, so a newer build does not delete it. */
function register(dir: string): void {
  const users = join(dir, '.users');
  mkdirSync(users, { recursive: true, mode: 0o700 });
  const mine = join(users, String(process.pid));
  closeSync(openSync(mine, 'w', 0o600));
  process.once('exit', () => {
    try {
      unlinkSync(mine);
    } catch {
      // Already gone: nothing to undo.
    }
  });
}

function inUse(dir: string): boolean {
  let pids: string[];
  try {
    pids = readdirSync(join(dir, '.users'));
  } catch {
    return false;
  }
  return pids.some((p) => /^\d+$/.test(p) && Number(p) !== process.pid && processAlive(Number(p)));
}

function removeOld(root: string, id: string): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(root)) {
    if (name === id || !BUILD_ID.test(name)) continue;
    const dir = join(root, name);
    if (inUse(dir)) continue;
    // Renamed first, so a binary of that build starting right now re-extracts instead of finding half a folder.
    const trash = `${dir}.old-${process.pid}`;
    try {
      renameSync(dir, trash);
      rmSync(trash, { recursive: true, force: true });
      removed.push(name);
    } catch {
      // Another process is removing it, or it is not ours to remove: leave it.
    }
  }
  return removed;
}

/**
 * Extracts every asset of the build (skipping files already there at the right size) and returns the folder.
 * `read` gives an asset's stored bytes (node:sea's getRawAsset in the binary).
 * @example
 * const { dir } = extractAssets(info, (key) => sea.getRawAsset(key), process.env);
 */
export function extractAssets(info: BuildInfo, read: (key: string) => ArrayBuffer, env: NodeJS.ProcessEnv): Extracted {
  if (!BUILD_ID.test(info.id)) throw new Error(`bad build id ${info.id}`);
  const roots = cacheRoots(env);
  let dir: string | undefined;
  let root = '';
  let fallbackReason: string | undefined;
  const failures: string[] = [];
  for (const [i, candidate] of roots.entries()) {
    try {
      dir = usable(candidate, info.id, i > 0);
      root = candidate;
      break;
    } catch (err) {
      failures.push(`${candidate}: ${(err as Error).message}`);
      fallbackReason = failures.join('; ');
    }
  }
  if (!dir) throw new Error(`vidx: nowhere to unpack its libraries and models (${failures.join('; ')}); set XDG_CACHE_HOME to a writable folder`);
  register(dir);
  let written = 0;
  for (const f of info.files) {
    const target = join(dir, f.path);
    try {
      if (statSync(target).size === f.size) continue;
    } catch {
      // Not there yet.
    }
    const stored = new Uint8Array(read(f.key));
    const data = f.gzip ? gunzipSync(stored) : stored;
    if (data.length !== f.size) throw new Error(`vidx: embedded ${f.key} has ${data.length} bytes, expected ${f.size}`);
    writeWhole(target, data, f.mode);
    written += 1;
  }
  const removed = removeOld(root, info.id);
  return { dir, written, removed, ...(fallbackReason ? { fallbackReason } : {}) };
}
