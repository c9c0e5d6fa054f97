import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { type FileAccess, isInside as inside } from './file-access.js';
import { SourceError } from './errors.js';
import { msg } from '../messages/index.js';


async function realOrUndefined(p: string): Promise<string | undefined> {
  try {
    return await realpath(p);
  } catch {
    return undefined;
  }
}

/**
 * Resolves `input` to the real path of a regular file inside one of `roots`, or throws SourceError.
 * Rules, in order, so nothing outside the roots is ever opened or even probed for existence:
 * 1. empty or NUL-containing → `invalid_input`; no roots → `outside_roots`.
 * 2. relative paths are tried against each root in turn; absolute paths as given.
 * 3. the lexically normalised path (`..` applied) must be inside a root (as written or its realpath),
 *    else `outside_roots`.
 * 4. realpath (symlinks followed) must still be inside a root's realpath, else `outside_roots`;
 *    missing → `not_found`.
 * 5. it must not lie in an `exclude` folder or in a folder vidx writes (FileAccess.isOwnPath) → else `outside_roots`.
 * 6. it must be a regular file (not a directory, FIFO or device) → else `not_a_file`.
 * @example
 * await resolveInsideRoots(files, 'talks/a.mp4', ['/srv/media']); // '/srv/media/talks/a.mp4'
 * await resolveInsideRoots(files, '/srv/media/../../etc/passwd', ['/srv/media']); // throws outside_roots
 */
export async function resolveInsideRoots(files: FileAccess, input: string, roots: readonly string[], exclude: readonly string[] = []): Promise<string> {
  if (!input || input.includes('\0')) throw new SourceError('invalid_input', 'path must be a non-empty string without NUL characters');
  if (!roots.length) throw new SourceError('outside_roots', `path "${input}" refused: no media roots are configured`);
  const rootForms = await Promise.all(
    roots.map(async (r) => {
      const lexical = resolve(r);
      return { lexical, real: await realOrUndefined(lexical) };
    }),
  );
  const realRoots = rootForms.map((r) => r.real).filter((r): r is string => !!r);
  const candidates = isAbsolute(input) ? [resolve(input)] : rootForms.map((r) => resolve(r.lexical, input));

  const allowed = candidates.filter((c) => rootForms.some((r) => inside(r.lexical, c) || (r.real && inside(r.real, c))));
  if (!allowed.length) throw new SourceError('outside_roots', msg('path_outside_roots', { path: input }));

  for (const c of allowed) {
    const real = await realOrUndefined(c);
    if (!real) continue;
    if (!realRoots.some((r) => inside(r, real))) {
      throw new SourceError('outside_roots', msg('path_link_outside', { path: input }));
    }
    const excluded = await Promise.all(exclude.map(async (d) => (await realOrUndefined(d)) ?? resolve(d)));
    // A vidx folder is refused unless it is the root asked for (uploads are resolved inside the uploads folder).
    const ownFolder = files.isOwnPath(real) && !realRoots.some((r) => inside(r, real) && files.isOwnPath(r));
    if (excluded.some((d) => inside(d, real)) || ownFolder) {
      throw new SourceError('outside_roots', msg('path_in_data_dir', { path: input }));
    }
    const st = await stat(real);
    if (!st.isFile()) throw new SourceError('not_a_file', `path "${input}" is not a regular file`);
    return real;
  }
  throw new SourceError('not_found', msg('path_missing_in_roots', { path: input }));
}
