/**
 * `npm run build:web`: builds the web page (web/, Preact + Vite) into dist/web, with the /docs renderer
 * (Swagger UI from node_modules) in dist/web/docs. `--if-stale` skips the build
 * when dist/web/build.json holds the digest of the current sources (a few milliseconds), which is what
 * `npm start`, `npm test` and `npm run build:binary` run first. After a build, the last line printed is one JSON
 * object (inputs digest, files, gzipped JS+CSS bytes, build time); a reused build prints one line on stderr.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildInPlace, digestFiles, filesUnder } from './digest.js';
import { RENDERER_FILES, RENDERER_LICENCE_FILES, RENDERER_PACKAGE_DIR } from '../src/http/docs/renderer.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WEB = join(ROOT, 'web');
/** The build output; dist/ is not committed. */
export const WEB_OUT = join(ROOT, 'dist', 'web');
const META = join(WEB_OUT, 'build.json');

/** What a build reports: the sources digest and the gzipped size of the page's code and styles. */
export interface WebBuild {
  inputs: string;
  files: string[];
  jsCssGzipBytes: number;
  buildMs: number;
  reused?: boolean;
}

/**
 * Copies the /docs renderer (Swagger UI's bundle, stylesheet, icon, licence and notice) from node_modules into
 * `dir`: dist/web/docs, which the single binary embeds with the rest of dist/web.
 * @example
 * copyRenderer(join(WEB_OUT, 'docs'));
 */
export function copyRenderer(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const name of [...Object.keys(RENDERER_FILES), ...RENDERER_LICENCE_FILES]) copyFileSync(join(RENDERER_PACKAGE_DIR, name), join(dir, name));
}

/**
 * sha256 over the page's sources (web/ and the typed client it imports from src/client), this script, the
 * lockfile (library versions) and the renderer's file list.
 * @example
 * const fresh = webInputsDigest() === JSON.parse(readFileSync('dist/web/build.json', 'utf8')).inputs;
 */
export function webInputsDigest(): string {
  // The renderer's file list decides what lands in dist/web/docs; its version comes with the lockfile.
  const files = [...filesUnder(WEB), ...filesUnder(join(ROOT, 'src', 'client'))];
  files.push(fileURLToPath(import.meta.url), join(ROOT, 'package-lock.json'), join(ROOT, 'src', 'http', 'docs', 'renderer.ts'));
  return digestFiles(ROOT, files);
}

/**
 * Builds dist/web (or, with `ifStale`, reuses it when its sources did not change).
 * @example
 * const { jsCssGzipBytes } = await buildWeb({ ifStale: true });
 */
export async function buildWeb(opts: { ifStale?: boolean } = {}): Promise<WebBuild> {
  const inputs = webInputsDigest();
  if (opts.ifStale && existsSync(META) && existsSync(join(WEB_OUT, 'index.html'))) {
    const meta = JSON.parse(readFileSync(META, 'utf8')) as WebBuild;
    if (meta.inputs === inputs) return { ...meta, reused: true };
  }
  const started = Date.now();
  // Loaded only when a build is needed: vite is large and `npm start` with a fresh page should stay quick.
  const { build } = await import('vite');
  return buildInPlace(WEB_OUT, async (work): Promise<WebBuild> => {
    await build({ configFile: join(WEB, 'vite.config.ts'), build: { outDir: work } });
    copyRenderer(join(work, 'docs'));
    const rel = filesUnder(work).map((f) => relative(work, f));
    // The figure is the web page's own weight; the API reference's renderer (docs/) is not loaded by the page.
    const jsCssGzipBytes = rel
      .filter((f) => /\.(js|css)$/.test(f) && !f.startsWith('docs/'))
      .reduce((sum, f) => sum + gzipSync(readFileSync(join(work, f)), { level: 9 }).length, 0);
    return { inputs, files: rel, jsCssGzipBytes, buildMs: Date.now() - started };
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await buildWeb({ ifStale: process.argv.includes('--if-stale') });
  if (result.reused) process.stderr.write('build-web: dist/web is up to date\n');
  else {
    // Only a real build reports figures: `npm start` and `npm test` run this first and stay quiet when nothing changed.
    process.stderr.write(`build-web: dist/web built in ${result.buildMs} ms; JS+CSS ${(result.jsCssGzipBytes / 1024).toFixed(1)} KB gzipped\n`);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
}
