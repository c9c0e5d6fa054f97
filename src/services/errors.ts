/** Why a request could not be served, in words the HTTP layer maps to a status code. */
export type ProblemKind = 'bad_request' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'too_large' | 'unsupported' | 'invalid' | 'not_implemented';

/** One field that failed a rule: a dotted path such as `video.media_id` and the rule it broke. */
export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * An expected failure with a message meant for the caller. Anything else that is thrown is a bug.
 * @example
 * throw new Problem('not_found', 'collection "holidays" not found');
 */
export class Problem extends Error {
  constructor(
    readonly kind: ProblemKind,
    message: string,
    readonly fields: FieldProblem[] = [],
    /** A code of its own for the answer (default: the kind's, e.g. `conflict`), where callers act on the reason. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'Problem';
  }
}

/**
 * Shorthand for a 404-style problem.
 * @example
 * throw notFound('task', id);
 */
export function notFound(what: string, id: string): Problem {
  return new Problem('not_found', `${what} "${id}" not found`);
}
