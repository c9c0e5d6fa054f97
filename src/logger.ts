/** Writes one structured log line. */
export type Logger = (msg: string, fields?: Record<string, unknown>) => void;

/**
 * JSON-lines logger on stdout (one object per line: time, msg, fields); `silent` drops everything.
 * @example
 * const log = createLogger('info');
 * log('task started', { task_id });
 */
export function createLogger(level: 'info' | 'silent'): Logger {
  if (level === 'silent') return () => {};
  return (msg, fields = {}) => {
    process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), msg, ...fields })}\n`);
  };
}

/** What opens something without a key, wherever it appears in a text: a share token, a link signature. */
const SECRETS: Array<[RegExp, string]> = [
  // GET /shared/<token> and the page's #/s/<token>: the token alone opens the shared moment.
  [/(\/shared\/|#\/s\/)[^/?#&\s"'<>]+/g, '$1<redacted>'],
  // `sig=` of a signed /files link: with it, the link opens the file until it expires.
  [/([?&]sig=)[^&#\s"'<>]+/g, '$1<redacted>'],
];

/**
 * A text with share tokens and link signatures replaced by `<redacted>`; the rest (paths, ids) stays.
 * @example
 * redactSecrets('/shared/Ab3x…'); // '/shared/<redacted>'
 * redactSecrets('/files/a.jpg?exp=1&sig=xyz'); // '/files/a.jpg?exp=1&sig=<redacted>'
 */
export function redactSecrets(text: string): string {
  return SECRETS.reduce((t, [pattern, replacement]) => t.replace(pattern, replacement), text);
}

function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (Array.isArray(value)) return value.map(redactValue);
  // Plain objects only: anything else (an Error, a Date) is written as JSON.stringify writes it.
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v)]));
  return value;
}

/**
 * The logger with every text of every line (the message, fields at any depth) passed through redactSecrets:
 * the one place log lines go through, whoever writes them (request log, errors, tasks).
 * @example
 * const log = redacting(createLogger('info'));
 * log('request', { path: '/shared/Ab3x…' }); // {"msg":"request","path":"/shared/<redacted>",…}
 */
export function redacting(logger: Logger): Logger {
  return (msg, fields) => logger(redactSecrets(msg), fields === undefined ? undefined : (redactValue(fields) as Record<string, unknown>));
}
