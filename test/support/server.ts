import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';
import { startVidx, type StartOptions, type Vidx } from '../../src/server.js';
import { compiledSearchThreadEntry, compiledThreadEntry } from './compiled-thread.js';

/** A vidx on 127.0.0.1 with a fresh data dir, and a small client for it. */
export interface TestServer {
  vidx: Vidx;
  /** The server's address (without a socket, `http://127.0.0.1`: requests go through `call`). */
  url: string;
  dataDir: string;
  /** The media root (VIDX_MEDIA_ROOTS) unless the test sets its own: a temp folder beside the data dir. */
  mediaDir: string;
  adminKey: string;
  config: Config;
  /** Sends a request; `json` sets a JSON body, `form` the SPEC's url-encoded `body` field. */
  // The body is `any` on purpose: tests assert on its fields directly and a wrong guess fails the assertion.
  // `any` on purpose: tests assert on body fields directly, and a wrong guess fails the assertion.
  call(method: string, path: string, opts?: CallOptions): Promise<{ status: number; body: any; headers: Headers }>;
  /** A new key with the given role, created through the API. */
  newKey(role?: 'user' | 'admin'): Promise<string>;
  close(opts?: { keepData?: boolean }): Promise<void>;
}

export interface CallOptions {
  key?: string | null;
  json?: unknown;
  form?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
}

export const ADMIN_KEY = 'vidx_test_admin_key_0123456789';

/**
 * The env that runs a test server's analyses in a thread, as production does (from lib/'s compiled
 * modules when they match the sources). The default of every test server; a test that depends on it says so
 * with this, so a run with VIDX_TEST_THREADS=0 keeps it on threads.
 * @example
 * const s = await startTestServer({ env: { ...ON_THREADS, VIDX_MEDIA_ROOTS: media } });
 */
export const ON_THREADS = { VIDX_ANALYSIS_THREADS: '1' } as const;

/**
 * Starts vidx for a test; pass `dataDir` to reopen an earlier one.
 * @example
 * const s = await startTestServer();
 * const { status } = await s.call('GET', '/collections');
 */
export async function startTestServer(
  opts: Omit<StartOptions, 'threadEntry'> & { dataDir?: string; env?: Record<string, string>; noAdminKey?: boolean; threadEntry?: URL | null } = {},
): Promise<TestServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'vidx-test-'));
  // vidx never reads media from its own data dir, so the media root is a folder of its own.
  const mediaDir = `${dataDir}-media`;
  mkdirSync(mediaDir, { recursive: true });
  const env: Record<string, string> = {
    VIDX_HOST: '127.0.0.1',
    VIDX_PORT: '0',
    VIDX_DATA_DIR: dataDir,
    VIDX_LOG: 'silent',
    VIDX_MEDIA_ROOTS: mediaDir,
    // Analyses run in a thread, as production does (compiled from lib/ when it matches the sources): the whole
    // suite took 476 s so against 445 s inline (2026-11-27, quiet). VIDX_TEST_THREADS=0 runs them inline.
    VIDX_ANALYSIS_THREADS: process.env.VIDX_TEST_THREADS === '0' ? '0' : '1',
    // Searches on the request thread: a search thread takes most of a second of CPU to start, too much for every
    // test server. The tests of search threads (and a few search suites) ask for them.
    VIDX_SEARCH_THREADS: '0',
    ...(opts.noAdminKey ? {} : { VIDX_ADMIN_KEY: ADMIN_KEY }),
    ...opts.env,
  };
  const config = loadConfig(env);
  // Each server has its own pool and threads, started with this server's settings: nothing is shared across tests.
  // `threadEntry: null` starts the threads from the TypeScript sources, as a dev server does.
  const { threadEntry: asked, ...start } = opts;
  const threadEntry = asked === null || !config.analysisThreads ? undefined : (asked ?? compiledThreadEntry());
  const searchThreadEntry = asked === null || config.searchThreads === 0 ? undefined : compiledSearchThreadEntry();
  const vidx = await startVidx(config, { ...start, ...(threadEntry ? { threadEntry } : {}), ...(searchThreadEntry ? { searchThreadEntry } : {}) });
  const call: TestServer['call'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    const key = o.key === undefined ? ADMIN_KEY : o.key;
    if (key !== null) headers['x-api-key'] = key;
    let body: BodyInit | undefined = o.body;
    if (o.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = typeof o.json === 'string' ? o.json : JSON.stringify(o.json);
    } else if (o.form !== undefined) {
      body = new URLSearchParams({ body: typeof o.form === 'string' ? o.form : JSON.stringify(o.form) });
    }
    // Without a socket the request goes straight to the app, through every middleware the socket's would.
    const res = opts.listen === false ? await vidx.request(new Request(`${vidx.url}${path}`, { method, headers, body })) : await fetch(`${vidx.url}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON (HTML docs page, files): the text is the body.
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  return {
    vidx,
    url: vidx.url,
    dataDir,
    mediaDir,
    adminKey: ADMIN_KEY,
    config,
    call,
    async newKey(role = 'user') {
      const r = await call('POST', '/keys', { json: { name: `test-${role}`, role } });
      if (r.status !== 201) throw new Error(`key create failed: ${JSON.stringify(r.body)}`);
      return r.body.key as string;
    },
    async close(o = {}) {
      await vidx.close();
      if (!o.keepData) {
        rmSync(dataDir, { recursive: true, force: true });
        rmSync(mediaDir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Polls until `check` returns a value that is not undefined, or fails after `ms`.
 * @example
 * await waitFor(async () => (await s.call('GET', `/tasks/${id}`)).body.status === 'completed' || undefined);
 */
export async function waitFor<T>(check: () => Promise<T | undefined> | T | undefined, ms = 10_000, what = 'condition'): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * The task once it completed or failed (its view from GET /tasks/{id}); fails after `ms`.
 * @example
 * const task = await settledTask(s, r.body.task_id, 120_000);
 * expect(task.status, task.error?.message).toBe('completed');
 */
export function settledTask(s: TestServer, id: string, ms = 120_000): Promise<{ status: string; error?: { message: string; code: string; retryable: boolean } | null; [k: string]: unknown }> {
  return waitFor(async () => {
    const t = (await s.call('GET', `/tasks/${id}`)).body;
    return t.status === 'completed' || t.status === 'failed' ? t : undefined;
  }, ms, `task ${id}`);
}
