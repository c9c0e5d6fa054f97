/**
 * `vidx models list`, `pull`, `import` and `export`, as a function the main CLI calls with its
 * arguments and streams. Nothing here reads the environment: the caller passes the models
 * dir and the hub URL (from src/config.ts).
 *
 * Exit codes (MODELS_EXIT):
 *   0  done, or nothing to do
 *   1  a download or its verification failed (partial files are kept and resume next time), or an
 *      import was refused (nothing installed) or an export found the model not installed
 *   2  usage error: unknown subcommand, flag or model id
 *   3  not confirmed: the answer was no, or stdin gave no answer (pass --yes)
 *   4  not enough free disk space for the download
 */
import { createInterface } from 'node:readline';
import { freeBytes, progressLine, table } from './format.js';
import { formatBytes } from '../../tools/bytes.js';
import { defaultManifestPath, loadManifest, resolveModelIds, UnknownModelError, type Manifest } from './manifest.js';
import { runExport, runImport } from './cli-import.js';
import { HubUnreachableError } from './download.js';
import { pull, type PullProgress } from './pull.js';
import { listModelStatus, modelStatus, type ModelStatus } from './status.js';

export const MODELS_EXIT = { OK: 0, FAILED: 1, USAGE: 2, NOT_CONFIRMED: 3, NO_SPACE: 4 } as const;

type Out = NodeJS.WritableStream & { isTTY?: boolean };

/** Streams and settings the command runs with. */
export interface ModelsCommandIo {
  modelsDir: string;
  hubUrl: string;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: Out;
  stderr: Out;
  /** Skip the confirmation (same as `--yes`). */
  yes?: boolean;
  /** Manifest to use instead of models/manifest.json (tests use the fixture manifest). */
  manifestPath?: string;
  signal?: AbortSignal;
}

const USAGE = `Usage: vidx models <command>

  list                              known models, install state and size
  pull [default | <id> ...] [--yes] download models (no id: the default of each capability)
  import <folder|archive> [--model <id>]
                                    install a model downloaded elsewhere (the hub's repository folder,
                                    or an archive of \`models export\`), checked against the manifest first
  export <id> [<file>]              write an installed model as a tar archive (default <id>.tar)

Exit codes: 0 ok, 1 download, import or export failed, 2 usage error, 3 not confirmed, 4 not enough disk space
`;

/**
 * Runs `models <args>`; resolves to the exit code.
 * @example
 * const code = await runModelsCommand(['pull', 'default', '--yes'], {
 *   modelsDir: '/data/models', hubUrl: config.hubUrl,
 *   stdin: process.stdin, stdout: process.stdout, stderr: process.stderr,
 * });
 */
export async function runModelsCommand(args: string[], io: ModelsCommandIo): Promise<number> {
  const [sub, ...rest] = args;
  let manifest: Manifest;
  try {
    manifest = loadManifest(io.manifestPath ?? defaultManifestPath());
  } catch (err) {
    io.stderr.write(`cannot read the model manifest: ${(err as Error).message}\n`);
    return MODELS_EXIT.FAILED;
  }
  switch (sub) {
    case undefined:
    case 'list':
    case 'ls':
      if (rest.length > 0) return usage(io, `unexpected argument: ${rest[0]}`);
      io.stdout.write(renderList(listModelStatus(manifest, io.modelsDir), io.modelsDir));
      return MODELS_EXIT.OK;
    case 'pull':
      return runPull(rest, manifest, io);
    case 'import':
    case 'export': {
      const outcome = await (sub === 'import' ? runImport : runExport)(rest, manifest, io);
      return typeof outcome === 'number' ? outcome : usage(io, outcome.usage);
    }
    case 'help':
    case '--help':
    case '-h':
      io.stdout.write(USAGE);
      return MODELS_EXIT.OK;
    default:
      return usage(io, `unknown command: ${sub}`);
  }
}

function usage(io: ModelsCommandIo, message: string): number {
  io.stderr.write(`${message}\n\n${USAGE}`);
  return MODELS_EXIT.USAGE;
}

function sizeCell(s: ModelStatus): string {
  const approx = s.exact ? '' : '~';
  if (s.state === 'installed') return formatBytes(s.bytesOnDisk);
  if (s.state === 'partial') return `${formatBytes(s.bytesOnDisk)} / ${approx}${formatBytes(s.expectedBytes)}`;
  return `${approx}${formatBytes(s.expectedBytes)}`;
}

/**
 * The `models list` table.
 * @example
 * renderList(listModelStatus(manifest, dir), dir);
 */
export function renderList(statuses: ModelStatus[], modelsDir: string): string {
  const rows = [['ID', 'CAPABILITY', 'STATUS', 'SIZE', 'REPO']];
  for (const s of statuses) {
    rows.push([`${s.id}${s.isDefault ? ' *' : ''}`, s.capability, s.state, sizeCell(s), s.repo]);
  }
  return `${table(rows)}\n\n* default for its capability; ~ size from the hub listing, not exact\nModels dir: ${modelsDir}\n`;
}

