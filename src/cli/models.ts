/**
 * `vidx models list|pull|import|export`: the models' install state, downloads from VIDX_HUB_URL and models
 * brought from elsewhere, in VIDX_MODELS_DIR. It works on the models dir directly (no server). The flags are
 * parsed here with the CLI's exit codes; src/ml/registry does the work and knows no argv.
 */
import { ConfigError, readConfig } from '../config.js';
import { defaultManifestPath, loadManifest, UnknownModelError, type Manifest } from '../ml/registry/manifest.js';
import { listModelStatus, type ModelStatus } from '../ml/registry/status.js';
import { formatBytes } from '../tools/bytes.js';
import { CliError, EXIT } from './client.js';
import { parseFlags, runCommand } from './common.js';
import { table } from './models-format.js';
import { exportModelTo, importModel } from './models-move.js';
import { pullModels } from './models-pull.js';
import type { ModelsIo } from './models-io.js';

const HELP = `Usage: vidx models <command>

  list                              known models, install state and size
  pull [default | <id> ...] [--yes] download models (no id: the default of each capability)
  import <folder|archive> [--model <id>]
                                    install a model downloaded elsewhere (the hub's repository folder,
                                    or an archive of \`models export\`), checked against the manifest first
  export <id> [<file>]              write an installed model as a tar archive (default <id>.tar)

Options: -y, --yes (pull without asking), --model <id> (import), -h, --help
Works on the models dir (VIDX_MODELS_DIR) directly. Exit codes: 0 ok (or nothing to do), 1 failed (a download,
an import or an export failed, not enough disk space, or the answer was no), 2 usage error (also: no answer
on stdin; pass --yes).`;

const OPTIONS = {
  yes: { type: 'boolean', short: 'y', default: false },
  model: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/**
 * The `models list` table.
 * @example
 * renderList(listModelStatus(manifest, dir), dir);
 */
export function renderList(statuses: ModelStatus[], modelsDir: string): string {
  const size = (s: ModelStatus) => {
    const approx = s.exact ? '' : '~';
    if (s.state === 'installed') return formatBytes(s.bytesOnDisk);
    if (s.state === 'partial') return `${formatBytes(s.bytesOnDisk)} / ${approx}${formatBytes(s.expectedBytes)}`;
    return `${approx}${formatBytes(s.expectedBytes)}`;
  };
  const rows = [['ID', 'CAPABILITY', 'STATUS', 'SIZE', 'REPO']];
  for (const s of statuses) rows.push([`${s.id}${s.isDefault ? ' *' : ''}`, s.capability, s.state, size(s), s.repo]);
  return `${table(rows)}\n\n* default for its capability; ~ size from the hub listing, not exact\nModels dir: ${modelsDir}\n`;
}

/**
 * Runs `vidx models <argv>` with the given streams and settings; resolves to the exit code.
 * @example
 * const code = await runModels(['pull', 'default', '--yes'], {
 *   modelsDir: config.modelsDir, hubUrl: config.hubUrl,
 *   stdin: process.stdin, stdout: process.stdout, stderr: process.stderr,
 * });
 */
export async function runModels(argv: string[], io: ModelsIo): Promise<number> {
  return runCommand('models', HELP, argv, async () => {
    const { values, positionals } = parseFlags(argv, OPTIONS);
    const [command = 'list', ...args] = positionals;
    if (command === 'help') {
      io.stdout.write(`${HELP}\n`);
      return EXIT.OK;
    }
    if (values.yes && command !== 'pull') throw new CliError('--yes is an option of pull', EXIT.USAGE);
    if (values.model !== undefined && command !== 'import') throw new CliError('--model is an option of import', EXIT.USAGE);
    const manifest = readManifest(io);
    try {
      return await run(command, args, values, manifest, io);
    } catch (err) {
      if (err instanceof UnknownModelError) throw new CliError(err.message, EXIT.USAGE);
      throw err;
    }
  }, io);
}

async function run(command: string, args: string[], values: { yes: boolean; model?: string }, manifest: Manifest, io: ModelsIo): Promise<number> {
  switch (command) {
    case 'list':
    case 'ls':
      if (args.length > 0) throw new CliError(`unexpected argument: ${args[0]}`, EXIT.USAGE);
      io.stdout.write(renderList(listModelStatus(manifest, io.modelsDir), io.modelsDir));
      return EXIT.OK;
    case 'pull':
      return pullModels(args, manifest, io, { yes: values.yes });
    case 'import':
      if (args.length !== 1) throw new CliError('import takes one folder or archive (and --model <id> if it cannot be told)', EXIT.USAGE);
      return importModel(args[0], values.model, manifest, io);
    case 'export':
      if (args.length < 1 || args.length > 2) throw new CliError('export takes a model id and, optionally, the file to write', EXIT.USAGE);
      return exportModelTo(args[0], args[1], manifest, io);
    default:
      throw new CliError(`unknown command: ${command} (list, pull, import or export)`, EXIT.USAGE);
  }
}

function readManifest(io: ModelsIo): Manifest {
  try {
    return loadManifest(io.manifestPath ?? defaultManifestPath());
  } catch (err) {
    throw new CliError(`cannot read the model manifest: ${(err as Error).message}`, EXIT.FAILED);
  }
}

/**
 * `vidx models …` with the settings of src/config.ts, on this process's streams; Ctrl-C stops a pull (the
 * part files stay and resume next time).
 * @example
 * await modelsCommand(['pull', 'default', '--yes']);
 */
export async function modelsCommand(argv: string[]): Promise<number> {
  let config;
  try {
    config = readConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`vidx: ${err.message}\n`);
      return EXIT.USAGE;
    }
    throw err;
  }
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  const { modelsDir, hubUrl, modelsManifest: manifestPath } = config;
  return runModels(argv, { modelsDir, hubUrl, manifestPath, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, signal: controller.signal });
}
