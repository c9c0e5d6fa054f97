import { english, type Message, msg, type Noun } from '../messages/index.js';

/** Why a request could not be served, in words the HTTP layer maps to a status code. */
export type ProblemKind = 'bad_request' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'too_large' | 'unsupported' | 'invalid' | 'too_many' | 'not_implemented';

/**
 * One field that failed a rule: a dotted path such as `video.media_id` and the rule it broke, in English
 * (`message`) and, where vidx wrote it from its tables, as a message key with parameters (`text`).
 */
export interface FieldProblem {
  field: string;
  message: string;
  text: Message;
}

/** A field problem as a throw site gives it: the rule as a message of the tables. */
export interface FieldInput {
  field: string;
  message: Message;
}

/**
 * An expected failure with a message meant for the caller. Anything else that is thrown is a bug. A message
 * is a key with parameters (`msg(…)`), so it can be said in every language of src/messages; `message` is its
 * English text. There is no plain-string form: a text without a key would stay English on a German page.
 * @example
 * throw new Problem('conflict', msg('collection_exists', { id }));
 */
export class Problem extends Error {
  /** The message as a key and parameters. */
  readonly text: Message;
  readonly fields: FieldProblem[];

  constructor(
    readonly kind: ProblemKind,
    message: Message,
    fields: FieldInput[] = [],
    /** A code of its own for the answer (default: the kind's, e.g. `conflict`), where callers act on the reason. */
    readonly code?: string,
  ) {
    super(english(message));
    this.name = 'Problem';
    this.text = message;
    this.fields = fields.map((f) => ({ field: f.field, message: english(f.message), text: f.message }));
  }
}

/** A Problem as it crosses to another thread: its kind, message, fields and code, as data. */
export interface WireProblem {
  kind: ProblemKind;
  text: Message;
  fields: { field: string; text: Message }[];
  code?: string;
}

/**
 * A Problem as data, for another thread; null for any other error (a bug, said as a plain error).
 * @example
 * port.postMessage({ id, problem: problemToWire(err) ?? undefined, message: String(err) });
 */
export function problemToWire(err: unknown): WireProblem | null {
  if (!(err instanceof Problem)) return null;
  return { kind: err.kind, text: err.text, fields: err.fields.map((f) => ({ field: f.field, text: f.text })), ...(err.code !== undefined ? { code: err.code } : {}) };
}

/**
 * The Problem again from its wire form.
 * @example
 * throw problemFromWire(reply.problem);
 */
export function problemFromWire(w: WireProblem): Problem {
  return new Problem(w.kind, w.text, w.fields.map((f) => ({ field: f.field, message: f.text })), w.code);
}

/**
 * Too many requests of one caller at once (429): the answer says when to ask again (`Retry-After`).
 * @example
 * throw new TooManyRequests(msg('worker_requests_in_flight', { max: 2 }), 1, 'too_many_requests');
 */
export class TooManyRequests extends Problem {
  constructor(
    message: Message,
    /** Seconds the caller should wait before it asks again. */
    readonly retryAfterSeconds: number,
    code?: string,
  ) {
    super('too_many', message, [], code);
    this.name = 'TooManyRequests';
  }
}

/**
 * A problem with one field, said as "field: reason", with the reason as that field's message (a plain
 * string reason, from a layer that words its reasons only in English, is said as given).
 * @example
 * throw fieldProblem('invalid', 'media_ids', msg('not_in_collection', { collection, ids }));
 */
export function fieldProblem(kind: ProblemKind, field: string, reason: string | Message, code?: string): Problem {
  const keyed = typeof reason === 'string' ? msg('as_given', { text: reason }) : reason;
  return new Problem(kind, msg('field_problem', { field, reason: keyed }), [{ field, message: keyed }], code);
}

/**
 * Shorthand for a 404-style problem.
 * @example
 * throw notFound('task', id);
 */
export function notFound(what: Noun, id: string): Problem {
  return new Problem('not_found', msg('not_found', { what, id }));
}
