import type { Dirent } from 'node:fs';
import { opendir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { type FileAccess, isInside as inside } from './file-access.js';

/** One thing a walk found: a regular file to look at, or something it skipped and why. */
export type WalkEntry =
  | { kind: 'file'; rel: string; abs: string }
  | { kind: 'skipped'; rel: string; reason: string; code: 'outside_roots' | 'broken_link' | 'unreadable_folder' };

/** How to walk a folder. */
export interface WalkOptions {
  recursive: boolean;
  /** Globs over paths relative to the folder (`**\/*.tmp`, `private/**`); a matching folder is not entered. */
  exclude: readonly string[];
  /** Real paths of the media roots: a symbolic link leading outside them is skipped and reported. */
  realRoots: readonly string[];
  /** The server's file-access rule: vidx's own folders are never walked. */
  files: FileAccess;
  signal?: AbortSignal;
}

/**
 * A matcher for exclude globs over folder-relative paths (`/` separators, dot files included).
 * @example
 * excluder(['**\/*.tmp'])('a/b.tmp'); // true
 */
export function excluder(globs: readonly string[]): (rel: string) => boolean {
  if (globs.length === 0) return () => false;
  const match = picomatch([...globs], { dot: true });
  return (rel) => match(rel);
}

/**
 * Walks a folder one directory handle at a time (`opendir`), yielding files as it finds them, so memory
 * stays bounded by the depth of the tree, not the number of files. Symbolic links are followed only when
 * their real path stays inside the media roots (else reported as skipped); each real directory is
 * entered once, so link loops end. FIFOs, sockets and devices are passed over silently, and so is every
 * folder vidx writes itself (its data dir when it lies inside a media root): not entered, not reported.
 * @example
 * for await (const e of walkFolder('/srv/media/phone', { recursive: true, exclude: ['**\/.thumbnails/**'], realRoots })) {
 *   if (e.kind === 'file') console.log(e.rel);
 * }
 */
export async function* walkFolder(root: string, opts: WalkOptions): AsyncGenerator<WalkEntry> {
  const excluded = excluder(opts.exclude);
  const rootReal = await realpath(root);
  const visited = new Set<string>([rootReal]);
  const stack: { abs: string; rel: string; real: string }[] = [{ abs: root, rel: '', real: rootReal }];
  while (stack.length) {
    opts.signal?.throwIfAborted();
    const dir = stack.pop()!;
    let handle;
    try {
      handle = await opendir(dir.abs);
    } catch (e) {
      if (dir.rel) yield { kind: 'skipped', rel: dir.rel, reason: `cannot read folder: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, code: 'unreadable_folder' };
      else throw e;
      continue;
    }
    const subdirs: { abs: string; rel: string; real: string }[] = [];
    for await (const d of handle as AsyncIterable<Dirent>) {
      const rel = dir.rel ? `${dir.rel}/${d.name}` : d.name;
      const abs = join(dir.abs, d.name);
      let isDir = d.isDirectory();
      let isFile = d.isFile();
      let real = join(dir.real, d.name);
      if (d.isSymbolicLink()) {
        const target = await realpath(abs).catch(() => null);
        if (!target) {
          yield { kind: 'skipped', rel, reason: 'broken symbolic link', code: 'broken_link' };
          continue;
        }
        real = target;
        // Checked before the roots, so a link into vidx's folders is not even mentioned.
        if (opts.files.isOwnPath(real)) continue;
        if (!opts.realRoots.some((r) => inside(r, real))) {
          yield { kind: 'skipped', rel, reason: 'symbolic link leads outside the media roots', code: 'outside_roots' };
          continue;
        }
        const st = await stat(real).catch(() => null);
        isDir = Boolean(st?.isDirectory());
        isFile = Boolean(st?.isFile());
        if (isDir) {
          if (visited.has(real)) continue;
          visited.add(real);
        }
      } else if (opts.files.isOwnPath(real)) continue;
      if (isDir) {
        if (opts.recursive && !excluded(rel) && !excluded(`${rel}/`)) subdirs.push({ abs, rel, real });
      } else if (isFile && !excluded(rel)) {
        yield { kind: 'file', rel, abs };
      }
    }
    // Reversed so folders are entered in the order they were listed.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
  }
}
