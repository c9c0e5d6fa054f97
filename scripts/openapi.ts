/**
 * `tsx scripts/openapi.ts [file]`: writes the API document a running vidx serves at `GET /openapi.json`
 * (default `dist/openapi.json`), for `npm run lint:openapi` and for client generators. It starts a real vidx
 * on 127.0.0.1, port 0, with an empty temp data dir (nothing leaves the machine), reads the document over
 * HTTP and stops it again, so the file is exactly what a client gets, not a copy built some other way.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.js';
import { startVidx } from '../src/server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The server URL the document names when it is written to a file: the default local address, not the temp port. */
export const DEFAULT_SERVER = 'http://127.0.0.1:8484';

/**
 * The document `GET /openapi.json` answers, from a throwaway vidx on 127.0.0.1.
 * @example
 * const doc = await dumpOpenApi();
 * Object.keys(doc.paths).length; // 40-odd
 */
export async function dumpOpenApi(): Promise<{ paths: Record<string, unknown>; [k: string]: unknown }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vidx-openapi-'));
  const mediaDir = `${dataDir}-media`;
  mkdirSync(mediaDir);
  try {
    const config = loadConfig({
      VIDX_HOST: '127.0.0.1', VIDX_PORT: '0', VIDX_DATA_DIR: dataDir, VIDX_MEDIA_ROOTS: mediaDir, VIDX_LOG: 'silent',
      // The servers entry is the URL links point at: the default address, so the file does not name a temp port.
      VIDX_PUBLIC_URL: DEFAULT_SERVER,
    });
    const vidx = await startVidx(config, { queryEmbedder: null });
    try {
      const port = new URL(vidx.url).port;
      const res = await fetch(`http://127.0.0.1:${port}/openapi.json`);
      if (!res.ok) throw new Error(`GET /openapi.json answered ${res.status}`);
      return (await res.json()) as { paths: Record<string, unknown> };
    } finally {
      await vidx.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(mediaDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = resolve(process.argv[2] ?? join(ROOT, 'dist', 'openapi.json'));
  const doc = await dumpOpenApi();
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
  process.stderr.write(`openapi: ${Object.keys(doc.paths).length} paths written to ${out}\n`);
}
