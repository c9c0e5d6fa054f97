/**
 * A vidx on 127.0.0.1 with a fresh data dir for the quality measures: requests with the admin key,
 * tasks run to completion, and the store for reading the text index.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { startVidx, type Vidx } from '../../src/server.js';

const KEY = 'vidx_quality_admin_key_0123456789';

/** What a quality measure drives. */
export interface QualityServer {
  vidx: Vidx;
  // The body is `unknown` JSON; measures read the fields they need and a wrong guess shows in the figures.
  // biome-ignore lint/suspicious/noExplicitAny: see the line above.
  call(method: string, path: string, body?: { form?: unknown; json?: unknown }): Promise<{ status: number; body: any }>;
  /** Submits to `/analyze` or `/index` and waits for the task; throws when it fails. */
  // biome-ignore lint/suspicious/noExplicitAny: the task's result, read like `call`'s body.
  task(endpoint: '/analyze' | '/index', form: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}

/**
 * Starts vidx over `mediaRoot` with no pulled models (OCR and VAD only, as in the tests).
 * @example
 * const h = await startQualityServer(media.dir);
 * const result = await h.task('/analyze', { video: { path } });
 */
export async function startQualityServer(mediaRoot: string): Promise<QualityServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vidx-quality-'));
  const config = loadConfig({
    VIDX_HOST: '127.0.0.1', VIDX_PORT: '0', VIDX_DATA_DIR: dataDir, VIDX_LOG: 'silent', VIDX_MEDIA_ROOTS: mediaRoot, VIDX_ADMIN_KEY: KEY,
  });
  const vidx = await startVidx(config, { queryEmbedder: null });
  const call: QualityServer['call'] = async (method, path, body = {}) => {
    const headers: Record<string, string> = { 'x-api-key': KEY };
    if (body.json !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${vidx.url}${path}`, {
      method,
      headers,
      body: body.json !== undefined ? JSON.stringify(body.json) : body.form !== undefined ? new URLSearchParams({ body: JSON.stringify(body.form) }) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  return {
    vidx,
    call,
    async task(endpoint, form) {
      const r = await call('POST', endpoint, { form });
      if (r.status !== 202) throw new Error(`${endpoint}: ${r.status} ${JSON.stringify(r.body)}`);
      for (;;) {
        const t = (await call('GET', `/tasks/${r.body.task_id}`)).body;
        if (t.status === 'completed') return t.result;
        if (t.status === 'failed') throw new Error(`${endpoint} failed: ${t.error?.message}`);
        await new Promise((res) => setTimeout(res, 100));
      }
    },
    async close() {
      await vidx.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
