import { realpathSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';

/** The outcome of checking a `video.path` against the media roots. */
export type MediaPathCheck = { ok: true; real: string } | { ok: false; reason: string };

/**
 * Whether `path` lies inside one of `roots`, both resolved through symlinks; the file is never opened.
 * @example
 * checkMediaPath('/home/me/videos/a.mp4', ['/home/me']); // { ok: true, real: '/home/me/videos/a.mp4' }
 */
export function checkMediaPath(path: string, roots: string[]): MediaPathCheck {
  if (!isAbsolute(path)) return { ok: false, reason: `must be an absolute path, got "${path}"` };
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return { ok: false, reason: `"${path}" does not exist` };
  }
  for (const root of roots) {
    let realRoot: string;
    try {
      realRoot = realpathSync(root);
    } catch {
      continue;
    }
    const rel = relative(realRoot, real);
    if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) return { ok: true, real };
  }
  return { ok: false, reason: `"${path}" is outside the media roots (VIDX_MEDIA_ROOTS: ${roots.join(', ')})` };
}
