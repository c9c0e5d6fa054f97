/**
 * The one door the MCP tools use into vidx: its HTTP API. Each transport supplies how a request is sent
 * (`vidx mcp` over the network to `--url`, `/mcp` in-process through the Hono app) and which key it
 * carries; validation, ownership rules and error wording are then exactly the HTTP API's.
 */

/** Sends one request (a path such as `/search`, already carrying the caller's key) and returns the answer. */
export type ApiSend = (path: string, init: RequestInit) => Promise<Response>;

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

/** Query parameters; undefined ones are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

/** The calls the tools make. Answers are parsed JSON; each tool reads the fields the API documents. */
export interface VidxApi {
  get(path: string, query?: Query): Promise<unknown>;
  post(path: string, body: unknown): Promise<unknown>;
  /** A streamed endpoint (`/collection_suggestions`, `/search_clusters`): every element, in order. */
  stream(path: string, body: unknown): Promise<unknown[]>;
}

function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

async function failure(res: Response): Promise<ApiFailure> {
  const text = await res.text();
  let body: { detail?: unknown; code?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // Not the API's JSON error shape (a proxy in between?): the text is the reason.
  }
  const detail = typeof body.detail === 'string' ? body.detail : text.trim() || res.statusText || 'request failed';
  return new ApiFailure(res.status, typeof body.code === 'string' ? body.code : 'error', detail);
}

/**
 * The tools' API over one way of sending requests.
 * @example
 * const api = vidxApi((path, init) => fetch(`http://127.0.0.1:8484${path}`, { ...init, headers: { ...init.headers, 'x-api-key': key } }));
 * const { collections } = (await api.get('/collections')) as { collections: unknown[] };
 */
export function vidxApi(send: ApiSend): VidxApi {
  const json = async (res: Response): Promise<unknown> => {
    if (!res.ok) throw await failure(res);
    const text = await res.text();
    return text ? (JSON.parse(text) as unknown) : null;
  };
  const post = (path: string, body: unknown, accept = 'application/json') =>
    send(path, { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify(body) });
  return {
    get: async (path, query) => json(await send(withQuery(path, query), { method: 'GET', headers: { accept: 'application/json' } })),
    post: async (path, body) => json(await post(path, body)),
    async stream(path, body) {
      const res = await post(path, body, 'application/x-ndjson');
      if (!res.ok) throw await failure(res);
      const elements = (await res.text())
        .split('\n')
        .filter((line) => line.trim())
        .map((line) => JSON.parse(line) as unknown);
      // A failure after the stream started arrives as its last element.
      const last = elements.at(-1) as { error?: { detail?: string; code?: string } } | undefined;
      if (last?.error) throw new ApiFailure(res.status, last.error.code ?? 'stream_failed', last.error.detail ?? 'the stream failed');
      return elements;
    },
  };
}
