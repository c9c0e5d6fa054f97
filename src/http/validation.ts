import type { z } from '@hono/zod-openapi';
import { Problem } from '../services/errors.js';

/**
 * Turns zod issues into one 422 problem that names each field and the rule it broke.
 * @example
 * if (!r.success) throw validationProblem(r.error.issues);
 */
export function validationProblem(issues: readonly z.core.$ZodIssue[], prefix: string[] = []): Problem {
  const fields = issues.flatMap((i) => {
    const path = [...prefix, ...i.path.map(String)];
    // An unknown key is reported on its own name, so the caller sees which field to remove.
    if (i.code === 'unrecognized_keys') return i.keys.map((k) => ({ field: [...path, k].join('.'), message: 'unknown field' }));
    return [{ field: path.join('.') || '(body)', message: i.message }];
  });
  const detail = fields.map((f) => `${f.field}: ${f.message}`).join('; ');
  return new Problem('invalid', detail, fields);
}
