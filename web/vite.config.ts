import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The web page: Preact with Vite, built into dist/web (served by vidx at `/`, embedded in dist/vidx).
 * No plugins: Vite's own JSX transform (oxc) with Preact's automatic runtime.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // No inline polyfill: the page runs under a CSP without 'unsafe-inline'.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});
