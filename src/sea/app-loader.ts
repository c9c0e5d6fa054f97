/**
 * Runs the single binary's application bundle (`app.cjs`, unpacked beside the libraries) as a CommonJS module.
 * The bundle rides gzipped in the binary, where the binary's own main script is kept whole (12 MB of
 * JavaScript is 3 MB gzipped: the binary stays under 150 MiB). It is compiled with a V8 code cache kept
 * beside it (`app.cjs.v8cache`, written by the first start), so later starts do not compile it again, as the
 * main script's code cache spared them before.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire, wrap } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** The unpacked application bundle's file name inside the build folder. */
export const APP_BUNDLE = 'app.cjs';

/**
 * The exports of the unpacked application bundle in `dir`.
 * @example
 * const app = loadApp(extracted.dir) as { runBinary(dir: string): Promise<number> };
 */
export function loadApp(dir: string): unknown {
  const file = join(dir, APP_BUNDLE);
  const cacheFile = `${file}.v8cache`;
  const cachedData = existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
  const script = new Script(wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
  const run = script.runInThisContext() as (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;
  const mod = { exports: {} };
  run.call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file));
  if (!cachedData || script.cachedDataRejected) keepCodeCache(script, cacheFile);
  return mod.exports;
}

/** Writes the code cache through a temp name (two starts at once both end with a whole file); a read-only cache folder only costs the next start its compile. */
function keepCodeCache(script: Script, cacheFile: string): void {
  try {
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(tmp, script.createCachedData());
    renameSync(tmp, cacheFile);
  } catch {
    // Not kept: the next start compiles again.
  }
}
