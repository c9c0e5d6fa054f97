/**
 * `vidx models pull`: what is missing and its size, the free disk, a question before anything is fetched
 * (unless --yes), then a progress bar while the pull (src/ml/registry/pull.ts) downloads.
 */
import { createInterface } from 'node:readline';
import { HubUnreachableError } from '../ml/registry/download.js';
import { resolveModelIds, type Manifest } from '../ml/registry/manifest.js';
import { pull, type PullProgress } from '../ml/registry/pull.js';
import { modelStatus, type ModelStatus } from '../ml/registry/status.js';
import { formatBytes } from '../tools/bytes.js';
import { CliError, EXIT } from './client.js';
import { freeBytes, progressLine, table } from './models-format.js';
import type { ModelsIo, Out } from './models-io.js';

/** Bytes still to download for a model (files not yet complete, minus resumable parts). */
function remainingBytes(s: ModelStatus): number {
  return s.files
    .filter((f) => f.state !== 'present')
    .reduce((a, f) => a + Math.max(0, (f.expectedBytes ?? 0) - (f.state === 'partial' ? f.bytesOnDisk : 0)), 0);
}

/**
 * Pulls the given models (none or `default`: each capability's default) after showing what it downloads;
 * resolves to the exit code: 0 done or nothing to do, 1 not enough disk, not confirmed or the download
 * failed (partial files are kept and resume next time), 2 no answer on stdin (pass --yes).
 * @example
 * await pullModels(['whisper-base'], manifest, io, { yes: true }); // 0
 */
export async function pullModels(ids: string[], manifest: Manifest, io: ModelsIo, opts: { yes: boolean }): Promise<number> {
  const entries = resolveModelIds(manifest, ids);
  const todo = entries.map((e) => modelStatus(e, io.modelsDir)).filter((s) => s.state !== 'installed');
  if (todo.length === 0) {
    io.stdout.write(`Already installed: ${entries.map((e) => e.id).join(', ')}\n`);
    return EXIT.OK;
  }
  if (!(await showPlan(todo, io))) return EXIT.FAILED;
  const yes = opts.yes || (await ask(io));
  if (yes === null) {
    // A script without --yes: a usage mistake, said the way the other usage errors are.
    io.stderr.write('\n');
    throw new CliError('no answer on stdin: re-run with --yes to download', EXIT.USAGE);
  }
  if (!yes) {
    io.stderr.write('Not downloading.\n');
    return EXIT.FAILED;
  }
  return download(todo, manifest, io);
}

/** The table of what is fetched, the size and the free disk; false when the disk is too small. */
async function showPlan(todo: ModelStatus[], io: ModelsIo): Promise<boolean> {
  const bytes = todo.reduce((a, s) => a + remainingBytes(s), 0);
  const approx = todo.every((s) => s.exact) ? '' : '~';
  const rows = [['ID', 'CAPABILITY', 'STATUS', 'TO DOWNLOAD']];
  for (const s of todo) rows.push([s.id, s.capability, s.state, `${s.exact ? '' : '~'}${formatBytes(remainingBytes(s))}`]);
  const free = await freeBytes(io.modelsDir);
  io.stdout.write(
    `${table(rows)}\n\nDownload: ${approx}${formatBytes(bytes)}; disk needed: ${approx}${formatBytes(bytes)}` +
      `${free === null ? '' : `; free: ${formatBytes(free)}`}\nInto: ${io.modelsDir}\n`,
  );
  if (free === null || free >= bytes) return true;
  io.stderr.write(`Not enough disk space: need ${approx}${formatBytes(bytes)}, free ${formatBytes(free)}.\n`);
  return false;
}

/** Asks on stdin whether to download: null when stdin ends without an answer. */
async function ask(io: ModelsIo): Promise<boolean | null> {
  io.stderr.write('Download now? [y/N] ');
  const answer = await readAnswer(io.stdin);
  return answer === null ? null : /^y(es)?$/i.test(answer.trim());
}

async function download(todo: ModelStatus[], manifest: Manifest, io: ModelsIo): Promise<number> {
  const bar = progressRenderer(io.stderr);
  try {
    const result = await pull(todo.map((s) => s.id), { hubUrl: io.hubUrl, modelsDir: io.modelsDir, manifest, signal: io.signal, onProgress: bar.update });
    bar.end();
    io.stdout.write(`Installed: ${result.pulled.join(', ')} (${formatBytes(result.bytesFetched)} downloaded)\n`);
    return EXIT.OK;
  } catch (err) {
    bar.end();
    if (err instanceof HubUnreachableError) io.stderr.write(`Download failed: ${err.message}.\n`);
    else io.stderr.write(`Download failed: ${(err as Error).message}\nRun the same command again to resume.\n`);
    return EXIT.FAILED;
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
