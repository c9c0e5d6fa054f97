import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { render } from '../messages/index.js';
import { type FieldProblem, Problem, type ProblemKind, TooManyRequests } from '../services/errors.js';
import { germanIssue, prefersGerman } from './german.js';
import { ValidationProblem } from './validation.js';

const STATUS: Record<ProblemKind, ContentfulStatusCode> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported: 415,
  invalid: 422,
  too_many: 429,
  not_implemented: 501,
};

const CODE: Record<ProblemKind, string> = {
  bad_request: 'bad_request',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  not_found: 'not_found',
  conflict: 'conflict',
  too_large: 'payload_too_large',
  unsupported: 'unsupported_media_type',
  invalid: 'validation_error',
  too_many: 'too_many_requests',
  not_implemented: 'not_implemented',
};

/** The challenge of every 401: keys are Bearer tokens of the realm vidx (RFC 6750; `x-api-key` works the same). */
const AUTH_CHALLENGE = 'Bearer realm="vidx"';

type Said = { detail: string; fields: { field: string; message: string }[] };

/** A problem's detail and field messages in English: the texts it was made with. */
function inEnglish(err: Problem): Said {
  return { detail: err.message, fields: err.fields.map((f) => ({ field: f.field, message: f.message })) };
}

/**
 * A problem's detail and field messages in German, from the German table by message key (zod's own
 * wording through its German locale); a text given without a key stays English.
 */
function inGerman(err: Problem): Said {
  const field = (f: FieldProblem, i: number) => {
    const issue = err instanceof ValidationProblem ? err.issues[i] : null;
    return issue ? germanIssue(issue) : f.text ? render(f.text, 'de') : f.message;
  };
  const fields = err.fields.map((f, i) => ({ field: f.field, message: field(f, i) }));
  // A validation problem's detail is its fields, so it is said from them.
  if (err instanceof ValidationProblem) return { detail: fields.map((f) => `${f.field}: ${f.message}`).join('; '), fields };
  return { detail: err.text ? render(err.text, 'de') : err.message, fields };
}

/**
 * Whether an error is the client going away while its body was read (Node's `aborted`, code ECONNRESET): the
 * client's doing, not a fault of the server, so no stack is logged for it.
 * @example
 * if (isClientAbort(err)) throw err; // leave it to errorResponse
 */
export function isClientAbort(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; cause?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  return e.code === 'ECONNRESET' || (e.cause !== undefined && e.cause !== err && isClientAbort(e.cause));
}

/**
 * The one error handler: a Problem becomes its status and `{detail, code, errors?, request_id}` (in German
 * when the request's Accept-Language prefers it);
 * Hono's own exceptions keep their status; a body the client broke off is a 400 `request_aborted` with no stack
 * logged; anything else is a logged 500 with no internals shown.
 * @example
 * app.onError(errorResponse(log));
 */
export function errorResponse(log: (msg: string, fields: Record<string, unknown>) => void) {
  return (err: Error, c: Context): Response => {
    const request_id = c.get('requestId') as string | undefined;
    if (err instanceof Problem) {
      const { detail, fields } = prefersGerman(c.req.header('accept-language')) ? inGerman(err) : inEnglish(err);
      const body = { detail, code: err.code ?? CODE[err.kind], ...(fields.length ? { errors: fields } : {}), request_id };
      // The rest of an oversized body is never read, so the connection cannot be reused: say so.
      if (err.kind === 'too_large') c.header('connection', 'close');
      // RFC 9110 asks a 401 to name how to authenticate; the key goes as a Bearer token (or x-api-key).
      if (err.kind === 'unauthorized') c.header('www-authenticate', AUTH_CHALLENGE);
      if (err instanceof TooManyRequests) c.header('retry-after', String(err.retryAfterSeconds));
      return c.json(body, STATUS[err.kind]);
    }
    if (err instanceof HTTPException) {
      const status = err.status;
      const detail = status === 400 && /JSON/i.test(err.message) ? `body: not valid JSON (${err.message})` : err.message || 'bad request';
      const code = status === 415 ? 'unsupported_media_type' : status === 413 ? 'payload_too_large' : status === 404 ? 'not_found' : 'bad_request';
      return c.json({ detail, code, request_id }, status as ContentfulStatusCode);
    }
    // Nobody reads this answer; the request log's line (with `aborted: true`) is all that is said.
    if (isClientAbort(err)) return c.json({ detail: 'the request body ended early: the client closed the connection', code: 'request_aborted', request_id }, 400);
    log('unhandled error', { request_id, error: err.message, stack: err.stack });
    return c.json({ detail: 'internal error; the server log has the details under this request_id', code: 'internal_error', request_id }, 500);
  };
}
