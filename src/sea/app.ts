/**
 * The single binary's application (bundled on its own by scripts/build-binary.ts, unpacked to
 * `<cache>/<build id>/app.cjs` and run by src/sea-main.ts): points the settings and the addon loader at the
 * unpacked copies, then runs the same CLI as `npx vidx`.
 */
import { join } from 'node:path';
import { usePackagedDefaults } from '../config.js';
import { useSqliteNative } from '../store/connection.js';
import { loadNative, setNativeRoot } from './native.js';

/**
 * Runs the CLI with the unpacked files of `dir` as the defaults of the settings that name them (explicit
 * settings still win); threads start from their own bundles there and load the addons from there too.
 * @example
 * process.exitCode = await runBinary('/home/me/.cache/vidx/3fa2c1d0e9b8a7f6');
 */
export async function runBinary(dir: string): Promise<number> {
  setNativeRoot(dir);
  usePackagedDefaults({
    VIDX_OCR_MODELS: join(dir, 'models', 'ocr'),
    VIDX_SILERO_VAD: join(dir, 'models', 'silero_vad_v5.onnx'),
    VIDX_FACE_DETECTOR: join(dir, 'models', 'blazeface', 'face_detection_back_256x256_barracuda.onnx'),
    VIDX_MODELS_MANIFEST: join(dir, 'models', 'manifest.json'),
    VIDX_WEB_DIR: join(dir, 'web'),
    VIDX_PLACES_DATA: join(dir, 'places'),
    VIDX_NATIVE_ROOT: dir,
    VIDX_THREADS_DIR: join(dir, 'threads'),
  });
  useSqliteNative({ nativeBinding: loadNative('native/better_sqlite3.node') as object, vecExtension: join(dir, 'native', 'vec0.so') });
  const { runCli } = await import('../cli/run.js');
  return runCli(process.argv.slice(2));
}
