/**
 * `npm run build:server`: compiles the server's TypeScript (src/) into JavaScript in lib/, one file per
 * source file with esbuild, so `npm start` runs plain Node and each analysis thread loads compiled modules
 * instead of compiling the sources anew through tsx. lib/ sits beside src/, at the same depth, so paths
 * the code makes from its own location (`../dist/web`, `../../models/manifest.json`) stay right.
 * `--if-stale` skips the build when lib/build.json holds the digest of the current sources, which is what
 * `npm start` runs first. After a build, the last line printed is one JSON object (inputs digest, files, time).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildInPlace, digestFiles, filesUnder } from './digest.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The compiled server; not committed. */
export const SERVER_OUT = join(ROOT, 'lib');
const META = join(SERVER_OUT, 'build.json');

/** What a build reports. */
export interface ServerBuild {
  inputs: string;
  files: number;
  buildMs: number;
  reused?: boolean;
}

/** The server's sources: every .ts under src/ but type declarations and tests kept beside their code. */
const sources = (): string[] => filesUnder(join(ROOT, 'src'), (name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.test.ts'));

/**
 * sha256 over the sources, this script and the lockfile (esbuild's version comes with it).
 * @example
 * const fresh = serverInputsDigest() === JSON.parse(readFileSync('lib/build.json', 'utf8')).inputs;
 */
export function serverInputsDigest(): string {
  return digestFiles(ROOT, [...sources(), fileURLToPath(import.meta.url), join(ROOT, 'package-lock.json')]);
}

/**
 * Whether lib/ holds the build of the current sources.
 * @example
 * if (!serverBuildFresh()) await buildServer();
 */
export function serverBuildFresh(): boolean {
  if (!existsSync(META)) return false;
  return (JSON.parse(readFileSync(META, 'utf8')) as ServerBuild).inputs === serverInputsDigest();
}

/**
 * Builds lib/ (or, with `ifStale`, reuses it when its sources did not change).
 * @example
 * const { files } = await buildServer({ ifStale: true });
 */
export async function buildServer(opts: { ifStale?: boolean } = {}): Promise<ServerBuild> {
  const inputs = serverInputsDigest();
  if (opts.ifStale && existsSync(META)) {
    const meta = JSON.parse(readFileSync(META, 'utf8')) as ServerBuild;
    if (meta.inputs === inputs) return { ...meta, reused: true };
  }
  const started = Date.now();
  const entryPoints = sources();
  return buildInPlace(SERVER_OUT, async (work): Promise<ServerBuild> => {
    // Not bundled: each module keeps its file, so import.meta.url and the threads' entry files stay where the
    // sources put them, and packages load from node_modules as they do under tsx.
    await build({ entryPoints, outdir: work, outbase: join(ROOT, 'src'), format: 'esm', platform: 'node', target: 'node20', supported: { 'import-attributes': true }, sourcemap: 'linked', logLevel: 'error' });
    return { inputs, files: entryPoints.length, buildMs: Date.now() - started };
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await buildServer({ ifStale: process.argv.includes('--if-stale') });
  if (result.reused) process.stderr.write(`build-server: ${relative(process.cwd(), SERVER_OUT) || 'lib'} is up to date\n`);
  else {
    process.stderr.write(`build-server: lib/ built from ${result.files} files in ${result.buildMs} ms\n`);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
}
