/**
 * What the build scripts share: digests of build inputs (a build is reused when the digest of what it read
 * equals the one it recorded) and writing a build's folder in one step.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/**
 * Builds into a folder beside `out`, writes `meta` (what `fill` returns) as its build.json, then renames
 * it into place: two builds at once (test workers, npm start) never mix files, and a failed build leaves
 * the last good one.
 * @example
 * const result = await buildInPlace('lib', async (work) => ({ inputs, files: await compileInto(work) }));
 */
export async function buildInPlace<T>(out: string, fill: (work: string) => Promise<T>): Promise<T> {
  const work = `${out}.build-${process.pid}`;
  try {
    const meta = await fill(work);
    writeFileSync(join(work, 'build.json'), `${JSON.stringify(meta, null, 2)}\n`);
    rmSync(out, { recursive: true, force: true });
    renameSync(work, out);
    return meta;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
