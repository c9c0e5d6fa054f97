/**
 * Digests of build inputs: a build is reused when the digest of what it read equals the one it recorded.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Every file under `dir` (sorted, recursively) whose name `keep` accepts.
 * @example
 * filesUnder('src', (name) => name.endsWith('.ts')); // ['src/cli.ts', 'src/cli/analyze.ts', …]
 */
export function filesUnder(dir: string, keep: (name: string) => boolean = () => true): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (keep(name)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/**
 * sha256 over files' paths (relative to `root`) and contents.
 * @example
 * digestFiles(root, [join(root, 'package-lock.json')]); // '9f2c…'
 */
export function digestFiles(root: string, files: readonly string[]): string {
  const h = createHash('sha256');
  for (const f of files) h.update(relative(root, f)).update('\0').update(readFileSync(f)).update('\0');
  return h.digest('hex');
}
