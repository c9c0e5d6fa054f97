/**
 * `npm run build:binary`: builds `dist/vidx`, one linux-x64 executable holding vidx, its native libraries and
 * the npm-shipped models, as a Node single-executable application made from this machine's own Node, offline:
 *   0. the web page is built into dist/web when stale (scripts/build-web.ts) and embedded as assets;
 *   1. esbuild bundles src/sea-main.ts (the loader, the main script), src/sea/app.ts (the application, an asset)
 *      and src/sea/thread.ts (the analysis and search threads) to CommonJS files (node20), native requires redirected;
 *   2. libraries are gzipped (cached in dist/.sea-cache), a build id hashes the bundle and every asset;
 *   3. `node --experimental-sea-config` writes the preparation blob (code cache included);
 *   4. a copy of `process.execPath` (stripped when `strip` exists) gets the blob through postject.
 * Concurrent builds do not clash: each works in dist/.sea-work-<pid> and renames its result into place.
 * Also writes dist/vidx.json (build id, sizes, the inputs digest that lets tests reuse a fresh build).
 * Flags: --if-stale (skip when dist/vidx.json matches the current inputs), --no-strip.
 * Last line printed: one JSON object with the figures.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { inject } from 'postject';
import { collectAssets, type AssetSource } from './binary/assets.js';
import { nativePlugin } from './binary/esbuild-native.js';
import { buildWeb } from './build-web.js';
import { inputsDigest } from './binary/inputs.js';
import { llamaAssets } from './binary/llama.js';
import type { AssetFile, BuildInfo } from '../src/sea/extract.js';
import { VERSION } from '../src/version.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
/** The last build's bundle and blob stay in dist/sea for inspection; a build works in its own folder first. */
const KEEP = join(DIST, 'sea');
const WORK = join(DIST, `.sea-work-${process.pid}`);
const CACHE = join(DIST, '.sea-cache');
const OUT = join(DIST, 'vidx');
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const sha256 = (data: Uint8Array | string): string => createHash('sha256').update(data).digest('hex');
const mb = (n: number): number => Math.round(n / 1e5) / 10;

function log(msg: string): void {
  process.stderr.write(`build-binary: ${msg}\n`);
}

/** Bundles one entry (the binary's main, or a thread's) to a CommonJS file in the work folder. */
async function bundle(assets: AssetSource[], entry: string, name: string): Promise<string> {
  const outfile = join(WORK, name);
  const nativeFiles = new Map(assets.filter((a) => a.path.endsWith('.node')).map((a) => [a.source, a.path]));
  const result = await build({
    entryPoints: [join(ROOT, 'src', entry)],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    // ESM sources read import.meta.url (createRequire, manifest path); in the binary it is the executable.
    define: { 'import.meta.url': '__vidx_import_meta_url' },
    banner: { js: 'var __vidx_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
    plugins: [nativePlugin(ROOT, nativeFiles)],
    // The local answer model's runtime rides as its own ES module (scripts/binary/llama.ts), imported by path.
    external: ['node-llama-cpp'],
    legalComments: 'none',
    minifyWhitespace: true,
    minifySyntax: true,
    keepNames: true,
    logLevel: 'error',
    logOverride: { 'empty-glob': 'silent' },
  });
  for (const w of result.warnings) log(`esbuild warning: ${w.text}`);
  return outfile;
}

/** The stored form of an asset: the file itself, or its gzip from the cache (compressing ~65 MB takes a few seconds). */
function stored(a: AssetSource, content: Buffer, digest: string): string {
  if (!a.gzip) return a.source;
  const file = join(CACHE, `${digest}.gz`);
  if (!existsSync(file)) {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, gzipSync(content, { level: 6 }));
    renameSync(tmp, file);
  }
  return file;
}

