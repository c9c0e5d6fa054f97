/**
 * `tsx scripts/openapi.ts [file]`: writes the API document a running vidx serves at `GET /openapi.json`
 * (default `dist/openapi.json`), for `npm run lint:openapi` and for client generators. It starts a real vidx
 * on 127.0.0.1, port 0, with an empty temp data dir (nothing leaves the machine), reads the document over
 * HTTP (as if at the default address, which the document then names as its server) and stops it again,
 * so the file is what a client of a default install gets, not a copy built some other way.
 */
import { get } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.js';
import { startVidx } from '../src/server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The server URL the document names when it is written to a file: the default local address, not the temp port.
 * @example
 * doc.servers[0].url === DEFAULT_SERVER; // in dist/openapi.json
 */
export const DEFAULT_SERVER = 'http://127.0.0.1:8484';

function getJson(url: string, host: string): Promise<{ paths: Record<string, unknown> }> {
  return new Promise((resolvePromise, reject) => {
    get(url, { headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`GET ${url} answered ${res.statusCode}`));
        else resolvePromise(JSON.parse(Buffer.concat(chunks).toString('utf8')) as { paths: Record<string, unknown> });
      });
      res.on('error', reject);
    }).on('error', reject);
  });
}

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
    });
    const vidx = await startVidx(config, { queryEmbedder: null });
    try {
      // The document names the address it was fetched from as its server: asked as the default address,
      // the file names that rather than this throwaway port (fetch() would not send another Host).
      return await getJson(`${vidx.url}/openapi.json`, new URL(DEFAULT_SERVER).host);
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
