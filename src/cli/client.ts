/**
 * The CLI's HTTP client for a running vidx: where the server is (`--url`, VIDX_URL, else VIDX_HOST/VIDX_PORT), which key
 * to send (`--key`, VIDX_API_KEY, VIDX_ADMIN_KEY, else `<data dir>/admin.key`), the typed client (src/client) for them,
 * and errors that carry the exit code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createVidxClient, type VidxClient } from '../client/index.js';
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
  constructor(readonly status: number, readonly code: string, readonly detail: string, hint = '') {
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
 * The typed API client for a resolved server and key: an answer the server refused throws ApiError (with a
 * hint on 401 saying where the key came from), a server that cannot be reached throws CliError (exit 3).
 * @example
 * const { collections } = await apiClient(client).GET('/collections');
 */
export function apiClient(client: Client): VidxClient {
  return createVidxClient({
    baseUrl: client.url,
    key: client.key,
    unreachable: (reason) => new CliError(`cannot reach vidx at ${client.url} (${reason}): start it with \`vidx serve\`, or pass --url`, EXIT.UNREACHABLE),
    error(failure) {
      const hint = failure.status !== 401 ? '' : client.key ? `the key came from ${client.keySource}` : 'no key given: pass --key or set VIDX_API_KEY';
      return new ApiError(failure.status, failure.code, failure.detail, hint);
    },
  });
}
