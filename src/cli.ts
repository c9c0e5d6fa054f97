import { serveCommand } from './cli/serve.js';
import { keysCommand } from './cli/keys.js';
import { modelsCommand } from './cli/models.js';
import { VERSION } from './version.js';

const HELP = `vidx ${VERSION} — local video indexing, search and analysis

Usage: vidx <command> [options]

Commands:
  serve [options]              start the server (default when no command is given)
  keys create --name N [--admin]   create an API key and print it once
  keys list                    list API keys (never the keys themselves)
  keys revoke <id>             revoke an API key
  models list                  known models: installed or missing, and their size
  models pull [default|<id>] [--yes]   download models (shows size and asks first)

Run "vidx <command> --help" for the options of a command.
Configuration comes from VIDX_* environment variables; see README.md.`;

/**
 * Runs one CLI command and returns its exit code (0 ok, 1 failure, 2 usage error).
 * @example
 * process.exitCode = await runCli(process.argv.slice(2));
 */
export async function runCli(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
      return serveCommand([]);
    case 'serve':
      return serveCommand(rest);
    case 'keys':
      return keysCommand(rest);
    case 'models':
      return modelsCommand(rest);
    case '--version':
    case '-v':
      process.stdout.write(`${VERSION}\n`);
      return 0;
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(`${HELP}\n`);
      return 0;
    default:
      if (command.startsWith('--')) return serveCommand(argv);
      process.stderr.write(`vidx: unknown command "${command}"\n\n${HELP}\n`);
      return 2;
  }
}

// Run when executed directly (tsx src/cli.ts, bin/vidx.js), not when imported by main.ts or tests.
const invoked = process.argv[1] ?? '';
if (/[\\/]cli\.(ts|js)$/.test(invoked)) {
  process.exitCode = await runCli(process.argv.slice(2));
}
