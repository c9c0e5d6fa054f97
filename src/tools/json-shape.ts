import { type Message, msg } from '../messages/index.js';

/** Limits on free-form JSON a caller stores (metadata): how deep it nests and how large it is. */
export interface JsonLimits {
  maxDepth: number;
  maxBytes: number;
}

/** Metadata limits: deep enough for any real record, shallow enough that no recursive walk overflows. */
export const METADATA_LIMITS: JsonLimits = { maxDepth: 32, maxBytes: 64 * 1024 };

/**
 * How deeply a parsed JSON value nests (a scalar is 0, `{}` and `[]` are 1), counted without recursion so
 * a hostile value cannot overflow the stack here. Stops counting at `stopAt` (the caller's limit + 1).
 * @example
 * jsonDepth({ a: [1, { b: 2 }] }); // 3
 */
export function jsonDepth(value: unknown, stopAt = Infinity): number {
  let deepest = 0;
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  while (stack.length) {
    const { v, depth } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const here = depth + 1;
    if (here > deepest) deepest = here;
    if (deepest >= stopAt) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push({ v: child, depth: here });
    }
  }
  return deepest;
}

/**
 * Why a free-form JSON value breaks the limits, or null when it keeps them. The size is checked only
 * after the depth, so serialising it is safe.
 * @example
 * jsonLimitProblem(meta, METADATA_LIMITS); // { key: 'nested_too_deep', params: { max: 32 } }
 */
export function jsonLimitProblem(value: unknown, limits: JsonLimits): Message | null {
  if (jsonDepth(value, limits.maxDepth + 1) > limits.maxDepth) return msg('nested_too_deep', { max: limits.maxDepth });
  const bytes = Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
  if (bytes > limits.maxBytes) return msg('json_too_large', { max_kib: limits.maxBytes / 1024, kib: Math.ceil(bytes / 1024) });
  return null;
}
