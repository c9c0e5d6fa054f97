/**
 * How the typed client reports a refused request: one error class carrying the API's error body
 * (`{detail, code, errors?, request_id?}`, the Error schema), whatever the endpoint. Browser-safe.
 */

/**
 * One field that broke a rule (422 answers list them).
 * @example
 * for (const e of err.errors) console.log(`${e.field}: ${e.message}`);
 */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * The server answered with a status outside 2xx, or a streamed answer failed after it began. `message` is
 * the server's `detail` as it wrote it (in the language the request asked for), so a page can show it as is;
 * `status` and `code` say what kind of refusal it is.
 * @example
 * try {
 *   await vidx.GET('/collections/{collection_id}', { params: { path: { collection_id: 'trips' } } });
 * } catch (err) {
 *   if (err instanceof VidxError && err.status === 404) console.log('no such collection');
 *   else throw err;
 * }
 */
export class VidxError extends Error {
  /** The server's reason (also the message). */
  readonly detail: string;
  /** The fields that broke a rule, on a 422. */
  readonly errors: FieldError[];
  /** The id the server logged the request under, when it said. */
  readonly requestId: string | undefined;

  constructor(readonly status: number, readonly code: string, detail: string, extra: { errors?: FieldError[]; requestId?: string } = {}) {
    super(detail);
    this.name = 'VidxError';
    this.detail = detail;
    this.errors = extra.errors ?? [];
    this.requestId = extra.requestId;
  }
}

/** The longest text of a body that is not the API's error shape (a proxy's HTML page) kept as the detail. */
const MAX_TEXT_DETAIL = 200;

/**
 * The error for a non-2xx answer from its parsed body (the API's JSON error, else whatever text came):
 * `detail` and `code` from the body, else the text, the status text, or `HTTP <status>`; code `error`.
 * @example
 * throw failureOf(response, await response.json().catch(() => null));
 */
export function failureOf(response: Pick<Response, 'status' | 'statusText'>, body: unknown): VidxError {
  const b = body && typeof body === 'object' ? (body as { detail?: unknown; code?: unknown; errors?: unknown; request_id?: unknown }) : {};
  const text = typeof body === 'string' ? body.trim().slice(0, MAX_TEXT_DETAIL) : '';
  const detail = typeof b.detail === 'string' ? b.detail : text || response.statusText || `HTTP ${response.status}`;
  return new VidxError(response.status, typeof b.code === 'string' ? b.code : 'error', detail, {
    errors: Array.isArray(b.errors) ? (b.errors as FieldError[]) : undefined,
    requestId: typeof b.request_id === 'string' ? b.request_id : undefined,
  });
}

/**
 * Why a request never got an answer, from what `fetch` threw: Node's cause code (ECONNREFUSED, ENOTFOUND…),
 * else the cause's or the error's message.
 * @example
 * throw new Error(`cannot reach vidx at ${url} (${networkReason(err)})`);
 */
export function networkReason(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } } | null)?.cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}
