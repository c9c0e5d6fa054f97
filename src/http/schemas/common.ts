import { z } from '@hono/zod-openapi';
import { jsonLimitProblem, METADATA_LIMITS } from '../../tools/json-shape.js';
import { customIssue, zodText } from '../zod-messages.js';
import { LANGS } from '../../messages/index.js';

const ID_PATTERN = /^[A-Za-z0-9_-]+$/;

/** collection_id: 1..100 characters of letters, digits, `_` and `-` (SPEC 8). */
export const CollectionId = z.string().min(1).max(100).regex(ID_PATTERN, zodText('must_match', { pattern: ID_PATTERN.source }));

/** media_id: 1..36 characters of letters, digits, `_` and `-` (SPEC 8). */
export const MediaId = z.string().min(1).max(36).regex(ID_PATTERN, zodText('must_match', { pattern: ID_PATTERN.source }));

/** A URI of 1..2083 characters; only http and https are accepted where vidx will connect to it. */
export const HttpUrl = z
  .string()
  .min(1)
  .max(2083)
  .refine((s) => {
    try {
      const u = new URL(s);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, zodText('absolute_http_url'));

/** additional_metadata (SPEC 2.2): a free-form object, at most 32 levels deep and 64 KiB as JSON. */
export const Metadata = z
  .record(z.string(), z.unknown())
  .superRefine((v, ctx) => {
    const problem = jsonLimitProblem(v, METADATA_LIMITS);
    if (problem) ctx.addIssue(customIssue(problem));
  })
  .openapi({ description: `Free-form metadata: at most ${METADATA_LIMITS.maxDepth} levels deep and ${METADATA_LIMITS.maxBytes / 1024} KiB as JSON` });

/** en or de (SPEC 8). */
export const Language = z.enum(LANGS);

/**
 * A boolean query parameter: true/false/1/0 (any case); anything else is a validation error.
 * @example
 * z.object({ public: queryBool() })
 */
export function queryBool() {
  return z
    .enum(['true', 'false', '1', '0', 'TRUE', 'FALSE', 'True', 'False'])
    .optional()
    .transform((v) => v !== undefined && ['true', '1'].includes(v.toLowerCase()))
    .openapi({ type: 'boolean', default: false });
}

/** The one error body of every 4xx and 5xx. */
export const ErrorBody = z
  .object({
    detail: z.string().openapi({ example: 'collection_id: must match ^[A-Za-z0-9_-]+$' }),
    code: z.string().openapi({ example: 'validation_error' }),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    request_id: z.string().optional(),
  })
  .openapi('Error');

const errorContent = { 'application/json': { schema: ErrorBody } };

/**
 * Response entries for the error statuses a route can answer.
 * @example
 * responses: { 200: ok, ...errors(404, 422) }
 */
export function errors(...statuses: number[]) {
  const text: Record<number, string> = {
    400: 'Malformed request (for example a body that is not JSON)',
    401: 'Missing or unknown x-api-key',
    403: 'The key may not do this',
    404: 'Not found, or not visible to this key',
    409: 'Conflicts with the current state',
    413: 'Body or upload larger than the limit',
    415: 'Unsupported content type',
    422: 'A field broke a rule; `errors` names each field',
    429: 'Too many requests of this key at once; `Retry-After` says when to ask again',
  };
  // Every 401 names how to authenticate (src/http/errors.ts sets it).
  const challenge = { 'WWW-Authenticate': { description: 'Bearer realm="vidx": send the key as a Bearer token (or in x-api-key)', schema: { type: 'string' as const } } };
  const retry = { 'Retry-After': { description: 'Seconds to wait before asking again', schema: { type: 'integer' as const } } };
  return Object.fromEntries(statuses.map((s) => [s, { description: text[s] ?? 'Error', content: errorContent, ...(s === 401 ? { headers: challenge } : s === 429 ? { headers: retry } : {}) }]));
}

/**
 * A JSON response entry for a route's `responses`.
 * @example
 * responses: { 200: jsonResponse(Collection, 'The collection') }
 */
export function jsonResponse(schema: z.ZodType, description: string) {
  return { description, content: { 'application/json': { schema } } };
}

/** The key header, declared once for the OpenAPI document. */
export const SECURITY = [{ ApiKey: [] as string[] }];

/**
 * Routes served without a key (health, this document, /docs, signed file links, the web page): no security requirement.
 * @example
 * createRoute({ method: 'get', path: '/health', operationId: 'getHealth', security: PUBLIC, responses })
 */
export const PUBLIC: Record<string, string[]>[] = [];
