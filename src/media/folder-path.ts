import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { SourceError } from './errors.js';
import { type FileAccess, isInside as inside } from './file-access.js';
import { msg } from '../messages/index.js';

/**
 * The real path of a directory inside one of `roots`, or a SourceError: `invalid_input` (empty, NUL,
 * relative), `outside_roots` (written or real path outside every root; checked before anything is
 * opened), `not_found`, `not_a_file` (not a directory). The directory twin of resolveInsideRoots.
 * @example
 * await resolveDirInsideRoots(files, '/srv/media/phone', ['/srv/media']); // '/srv/media/phone'
 */
export async function resolveDirInsideRoots(files: FileAccess, input: string, roots: readonly string[]): Promise<string> {
  if (!input || input.includes('\0')) throw new SourceError('invalid_input', 'path must be a non-empty string without NUL characters');
  if (!isAbsolute(input)) throw new SourceError('invalid_input', msg('path_not_absolute', { path: input }));
  const lexical = resolve(input);
  const realRoots = (await Promise.all(roots.map((r) => realpath(resolve(r)).catch(() => null)))).filter((r): r is string => r !== null);
  if (!roots.some((r) => inside(resolve(r), lexical)) && !realRoots.some((r) => inside(r, lexical))) {
    throw new SourceError('outside_roots', msg('folder_outside_roots', { path: input }));
  }
  let real: string;
  try {
    real = await realpath(lexical);
  } catch {
    throw new SourceError('not_found', msg('path_missing', { path: input }));
  }
  if (!realRoots.some((r) => inside(r, real))) {
    throw new SourceError('outside_roots', msg('folder_link_outside', { path: input }));
  }
  if (files.isOwnPath(real)) throw new SourceError('outside_roots', msg('path_in_data_dir', { path: input }));
  if (!(await stat(real)).isDirectory()) throw new SourceError('not_a_file', msg('path_not_directory', { path: input }));
  return real;
}
