import { english, type Message, msg, type Noun } from '../messages/index.js';

/** Why a request could not be served, in words the HTTP layer maps to a status code. */
export type ProblemKind = 'bad_request' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'too_large' | 'unsupported' | 'invalid' | 'not_implemented';

/**
 * One field that failed a rule: a dotted path such as `video.media_id` and the rule it broke, in English
 * (`message`) and, where vidx wrote it from its tables, as a message key with parameters (`text`).
 */
export interface FieldProblem {
  field: string;
  message: string;
  text?: Message;
}

/** A field problem as a throw site gives it: the rule as English text or as a message of the tables. */
export interface FieldInput {
  field: string;
  message: string | Message;
}

/**
 * An expected failure with a message meant for the caller. Anything else that is thrown is a bug. A message
 * given as a key with parameters (`msg(…)`) can be said in every language of src/messages; `message` is its
 * English text. A plain string stays English.
 * @example
 * throw new Problem('conflict', msg('collection_exists', { id }));
 */
export class Problem extends Error {
  /** The message as a key and parameters, when it was given so. */
  readonly text?: Message;
  readonly fields: FieldProblem[];

  constructor(
    readonly kind: ProblemKind,
    message: string | Message,
    fields: FieldInput[] = [],
    /** A code of its own for the answer (default: the kind's, e.g. `conflict`), where callers act on the reason. */
    readonly code?: string,
  ) {
    super(typeof message === 'string' ? message : english(message));
    this.name = 'Problem';
    if (typeof message !== 'string') this.text = message;
    this.fields = fields.map((f) => (typeof f.message === 'string' ? { field: f.field, message: f.message } : { field: f.field, message: english(f.message), text: f.message }));
  }
}

/**
 * A problem with one field, said as "field: reason", with the reason as that field's message (a plain
 * string reason stays English).
 * @example
 * throw fieldProblem('invalid', 'media_ids', msg('not_in_collection', { collection, ids }));
 */
export function fieldProblem(kind: ProblemKind, field: string, reason: string | Message, code?: string): Problem {
  const detail = typeof reason === 'string' ? `${field}: ${reason}` : msg('field_problem', { field, reason });
  return new Problem(kind, detail, [{ field, message: reason }], code);
}

/**
 * Shorthand for a 404-style problem.
 * @example
 * throw notFound('task', id);
 */
export function notFound(what: Noun, id: string): Problem {
  return new Problem('not_found', msg('not_found', { what, id }));
}
