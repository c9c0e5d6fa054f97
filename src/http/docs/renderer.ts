import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The files of Swagger UI (swagger-ui-dist) that /docs serves, by the name it serves them under (with their content type). build-web
 * copies them (with the licence) into dist/web/docs, which the single binary embeds; a checkout without that
 * copy reads them from node_modules.
 * @example
 * RENDERER_FILES['swagger-ui.css']; // 'text/css; charset=utf-8'
 */
export const RENDERER_FILES: Record<string, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/**
 * Copied beside the served files (not served): Swagger UI is Apache-2.0, and its notice travels with it.
 * @example
 * for (const name of RENDERER_LICENCE_FILES) copyFileSync(join(RENDERER_PACKAGE_DIR, name), join(dir, name));
 */
export const RENDERER_LICENCE_FILES = ['LICENSE', 'NOTICE'];

/**
 * swagger-ui-dist in this checkout's node_modules (absent inside the binary, where import.meta.url is the executable).
 * @example
 * rendererFiles([join(webDir, 'docs'), RENDERER_PACKAGE_DIR]);
 */
export const RENDERER_PACKAGE_DIR = fileURLToPath(new URL('../../../node_modules/swagger-ui-dist', import.meta.url));

/**
 * Reads the renderer's files from the first folder that has them, once; later calls answer from memory
 * (about 1.9 MB, read on the first visit to /docs so a start that never shows the docs does not pay for it).
 * @example
 * const files = rendererFiles([join(webDir, 'docs'), RENDERER_PACKAGE_DIR]);
 * const js = await files.get('swagger-ui-bundle.js'); // Buffer, or null when no folder has it
 */
export function rendererFiles(dirs: string[]): { get(name: string): Promise<Buffer | null> } {
  const cache = new Map<string, Promise<Buffer | null>>();
  const load = async (name: string): Promise<Buffer | null> => {
    for (const dir of dirs) {
      try {
        return await readFile(join(dir, name));
      } catch {
        // Not in this folder: try the next.
      }
    }
    return null;
  };
  return {
    get(name) {
      if (!Object.hasOwn(RENDERER_FILES, name)) return Promise.resolve(null);
      let file = cache.get(name);
      if (!file) {
        file = load(name);
        cache.set(name, file);
        // A file not found is looked for again next time (dist/web may be built while the server runs).
        void file.then((f) => f ?? cache.delete(name));
      }
      return file;
    },
  };
}
