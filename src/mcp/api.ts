/**
 * The one door the MCP tools use into vidx: its HTTP API, through the typed client (src/client). Each
 * transport supplies how a request is sent (`vidx mcp` over the network to `--url`, `/mcp` in-process
 * through the Hono app's `fetch`) and which key it carries; validation, ownership rules and error wording
 * are then exactly the HTTP API's.
 */
import { createVidxClient, type VidxClient, type VidxClientOptions } from '../client/index.js';

/**
 * The HTTP API refused a request; the message is its `detail` with the status and code, so an agent
 * reads the same reason a script would.
 */
export class ApiFailure extends Error {
  constructor(readonly status: number, readonly code: string, detail: string) {
    super(`${detail} (HTTP ${status} ${code})`);
    this.name = 'ApiFailure';
  }
}

/** What the tools call the API with. */
export type VidxApi = VidxClient;

/**
 * The tools' API over one way of sending requests; a refusal is thrown as an ApiFailure.
 * @example
 * const api = vidxApi({ baseUrl: 'http://127.0.0.1:8484', key });
 * const { collections } = await api.GET('/collections');
 */
export function vidxApi(options: Omit<VidxClientOptions, 'error'>): VidxApi {
  return createVidxClient({ ...options, error: (failure) => new ApiFailure(failure.status, failure.code, failure.detail) });
}
