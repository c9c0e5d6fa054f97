/**
 * The local answer model's runtime inside the single binary (issue 46): node-llama-cpp bundled by esbuild to
 * one ES module, unpacked to `node-llama-cpp/dist/index.mjs` with the few files it reads beside it and the
 * CPU build of llama.cpp in `node-llama-cpp/bins/linux-x64/`, where node-llama-cpp looks for its own prebuilt
 * binaries first. Of llama.cpp's fourteen CPU variants two ride along: the baseline x64 and `haswell`
 * (AVX2, most x86 machines since 2013; AVX-512 machines run it too). ggml picks the best of those present,
 * and the binary stays under 150 MiB. The bundle says it is bundled, so node-llama-cpp skips the test it
 * would run in a forked process (that fork would start vidx itself).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { PACKED_LLAMA_ENTRY, PACKED_LLAMA_IMPORTER } from '../../src/ml/answer/local-model.js';
import type { AssetSource } from './assets.js';

/** llama.cpp's CPU build: the addon, the libraries it links, and the variants ggml chooses between. */
const LIBRARIES = ['llama-addon.node', 'libllama-common.so', 'libllama.v0.4.0.so', 'libggml.v0.4.0.so', 'libggml-base.so', 'libggml-cpu-x64.so', 'libggml-cpu-haswell.so'];
/** Files of the package node-llama-cpp reads at start (its version, the llama.cpp release of its binaries). */
const PACKAGE_FILES = ['package.json', 'llama/binariesGithubRelease.json', 'llama/llama.cpp.info.json', 'llama/package.json'];
const ROOT_DIR = PACKED_LLAMA_ENTRY.split('/')[0]!;

/**
 * reflink (copy-on-write file copies for downloads, which vidx does not ask of it) is a native addon of its
 * own: a stand-in that refuses keeps it out. The GPU builds of the other `@node-llama-cpp/*` packages are
 * never asked for on a CPU-only linux-x64 (`gpu: false`).
 */
const leaveOut: Plugin = {
  name: 'vidx-llama-leave-out',
  setup(b) {
    b.onResolve({ filter: /^@node-llama-cpp\// }, (a) => ({ path: a.path, external: true }));
    b.onResolve({ filter: /^@reflink\/reflink$/ }, () => ({ path: 'reflink', namespace: 'vidx-stand-in' }));
    b.onLoad({ filter: /.*/, namespace: 'vidx-stand-in' }, () => ({
      contents: "const no = () => { throw new Error('reflink is not in the vidx binary'); }; export const reflinkFile = no; export const reflinkFileSync = no; export default { reflinkFile: no, reflinkFileSync: no };",
      loader: 'js',
    }));
  },
};

/**
 * Bundles node-llama-cpp into `work` and lists what the binary carries of it; none when the optional
 * dependency is not installed (the binary then answers from the moments, with a notice).
 * @example
 * assets.push(...(await llamaAssets(root, work)));
 */
export async function llamaAssets(root: string, work: string): Promise<AssetSource[]> {
  const pkg = join(root, 'node_modules', 'node-llama-cpp');
  const bins = join(root, 'node_modules', '@node-llama-cpp', 'linux-x64', 'bins', 'linux-x64');
  if (!existsSync(join(pkg, 'package.json')) || !existsSync(bins)) return [];
  const outfile = join(work, 'node-llama-cpp.mjs');
  await build({
    entryPoints: [join(pkg, 'dist', 'index.js')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    // Packages written as CommonJS call require(); an ES module has none of its own.
    banner: { js: "import { createRequire as __vidxCreateRequire } from 'node:module'; const require = __vidxCreateRequire(import.meta.url);" },
    plugins: [leaveOut],
    minify: true,
    legalComments: 'none',
    logLevel: 'error',
  });
  const version = (JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string }).version;
  if (version !== '3.21.1') throw new Error(`node-llama-cpp ${version}: the binary's layout was checked with 3.21.1`);
  const importer = join(work, PACKED_LLAMA_IMPORTER);
  writeFileSync(importer, 'module.exports = (url) => import(url);\n');
  return [
    { path: PACKED_LLAMA_ENTRY, source: outfile, gzip: true, mode: 0o644 },
    { path: PACKED_LLAMA_ENTRY.replace(/[^/]+$/, PACKED_LLAMA_IMPORTER), source: importer, gzip: false, mode: 0o644 },
    ...PACKAGE_FILES.map((f) => ({ path: `${ROOT_DIR}/${f}`, source: join(pkg, f), gzip: false, mode: 0o644 })),
    { path: `${ROOT_DIR}/bins/linux-x64/_nlcBuildMetadata.json`, source: join(bins, '_nlcBuildMetadata.json'), gzip: false, mode: 0o644 },
    ...LIBRARIES.map((f) => ({ path: `${ROOT_DIR}/bins/linux-x64/${f}`, source: join(bins, f), gzip: true, mode: 0o755 })),
  ];
}
