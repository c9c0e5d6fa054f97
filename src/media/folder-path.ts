import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { SourceError } from './errors.js';
import { isInside as inside, isVidxOwnPath } from './file-access.js';

/**
 * The real path of a directory inside one of `roots`, or a SourceError: `invalid_input` (empty, NUL,
 * relative), `outside_roots` (written or real path outside every root; checked before anything is
 * opened), `not_found`, `not_a_file` (not a directory). The directory twin of resolveInsideRoots.
 * @example
 * await resolveDirInsideRoots('/srv/media/phone', ['/srv/media']); // '/srv/media/phone'
 */
export async function resolveDirInsideRoots(input: string, roots: readonly string[]): Promise<string> {
  if (!input || input.includes('\0')) throw new SourceError('invalid_input', 'path must be a non-empty string without NUL characters');
  if (!isAbsolute(input)) throw new SourceError('invalid_input', `path "${input}" must be absolute`);
  const lexical = resolve(input);
  const realRoots = (await Promise.all(roots.map((r) => realpath(resolve(r)).catch(() => null)))).filter((r): r is string => r !== null);
  if (!roots.some((r) => inside(resolve(r), lexical)) && !realRoots.some((r) => inside(r, lexical))) {
    throw new SourceError('outside_roots', `path "${input}" is outside the configured media roots (VIDX_MEDIA_ROOTS)`);
  }
  let real: string;
  try {
    real = await realpath(lexical);
  } catch {
    throw new SourceError('not_found', `path "${input}" does not exist`);
  }
  if (!realRoots.some((r) => inside(r, real))) {
    throw new SourceError('outside_roots', `path "${input}" leads (through a symbolic link) outside the configured media roots (VIDX_MEDIA_ROOTS)`);
  }
  if (isVidxOwnPath(real)) throw new SourceError('outside_roots', `path "${input}" is inside vidx's own data folder, which is never read as media`);
  if (!(await stat(real)).isDirectory()) throw new SourceError('not_a_file', `path "${input}" is not a directory`);
  return real;
}
