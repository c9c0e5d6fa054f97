import { Problem } from '../services/errors.js';
import { jsonDepth } from '../tools/json-shape.js';
import { msg } from '../messages/index.js';

/** Request JSON never nests deeper than this; metadata has its own, lower limit (METADATA_LIMITS). */
export const MAX_BODY_DEPTH = 64;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Bytes of a request as text, refusing bytes that are not UTF-8 instead of replacing them silently
 * (a title must come back as it was sent, or be refused).
 * @example
 * const text = utf8Text(await c.req.arrayBuffer(), 'body');
 */
export function utf8Text(bytes: ArrayBuffer | Uint8Array, where: string): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new Problem('bad_request', msg('body_not_utf8', { where }), [{ field: where, message: msg('not_utf8') }]);
  }
}

/** In a `u` regex a surrogate pair is one code point, so only a lone surrogate matches. */
const LONE_SURROGATE = /\p{Surrogate}/u;
const LONE_SURROGATE_ALL = /\p{Surrogate}/gu;

/** The path of the first string (value or key) that is not well-formed Unicode (a lone surrogate), or null. */
function illFormedString(value: unknown): string | null {
  const stack: { v: unknown; path: string[] }[] = [{ v: value, path: [] }];
  while (stack.length) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v)) return path.join('.') || '(body)';
    } else if (Array.isArray(v)) {
      v.forEach((child, i) => {
        stack.push({ v: child, path: [...path, String(i)] });
      });
    } else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        if (LONE_SURROGATE.test(k)) return [...path, k.replace(LONE_SURROGATE_ALL, '\ufffd')].join('.');
        stack.push({ v: child, path: [...path, k] });
      }
    }
  }
  return null;
}

/**
 * Parses request JSON under vidx's rules: valid JSON, at most {@link MAX_BODY_DEPTH} levels deep (deeper
 * values would overflow recursive code later), and every string well-formed Unicode (a `\ud800` escape
 * is refused, naming its field, rather than stored as text SQLite cannot hold faithfully).
 * @example
 * const value = parseRequestJson('{"name":"Trips"}', 'body'); // { name: 'Trips' }
 */
export function parseRequestJson(text: string, where: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Problem('bad_request', msg('body_not_json', { where, reason: (err as Error).message }), [{ field: where, message: msg('not_json') }]);
  }
  if (jsonDepth(value, MAX_BODY_DEPTH + 1) > MAX_BODY_DEPTH) {
    throw new Problem('invalid', msg('json_nested_too_deep', { where, max: MAX_BODY_DEPTH }), [{ field: where, message: msg('nested_too_deep', { max: MAX_BODY_DEPTH }) }]);
  }
  const bad = illFormedString(value);
  if (bad) throw new Problem('invalid', msg('lone_surrogate', { field: bad }), [{ field: bad, message: msg('not_well_formed_unicode') }]);
  return value;
}

/**
 * Decodes an `application/x-www-form-urlencoded` body strictly: a percent-encoding of bytes that are not
 * UTF-8 is refused (URLSearchParams would replace them silently).
 * @example
 * formField('body=%7B%7D&x=1', 'body'); // '{}'
 */
export function formField(text: string, name: string): string | undefined {
  for (const pair of text.split('&')) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    const decode = (s: string, what: string): string => {
      try {
        return decodeURIComponent(s.replace(/\+/g, ' '));
      } catch {
        throw new Problem('bad_request', msg('bad_percent_encoding', { what }), [{ field: what, message: msg('not_utf8') }]);
      }
    };
    if (decode(key, 'form field name') === name) return decode(eq < 0 ? '' : pair.slice(eq + 1), name);
  }
  return undefined;
}
