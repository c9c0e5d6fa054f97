/**
 * Entry of the single binary (`dist/vidx`, built by scripts/build-binary.ts): unpacks the embedded native
 * libraries, models and the application bundle once per build, then runs the application (src/sea/app.ts)
 * from the unpacked folder. This entry stays small: it is the binary's one file kept whole; the application
 * rides gzipped. No top-level await, so esbuild can bundle it as CommonJS; only the unpack settings load
 * before the unpacking.
 */
import { getAsset, getRawAsset, isSea } from 'node:sea';
import { loadApp } from './sea/app-loader.js';
import { extractAssets, type BuildInfo } from './sea/extract.js';

async function main(): Promise<number> {
  if (!isSea()) {
    process.stderr.write('vidx: this bundle runs only inside the single binary (npm run build:binary); use `npx vidx` from a checkout\n');
    return 1;
  }
  const info = JSON.parse(getAsset('build.json', 'utf8')) as BuildInfo;
  const { readUnpackSettings } = await import('./config.js');
  const unpack = readUnpackSettings();
  const { dir, fallbackReason } = extractAssets(info, (key) => getRawAsset(key) as ArrayBuffer, unpack.env);
  if (fallbackReason && !unpack.silent) {
    process.stderr.write(`vidx: home cache not writable (${fallbackReason}); unpacked to ${dir}\n`);
  }
  const app = loadApp(dir) as { runBinary(dir: string): Promise<number> };
  return app.runBinary(dir);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`vidx: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