async function main(): Promise<void> {
  const args = new Set(process.argv.slice(2));
  // The page is embedded: build it first when its sources changed (quick when they did not).
  const web = await buildWeb({ ifStale: true });
  if (!web.reused) log(`web page built in ${web.buildMs} ms`);
  const inputs = inputsDigest(ROOT);
  const metaFile = join(DIST, 'vidx.json');
  if (args.has('--if-stale') && existsSync(OUT) && existsSync(metaFile)) {
    const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as { inputs?: string };
    if (meta.inputs === inputs) {
      log('dist/vidx is up to date');
      process.stdout.write(`${JSON.stringify({ ...meta, reused: true })}\n`);
      return;
    }
  }
  const started = Date.now();
  const assets = collectAssets(ROOT);
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  mkdirSync(CACHE, { recursive: true });

  // The binary's main script, kept whole: a small loader that unpacks everything and runs the application.
  const main = await bundle(assets, 'sea-main.ts', 'vidx.cjs');
  // The application (server, CLI, MCP), unpacked beside the libraries and run from there: gzipped it is a
  // quarter of its 12 MB (src/sea/app-loader.ts keeps its code cache).
  const app = await bundle(assets, join('sea', 'app.ts'), 'app.cjs');
  assets.push({ path: 'app.cjs', source: app, gzip: true, mode: 0o644 });
  // The threads' own bundle (analyses, clusters, suggestions, searches), unpacked beside the libraries and started from there.
  const thread = await bundle(assets, join('sea', 'thread.ts'), 'thread.cjs');
  assets.push({ path: 'threads/thread.cjs', source: thread, gzip: true, mode: 0o644 });
  const llama = await llamaAssets(ROOT, WORK);
  if (!llama.length) log('node-llama-cpp is not installed: the binary answers questions from the moments only');
  assets.push(...llama);
  const bundled = Date.now();
  const code = readFileSync(main);
  log(`bundles ${mb(code.length)} + ${mb(statSync(app).size)} + ${mb(statSync(thread).size)} MB in ${bundled - started} ms`);

  const idHash = createHash('sha256').update(code);
  const files: AssetFile[] = [];
  const seaAssets: Record<string, string> = {};
  for (const a of assets) {
    const content = readFileSync(a.source);
    const digest = sha256(content);
    idHash.update(`${a.path}\0${digest}\0${a.mode}\0`);
    seaAssets[a.path] = stored(a, content, digest);
    files.push({ key: a.path, path: a.path, size: content.length, gzip: a.gzip, mode: a.mode });
  }
  const info: BuildInfo = { id: idHash.digest('hex').slice(0, 16), version: VERSION, node: process.version, builtAt: new Date().toISOString(), files };
  writeFileSync(join(WORK, 'build.json'), JSON.stringify(info));
  seaAssets['build.json'] = join(WORK, 'build.json');
  const assetsDone = Date.now();
  log(`${files.length} assets, build id ${info.id}, in ${assetsDone - bundled} ms`);

  const blob = join(WORK, 'sea-prep.blob');
  const config = { main, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets: seaAssets };
  writeFileSync(join(WORK, 'sea-config.json'), JSON.stringify(config, null, 2));
  execFileSync(process.execPath, ['--experimental-sea-config', join(WORK, 'sea-config.json')], { stdio: ['ignore', 'ignore', 'inherit'] });
  const blobDone = Date.now();
  log(`blob ${mb(statSync(blob).size)} MB in ${blobDone - assetsDone} ms`);

  const tmp = `${OUT}.${process.pid}.tmp`;
  copyFileSync(process.execPath, tmp);
  chmodSync(tmp, 0o755);
  let stripped = false;
  if (!args.has('--no-strip')) {
    try {
      // Node's symbol table and debug info (~13 MB) are not needed to run; the dynamic symbols addons link against stay.
      execFileSync('strip', ['--strip-all', tmp], { stdio: 'ignore' });
      stripped = true;
    } catch {
      log('strip not found (binutils): keeping the Node binary unstripped');
    }
  }
  // postject prints LIEF warnings about section names of the stripped binary; they are harmless.
  await inject(tmp, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: FUSE, overwrite: true });
  renameSync(tmp, OUT);
  rmSync(KEEP, { recursive: true, force: true });
  renameSync(WORK, KEEP);
  const done = Date.now();
  const size = statSync(OUT).size;
  const figures = {
    file: 'dist/vidx', id: info.id, node: process.version, sizeBytes: size, sizeMB: mb(size), stripped,
    buildMs: done - started, bundleMs: bundled - started, assetsMs: assetsDone - bundled, blobMs: blobDone - assetsDone, injectMs: done - blobDone,
    inputs,
  };
  writeFileSync(metaFile, `${JSON.stringify(figures, null, 2)}\n`);
  log(`dist/vidx ${figures.sizeMB} MB in ${figures.buildMs} ms`);
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

mkdirSync(dirname(OUT), { recursive: true });
try {
  await main();
} finally {
  rmSync(WORK, { recursive: true, force: true });
}
