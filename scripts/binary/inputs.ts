/**
 * A digest of everything a binary build reads (sources, lockfile, model manifest, build scripts, the Node
 * binary), so a test or a script can reuse `dist/vidx` when nothing changed since it was built.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { filesUnder } from '../digest.js';

/** The kinds of file a build reads (tests beside the code are not part of it). */
const built = (name: string): boolean => /\.(ts|tsx|js|mjs|cjs|json|html|css|svg)$/.test(name) && !name.endsWith('.test.ts');

/**
 * sha256 over the build's inputs; equal digests mean an equal binary.
 * @example
 * const fresh = readJson('dist/vidx.json').inputs === inputsDigest(root);
 */
export function inputsDigest(root: string): string {
  // The web page's sources decide dist/web, which the binary embeds.
  const files = [join(root, 'src'), join(root, 'scripts', 'binary'), join(root, 'web')].flatMap((dir) => filesUnder(dir, built));
  files.push(join(root, 'scripts', 'build-binary.ts'), join(root, 'scripts', 'build-web.ts'), join(root, 'scripts', 'digest.ts'), join(root, 'package-lock.json'), join(root, 'models', 'manifest.json'));
  const h = createHash('sha256');
  for (const f of files) h.update(relative(root, f)).update('\0').update(readFileSync(f)).update('\0');
  const node = statSync(process.execPath);
  h.update(`${process.execPath}\0${process.version}\0${node.size}\0${node.mtimeMs}`);
  return h.digest('hex');
}
