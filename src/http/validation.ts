import type { z } from '@hono/zod-openapi';
import { english, type Message, msg } from '../messages/index.js';
import { type FieldInput, Problem } from '../services/errors.js';

/** A 422 from a schema: the fields with zod's issues kept, so the error handler can say them in German. */
export class ValidationProblem extends Problem {
  constructor(
    message: Message,
    fields: FieldInput[],
    /** The zod issue behind each field (null for an unknown key, which vidx words itself). */
    readonly issues: (z.core.$ZodIssue | null)[],
  ) {
    super('invalid', message, fields);
  }
}

/**
 * Turns zod issues into one 422 problem that names each field and the rule it broke.
 * @example
 * if (!r.success) throw validationProblem(r.error.issues);
 */
export function validationProblem(issues: readonly z.core.$ZodIssue[], prefix: string[] = []): Problem {
  const entries = issues.flatMap((i): { field: string; message: string | Message; issue: z.core.$ZodIssue | null }[] => {
    const path = [...prefix, ...i.path.map(String)];
    // An unknown key is reported on its own name, so the caller sees which field to remove.
    if (i.code === 'unrecognized_keys') return i.keys.map((k) => ({ field: [...path, k].join('.'), message: msg('unknown_field'), issue: null }));
    return [{ field: path.join('.') || '(body)', message: i.message, issue: i }];
  });
  const fields = entries.map(({ field, message }) => ({ field, message: typeof message === 'string' ? msg('as_given', { text: message }) : message }));
  const detail = fields.map((f) => `${f.field}: ${english(f.message)}`).join('; ');
  return new ValidationProblem(msg('as_given', { text: detail }), fields, entries.map((e) => e.issue));
}
