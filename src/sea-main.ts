/**
 * Entry of the single binary (`dist/vidx`, built by scripts/build-binary.ts): unpacks the embedded native
 * libraries and models once per build, points the lookups at them, then runs the same CLI as `npx vidx`.
 * No top-level await, so esbuild can bundle it as CommonJS; only the settings (no native code) load before the
 * unpacking, everything else after it.
 */
import { join } from 'node:path';
import { getAsset, getRawAsset, isSea } from 'node:sea';
import { extractAssets, type BuildInfo } from './sea/extract.js';
import { loadNative, setNativeRoot } from './sea/native.js';

async function main(): Promise<number> {
  if (!isSea()) {
    process.stderr.write('vidx: this bundle runs only inside the single binary (npm run build:binary); use `npx vidx` from a checkout\n');
    return 1;
  }
  const info = JSON.parse(getAsset('build.json', 'utf8')) as BuildInfo;
  const { readUnpackSettings, usePackagedDefaults } = await import('./config.js');
  const unpack = readUnpackSettings();
  const { dir, fallbackReason } = extractAssets(info, (key) => getRawAsset(key) as ArrayBuffer, unpack.env);
  if (fallbackReason && !unpack.silent) {
    process.stderr.write(`vidx: home cache not writable (${fallbackReason}); unpacked to ${dir}\n`);
  }
  setNativeRoot(dir);
  // The unpacked copies are the defaults of the settings that name them; explicit settings still win. Worker
  // threads start from their own bundles in the unpacked folder and load the addons from there too.
  usePackagedDefaults({
    VIDX_OCR_MODELS: join(dir, 'models', 'ocr'),
    VIDX_SILERO_VAD: join(dir, 'models', 'silero_vad_v5.onnx'),
    VIDX_FACE_DETECTOR: join(dir, 'models', 'blazeface', 'face_detection_back_256x256_barracuda.onnx'),
    VIDX_MODELS_MANIFEST: join(dir, 'models', 'manifest.json'),
    VIDX_WEB_DIR: join(dir, 'web'),
    VIDX_PLACES_DATA: join(dir, 'places'),
    VIDX_NATIVE_ROOT: dir,
    VIDX_WORKERS_DIR: join(dir, 'workers'),
  });
  const { useSqliteNative } = await import('./store/connection.js');
  useSqliteNative({ nativeBinding: loadNative('native/better_sqlite3.node') as object, vecExtension: join(dir, 'native', 'vec0.so') });
  const { runCli } = await import('./cli/run.js');
  return runCli(process.argv.slice(2));
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
