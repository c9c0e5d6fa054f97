/**
 * Native addons of the single binary, loaded from the folder `extractAssets` filled. The bundler replaces each
 * `require('….node')` of better-sqlite3, onnxruntime-node and sharp with a call to {@link loadNative}, since
 * the binary's own `require` can load built-in modules only.
 */
import { constants } from 'node:os';
import { join } from 'node:path';

let root: string | undefined;
const loaded = new Map<string, unknown>();

/**
 * Sets the folder the addons were extracted to; call before anything loads one.
 * @example
 * setNativeRoot(extracted.dir);
 */
export function setNativeRoot(dir: string): void {
  root = dir;
}

/**
 * The folder the single binary unpacked its files to; undefined when running from a checkout.
 * @example
 * if (nativeRoot()) console.log('running as the single binary');
 */
export function nativeRoot(): string | undefined {
  return root;
}

/**
 * The exports of the addon at `path` (relative to the extraction folder), loaded once with `process.dlopen`.
 * Libraries it links to are found through its RPATH ($ORIGIN), which the extraction layout keeps.
 * @example
 * const ort = loadNative('native/onnxruntime/onnxruntime_binding.node');
 */
export function loadNative(path: string): unknown {
  if (!root) throw new Error(`vidx: native part ${path} requested before the binary unpacked its files`);
  let exports = loaded.get(path);
  if (exports === undefined) {
    const mod = { exports: {} as unknown };
    process.dlopen(mod, join(root, path), constants.dlopen.RTLD_NOW);
    exports = mod.exports;
    loaded.set(path, exports);
  }
  return exports;
}