/** Bytes still to download for a model (files not yet complete, minus resumable parts). */
function remainingBytes(s: ModelStatus): number {
  return s.files
    .filter((f) => f.state !== 'present')
    .reduce((a, f) => a + Math.max(0, (f.expectedBytes ?? 0) - (f.state === 'partial' ? f.bytesOnDisk : 0)), 0);
}

async function runPull(args: string[], manifest: Manifest, io: ModelsCommandIo): Promise<number> {
  let yes = io.yes === true;
  const ids: string[] = [];
  for (const a of args) {
    if (a === '--yes' || a === '-y') yes = true;
    else if (a.startsWith('-')) return usage(io, `unknown option: ${a}`);
    else ids.push(a);
  }
  let entries;
  try {
    entries = resolveModelIds(manifest, ids);
  } catch (err) {
    if (err instanceof UnknownModelError) return usage(io, err.message);
    throw err;
  }
  const todo = entries.map((e) => modelStatus(e, io.modelsDir)).filter((s) => s.state !== 'installed');
  if (todo.length === 0) {
    io.stdout.write(`Already installed: ${entries.map((e) => e.id).join(', ')}\n`);
    return MODELS_EXIT.OK;
  }

  const download = todo.reduce((a, s) => a + remainingBytes(s), 0);
  const approx = todo.every((s) => s.exact) ? '' : '~';
  const rows = [['ID', 'CAPABILITY', 'STATUS', 'TO DOWNLOAD']];
  for (const s of todo) rows.push([s.id, s.capability, s.state, `${s.exact ? '' : '~'}${formatBytes(remainingBytes(s))}`]);
  const free = await freeBytes(io.modelsDir);
  io.stdout.write(
    `${table(rows)}\n\nDownload: ${approx}${formatBytes(download)}; disk needed: ${approx}${formatBytes(download)}` +
      `${free === null ? '' : `; free: ${formatBytes(free)}`}\nInto: ${io.modelsDir}\n`,
  );
  if (free !== null && free < download) {
    io.stderr.write(`Not enough disk space: need ${approx}${formatBytes(download)}, free ${formatBytes(free)}.\n`);
    return MODELS_EXIT.NO_SPACE;
  }

  if (!yes) {
    io.stderr.write('Download now? [y/N] ');
    const answer = await readAnswer(io.stdin);
    if (answer === null) {
      io.stderr.write('\nNo answer on stdin: re-run with --yes to download.\n');
      return MODELS_EXIT.NOT_CONFIRMED;
    }
    if (!/^y(es)?$/i.test(answer.trim())) {
      io.stderr.write('Not downloading.\n');
      return MODELS_EXIT.NOT_CONFIRMED;
    }
  }

  const bar = progressRenderer(io.stderr);
  try {
    const result = await pull(todo.map((s) => s.id), {
      hubUrl: io.hubUrl,
      modelsDir: io.modelsDir,
      manifest,
      signal: io.signal,
      onProgress: bar.update,
    });
    bar.end();
    io.stdout.write(`Installed: ${result.pulled.join(', ')} (${formatBytes(result.bytesFetched)} downloaded)\n`);
    return MODELS_EXIT.OK;
  } catch (err) {
    bar.end();
    if (err instanceof HubUnreachableError) {
      io.stderr.write(`Download failed: ${err.message}.\n`);
      return MODELS_EXIT.FAILED;
    }
    io.stderr.write(`Download failed: ${(err as Error).message}\nRun the same command again to resume.\n`);
    return MODELS_EXIT.FAILED;
  }
}

/** First line of stdin, or null when it ends (or is closed) without one. */
function readAnswer(stdin: NodeJS.ReadableStream): Promise<string | null> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: stdin, terminal: false });
    let answered = false;
    rl.once('line', (line) => {
      answered = true;
      rl.close();
      resolve(line);
    });
    rl.once('close', () => {
      if (!answered) resolve(null);
    });
  });
}

/** A redrawn bar on a terminal; one line per finished file otherwise (logs, tests). */
function progressRenderer(out: Out): { update: (p: PullProgress) => void; end: () => void } {
  let last = 0;
  let drawn = false;
  const tty = out.isTTY === true;
  return {
    update(p) {
      const approx = p.exact ? '' : '~';
      if (tty) {
        const now = Date.now();
        if (p.type === 'bytes' && now - last < 100) return;
        last = now;
        out.write(`\r${progressLine(p.bytesDone, Math.max(p.bytesTotal, p.bytesDone), `${p.modelId} ${p.file ?? ''}`)}\x1b[K`);
        drawn = true;
        if (p.type === 'retry') out.write(`\n  retrying ${p.file}: ${p.error}\n`);
      } else if (p.type === 'file-done') {
        out.write(`${progressLine(p.bytesDone, Math.max(p.bytesTotal, p.bytesDone), `${p.modelId}/${p.file}`)} ${approx ? '(total approx.)' : ''}\n`.replace(/ \n$/, '\n'));
      } else if (p.type === 'retry') {
        out.write(`retrying ${p.modelId}/${p.file} after: ${p.error}\n`);
      }
    },
    end() {
      if (drawn) out.write('\n');
      drawn = false;
    },
  };
}
