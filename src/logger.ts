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
