/**
 * `vidx models import <folder|archive>` and `vidx models export <id> [file]`: moving a model to a machine
 * that cannot reach the hub. Import checks everything against the manifest before it installs anything.
 */
import { createWriteStream, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { exportModel, importModelArchive } from './archive.js';
import { formatBytes } from '../../tools/bytes.js';
import { importModelFolder, ModelImportError } from './import.js';
import { ModelNotInstalledError } from './local.js';
import { getModel, UnknownModelError, type Manifest } from './manifest.js';

/** Where a subcommand writes and what it reads. */
interface Io {
  modelsDir: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** A subcommand's outcome: an exit code, or a usage error's words. */
type Outcome = number | { usage: string };

/**
 * `models import <folder|archive> [--model <id>]`: 0 installed, 1 refused (the reason names the file).
 * @example
 * await runImport(['./whisper-base'], manifest, io); // 'Imported whisper-base: 7 files, 145.0 MB'
 */
export async function runImport(args: string[], manifest: Manifest, io: Io): Promise<Outcome> {
  let modelId: string | undefined;
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--model') modelId = args[++i];
    else if (args[i].startsWith('-')) return { usage: `unknown option: ${args[i]}` };
    else paths.push(args[i]);
  }
  if (paths.length !== 1 || (args.includes('--model') && !modelId)) return { usage: 'import takes one folder or archive (and --model <id> if it cannot be told)' };
  const path = paths[0];
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    io.stderr.write(`Import failed: ${path} does not exist.\n`);
    return 1;
  }
  const opts = { manifest, modelsDir: io.modelsDir, modelId };
  try {
    const done = isDir ? await importModelFolder(path, opts) : await importModelArchive(path, opts);
    io.stdout.write(`Imported ${done.modelId}: ${done.files} files, ${formatBytes(done.bytes)}, checked against the manifest.\n`);
    return 0;
  } catch (e) {
    if (!(e instanceof ModelImportError)) throw e;
    io.stderr.write(`Import failed: ${e.message}.\nNothing was installed.\n`);
    return 1;
  }
}

/**
 * `models export <id> [file]`: writes an installed model as a tar (default `<id>.tar`) to carry to another machine.
 * @example
 * await runExport(['whisper-base'], manifest, io); // 'Exported whisper-base to whisper-base.tar (145.0 MB)'
 */
export async function runExport(args: string[], manifest: Manifest, io: Io): Promise<Outcome> {
  if (args.length < 1 || args.length > 2 || args.some((a) => a.startsWith('-'))) return { usage: 'export takes a model id and, optionally, the file to write' };
  const [id, file = `${id}.tar`] = args;
  let entry;
  try {
    entry = getModel(manifest, id);
  } catch (e) {
    if (e instanceof UnknownModelError) return { usage: e.message };
    throw e;
  }
  try {
    const bytes = await exportModel(entry, io.modelsDir, createWriteStream(file));
    io.stdout.write(`Exported ${id} to ${file} (${formatBytes(bytes)}). On the other machine: vidx models import ${file}\n`);
    return 0;
  } catch (e) {
    if (!(e instanceof ModelNotInstalledError)) throw e;
    await rm(file, { force: true });
    io.stderr.write(`Export failed: ${e.message}\n`);
    return 1;
  }
}
