/**
 * The `vidx` command line: one dispatcher shared by `npx vidx` / `npm run vidx --` (src/cli.ts) and the single
 * binary (src/sea-main.ts). Each command lives in its own file and is imported only when used, so a client
 * command does not load the server, SQLite or ONNX Runtime.
 */
import { VERSION } from '../version.js';

const HELP = `vidx ${VERSION}: local video indexing, search and analysis

Usage: vidx <command> [options]

Server:
  serve [options]                       start the server (the default when no command is given)
  doctor                                check ffmpeg, yt-dlp, native parts, models, data dir; says how to fix each problem
  worker --server URL --queue redis://… run a server's analysis jobs on this machine (a worker key in VIDX_API_KEY)

Talking to a running server (--url, --key, --json on each; see "vidx <command> --help"):
  index <file|url> --collection C       index a video into a collection, with a progress bar
  index <folder> --collection C         bind a folder to a collection and scan it (videos, audio, pictures)
  folders add|list|scan|remove          folders bound to a collection: incremental scans, --watch
  analyze <file|url>                    analyze a video without indexing it, with a progress bar
  reindex --collection C [media_id...]  analyze items again from their sources (faces turned on, a new model)
  search "<query>" --collection C       search a collection
  ask "<question>" [--collection C]     answer a question from the moments that say it
  tasks [list|show|retry|delete]        list tasks, show one (--wait follows it), retry a failed one
  collections list|create <id>          list or create collections
  mcp                                   serve MCP (Model Context Protocol) on stdio for AI agents

On the data dir directly (also while the server runs):
  keys create --name N [--admin]        create an API key and print it once (--worker: a key for vidx worker)
  keys list | keys revoke <id>          list API keys (never the keys themselves), revoke one
  models list | models pull [ids]       known models and their state; download models (asks first)
  models import <folder|archive>        install a model downloaded elsewhere; models export <id> writes one

Options: -h, --help (also after any command), -v, --version

Exit codes: 0 ok, 1 failed (a task failed, a server or download error, doctor found a problem), 2 usage error,
3 cannot reach the server, 4 key missing or refused.

Configuration comes from VIDX_* environment variables (vidx serve --help lists them; see README.md).`;

type Command = (argv: string[]) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./serve.js')).serveCommand,
  doctor: async () => (await import('./doctor.js')).doctorCommand,
  worker: async () => (await import('./worker.js')).workerCommand,
  index: async () => (await import('./index-video.js')).indexCommand,
  folders: async () => (await import('./folders.js')).foldersCommand,
  analyze: async () => (await import('./analyze.js')).analyzeCommand,
  reindex: async () => (await import('./reindex.js')).reindexCommand,
  search: async () => (await import('./search.js')).searchCommand,
  ask: async () => (await import('./ask.js')).askCommand,
  tasks: async () => (await import('./tasks.js')).tasksCommand,
  collections: async () => (await import('./collections.js')).collectionsCommand,
  mcp: async () => (await import('./mcp.js')).mcpCommand,
  keys: async () => (await import('./keys.js')).keysCommand,
  models: async () => (await import('./models.js')).modelsCommand,
};

/**
 * Runs one CLI command and returns its exit code (0 ok, 1 failure, 2 usage, 3 unreachable, 4 auth).
 * @example
 * process.exitCode = await runCli(process.argv.slice(2));
 */
export async function runCli(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) return (await COMMANDS.serve())([]);
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    if (rest[0] && COMMANDS[rest[0]]) return (await COMMANDS[rest[0]]())(['--help']);
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  // `vidx --port 9000` is `vidx serve --port 9000`.
  if (command.startsWith('--')) return (await COMMANDS.serve())(argv);
  const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!load) {
    process.stderr.write(`vidx: unknown command "${command}"\n\n${HELP}\n`);
    return 2;
  }
  return (await load())(rest);
}
