/**
 * What the client commands (index, analyze, search, tasks, collections) share: the connection flags, strict
 * flag parsing that turns mistakes into exit code 2, and one place that prints a failure and picks its exit code.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ApiError, CliError, EXIT, resolveClient, type Client } from './client.js';
import { ConfigError, readClientSettings } from '../config.js';

/**
 * Flags every client command takes.
 * @example
 * parseArgs({ args, options: { ...CLIENT_OPTIONS, collection: { type: 'string' } } });
 */
export const CLIENT_OPTIONS = {
  url: { type: 'string' },
  key: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsConfig['options'];

/**
 * The help text of the shared flags and exit codes, appended to each client command's help.
 * @example
 * const HELP = `Usage: vidx search "<query>" --collection C\n\n${CLIENT_HELP}`;
 */
export const CLIENT_HELP = `Connection:
  --url URL     server to talk to (default $VIDX_URL, else http://$VIDX_HOST:$VIDX_PORT, i.e. http://127.0.0.1:8484)
  --key KEY     API key (default $VIDX_API_KEY, then $VIDX_ADMIN_KEY, then <data dir>/admin.key if readable)
  --json        machine-readable JSON on stdout (progress and messages stay on stderr); a failure
                is {"error": {"code", "message", "status"}} on stdout (status: the HTTP status, or null)
  -h, --help    this help

Exit codes: 0 ok, 1 task failed or server error, 2 usage error (also a request the server refused as
invalid), 3 cannot reach the server, 4 key missing, unknown or not allowed.`;

/**
 * parseArgs with strict checking; an unknown flag or a missing value becomes a usage error (exit 2).
 * @example
 * const { values, positionals } = parseFlags(argv, { ...CLIENT_OPTIONS, limit: { type: 'string' } });
 */
export function parseFlags<O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new CliError((err as Error).message, EXIT.USAGE);
  }
}

/**
 * The client for this command's --url and --key.
 * @example
 * const client = clientFrom(values);
 */
export function clientFrom(values: { url?: string; key?: string }): Client {
  try {
    return resolveClient(values, readClientSettings());
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message, EXIT.USAGE);
    throw err;
  }
}

/**
 * A positive integer flag, or a usage error naming it.
 * @example
 * const limit = intFlag('--limit', values.limit, 10, 1, 100);
 */
export function intFlag(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new CliError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`, EXIT.USAGE);
  return n;
}

/**
 * Writes a value to stdout: as one JSON line with --json, else as the given text.
 * @example
 * output(values.json, collection, `created ${collection.collection_id}`);
 */
export function output(json: boolean | undefined, value: unknown, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : text.endsWith('\n') || text === '' ? text : `${text}\n`);
}

/** Codes of failures that are not the server's answer, by exit code. */
const LOCAL_CODES: Record<number, string> = { [EXIT.USAGE]: 'usage', [EXIT.UNREACHABLE]: 'unreachable', [EXIT.AUTH]: 'unauthorized' };

/**
 * A failure as --json prints it on stdout: the server's code, reason and HTTP status, or for a failure of
 * the CLI itself (a wrong flag, no server) a code of its own and status null.
 * @example
 * jsonFailure(new CliError('--collection is required', EXIT.USAGE)); // { error: { code: 'usage', message: '--collection is required', status: null } }
 */
export function jsonFailure(err: CliError): { error: { code: string; message: string; status: number | null } } {
  if (err instanceof ApiError) return { error: { code: err.code, message: err.detail, status: err.status } };
  return { error: { code: LOCAL_CODES[err.exitCode] ?? 'failed', message: err.message, status: null } };
}

/**
 * Runs a command body; a CliError (or ApiError) is printed as `vidx <name>: message` and becomes its exit
 * code; with --json it is also printed on stdout as {@link jsonFailure}, so a script reads one JSON answer.
 * `io` are the streams to write to (this process's unless a test passes its own).
 * @example
 * return runCommand('search', HELP, argv, async () => { …; return EXIT.OK; });
 */
export async function runCommand(name: string, help: string, argv: string[], body: () => Promise<number>, io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream } = process): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout.write(`${help}\n`);
    return EXIT.OK;
  }
  try {
    return await body();
  } catch (err) {
    if (err instanceof CliError) {
      if (argv.includes('--json')) io.stdout.write(`${JSON.stringify(jsonFailure(err))}\n`);
      io.stderr.write(`vidx ${name}: ${err.message}\n`);
      if (err.exitCode === EXIT.USAGE && !('status' in err)) io.stderr.write(`Run "vidx ${name} --help" for usage.\n`);
      return err.exitCode;
    }
    throw err;
  }
}
