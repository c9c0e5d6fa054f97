/**
 * A digest of everything a binary build reads (sources, lockfile, model manifest, build scripts, the Node
 * binary), so a test or a script can reuse `dist/vidx` when nothing changed since it was built.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) walk(p, out);
    else if (/\.(ts|tsx|js|mjs|cjs|json|html|css|svg)$/.test(name) && !name.endsWith('.test.ts')) out.push(p);
  }
}

/**
 * sha256 over the build's inputs; equal digests mean an equal binary.
 * @example
 * const fresh = readJson('dist/vidx.json').inputs === inputsDigest(root);
 */
export function inputsDigest(root: string): string {
  const files: string[] = [];
  walk(join(root, 'src'), files);
  walk(join(root, 'scripts', 'binary'), files);
  // The web page's sources decide dist/web, which the binary embeds.
  walk(join(root, 'web'), files);
  files.push(join(root, 'scripts', 'build-binary.ts'), join(root, 'scripts', 'build-web.ts'), join(root, 'package-lock.json'), join(root, 'models', 'manifest.json'));
  const h = createHash('sha256');
  for (const f of files) h.update(relative(root, f)).update('\0').update(readFileSync(f)).update('\0');
  const node = statSync(process.execPath);
  h.update(`${process.execPath}\0${process.version}\0${node.size}\0${node.mtimeMs}`);
  return h.digest('hex');
}
