/**
 * `vidx models import <folder|archive>` and `vidx models export <id> [file]`: moving a model to a machine
 * that cannot reach the hub. Import checks everything against the manifest before it installs anything
 * (src/ml/registry/import.ts, archive.ts); here are only the words and the exit codes.
 */
import { createWriteStream, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { exportModel, importModelArchive } from '../ml/registry/archive.js';
import { importModelFolder, ModelImportError } from '../ml/registry/import.js';
import { ModelNotInstalledError } from '../ml/registry/local.js';
import { getModel, type Manifest } from '../ml/registry/manifest.js';
import { formatBytes } from '../tools/bytes.js';
import { EXIT } from './client.js';
import type { ModelsIo } from './models-io.js';

/**
 * Installs a model from a hub folder or an archive of `models export`: 0 installed, 1 refused (the reason
 * names the file; nothing was installed).
 * @example
 * await importModel('./whisper-base', undefined, manifest, io); // 'Imported whisper-base: 7 files, 145.0 MB, …'
 */
export async function importModel(path: string, modelId: string | undefined, manifest: Manifest, io: ModelsIo): Promise<number> {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    io.stderr.write(`Import failed: ${path} does not exist.\n`);
    return EXIT.FAILED;
  }
  const opts = { manifest, modelsDir: io.modelsDir, modelId };
  try {
    const done = isDir ? await importModelFolder(path, opts) : await importModelArchive(path, opts);
    io.stdout.write(`Imported ${done.modelId}: ${done.files} files, ${formatBytes(done.bytes)}, checked against the manifest.\n`);
    return EXIT.OK;
  } catch (e) {
    if (!(e instanceof ModelImportError)) throw e;
    io.stderr.write(`Import failed: ${e.message}.\nNothing was installed.\n`);
    return EXIT.FAILED;
  }
}

/**
 * Writes an installed model as a tar (default `<id>.tar`) to carry to another machine: 0 written, 1 not
 * installed (no file is left behind). An unknown id throws UnknownModelError.
 * @example
 * await exportModelTo('whisper-base', undefined, manifest, io); // 'Exported whisper-base to whisper-base.tar (145.0 MB). …'
 */
export async function exportModelTo(id: string, file: string | undefined, manifest: Manifest, io: ModelsIo): Promise<number> {
  const entry = getModel(manifest, id);
  const out = file ?? `${id}.tar`;
  try {
    const bytes = await exportModel(entry, io.modelsDir, createWriteStream(out));
    io.stdout.write(`Exported ${id} to ${out} (${formatBytes(bytes)}). On the other machine: vidx models import ${out}\n`);
    return EXIT.OK;
  } catch (e) {
    if (!(e instanceof ModelNotInstalledError)) throw e;
    await rm(out, { force: true });
    io.stderr.write(`Export failed: ${e.message}\n`);
    return EXIT.FAILED;
  }
}
