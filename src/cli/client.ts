/**
 * The CLI's HTTP client for a running vidx: where the server is (`--url`, VIDX_URL, else VIDX_HOST/VIDX_PORT), which key
 * to send (`--key`, VIDX_API_KEY, VIDX_ADMIN_KEY, else `<data dir>/admin.key`), and errors that carry the exit code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientSettings } from '../config.js';

/**
 * What a CLI exit code means; docs/cli.md lists the same.
 * @example
 * return EXIT.UNREACHABLE;
 */
export const EXIT = { OK: 0, FAILED: 1, USAGE: 2, UNREACHABLE: 3, AUTH: 4 } as const;

/** A failure with the exit code it should end the CLI with. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode: number) {
    super(message);
    this.name = 'CliError';
  }
}

/**
 * The server answered with an error (`{detail, code}` body); the exit code follows the status:
 * 401/403 → 4, 400/413/415/422 (the request was wrong) → 2, anything else → 1.
 * @example
 * if (err instanceof ApiError && err.status === 404) …
 */
export class ApiError extends CliError {
  constructor(readonly status: number, readonly code: string, detail: string, hint = '') {
    super(`${detail} (HTTP ${status} ${code})${hint ? `; ${hint}` : ''}`, status === 401 || status === 403 ? EXIT.AUTH : [400, 413, 415, 422].includes(status) ? EXIT.USAGE : EXIT.FAILED);
    this.name = 'ApiError';
  }
}

/** Where the server is and how to authenticate. */
export interface Client {
  url: string;
  key: string | undefined;
  /** Where the key came from, for messages about a refused key. */
  keySource: string;
}

/** Request details: a JSON body, a multipart form, or query parameters. */
export interface RequestOptions {
  json?: unknown;
  form?: FormData;
  query?: Record<string, string | number | boolean | undefined>;
}

/**
 * Resolves the server URL and the API key from flags and the client settings (src/config.ts).
 * @example
 * const client = resolveClient({ url: values.url, key: values.key }, readClientSettings());
 */
export function resolveClient(flags: { url?: string; key?: string }, settings: ClientSettings): Client {
  const url = (flags.url || settings.url).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/i.test(url)) throw new CliError(`--url (or VIDX_URL) must be an http(s) URL like http://127.0.0.1:8484, got "${url}"`, EXIT.USAGE);
  if (flags.key) return { url, key: flags.key, keySource: '--key' };
  if (settings.apiKey) return { url, key: settings.apiKey, keySource: 'VIDX_API_KEY' };
  if (settings.adminKey) return { url, key: settings.adminKey, keySource: 'VIDX_ADMIN_KEY' };
  if (settings.dataDir) {
    const file = join(settings.dataDir, 'admin.key');
    try {
      return { url, key: readFileSync(file, 'utf8').trim(), keySource: file };
    } catch {
      // Not readable (another user's server, or none yet): go without and let the server say 401.
    }
  }
  return { url, key: undefined, keySource: 'none' };
}

/**
 * Sends one request and returns the parsed JSON answer; throws CliError (unreachable, exit 3) or ApiError.
 * @example
 * const { collections } = await request(client, 'GET', '/collections');
 */
// `any` on purpose: each command reads the fields it prints from the documented response shapes.
export async function request(client: Client, method: string, path: string, opts: RequestOptions = {}): Promise<any> {
  const url = new URL(client.url + path);
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = {};
  if (client.key) headers['x-api-key'] = client.key;
  let body: BodyInit | undefined;
  if (opts.form) body = opts.form;
  else if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  }
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new CliError(
      `cannot reach vidx at ${client.url} (${cause?.code ?? cause?.message ?? (err as Error).message}): start it with \`vidx serve\`, or pass --url`,
      EXIT.UNREACHABLE,
    );
  }
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  if (!res.ok) {
    const p = (parsed ?? {}) as { detail?: string; code?: string; errors?: Array<{ field: string; message: string }> };
    const detail = p.detail ?? (typeof parsed === 'string' && parsed ? parsed : res.statusText);
    const hint = res.status !== 401 ? '' : client.key ? `the key came from ${client.keySource}` : 'no key given: pass --key or set VIDX_API_KEY';
    throw new ApiError(res.status, p.code ?? 'error', detail, hint);
  }
  return parsed;
}
