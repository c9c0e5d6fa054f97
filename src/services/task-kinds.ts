/**
 * The kinds of work a task does. Handlers are registered by kind (one each, checked at start); the HTTP
 * layer turns a kind and its input into the `endpoint` path callers see (SPEC 2.4), so no service knows
 * a URL path.
 */
export const TASK_KINDS = ['index', 'analyze', 'folder_scan', 'reindex', 'clusters', 'suggestions', 'model_pull'] as const;

/** One kind of task. */
export type TaskKind = (typeof TASK_KINDS)[number];

/**
 * Whether a string names a task kind.
 * @example
 * isTaskKind('reindex'); // true
 */
export function isTaskKind(value: string): value is TaskKind {
  return (TASK_KINDS as readonly string[]).includes(value);
}
