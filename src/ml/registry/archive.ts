/**
 * Model archives: `vidx models export <id>` writes an installed model as a tar (its files in the hub's
 * layout, plus a label naming the model); import reads such a tar, or any tar (gzipped or not) of a hub
 * repository folder, unpacks it into a scratch folder of the models dir and imports that. Links, absolute
 * names and `..` in an archive are refused before anything is written outside the scratch folder.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { type Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { msg } from '../../messages/index.js';
import { ARCHIVE_LABEL, importModelFolder, ModelImportError, type ImportOptions, type ImportResult } from './import.js';
import { ModelNotInstalledError, pullHint } from './local.js';
import type { ModelEntry } from './manifest.js';
import { modelDir, modelStatus } from './status.js';

/**
 * Writes an installed model as a tar archive to `out`; its bytes.
 * @example
 * await exportModel(getModel(manifest, 'whisper-base'), '/data/models', createWriteStream('whisper-base.tar'));
 */
export async function exportModel(entry: ModelEntry, modelsDir: string, out: Writable): Promise<number> {
  const status = modelStatus(entry, modelsDir);
  if (status.state !== 'installed') throw new ModelNotInstalledError(entry.id, status.state, pullHint(entry.id));
  const pack = tar.pack();
  let bytes = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  const written = pipeline(pack, count, out);
  const label = JSON.stringify({ id: entry.id, repo: entry.repo, revision: entry.revision }, null, 2);
  await new Promise<void>((resolve, reject) => pack.entry({ name: ARCHIVE_LABEL, mode: 0o644 }, `${label}\n`, (e) => (e ? reject(e) : resolve())));
  const dir = modelDir(modelsDir, entry);
  for (const f of entry.files) {
    const path = join(dir, f.path);
    const { size } = await stat(path);
    await pipeline(createReadStream(path), pack.entry({ name: f.path, size, mode: 0o644 }));
  }
  pack.finalize();
  await written;
  return bytes;
}

/**
 * Unpacks a model archive (tar or tar.gz) and imports it; the scratch folder is removed afterwards.
 * @example
 * await importModelArchive('/media/usb/whisper-base.tar', { manifest, modelsDir: '/data/models' });
 */
export async function importModelArchive(archive: string, opts: ImportOptions): Promise<ImportResult> {
  const scratch = join(opts.modelsDir, `.unpack-${randomUUID()}`);
  try {
    await mkdir(scratch, { recursive: true });
    await unpack(archive, scratch);
    return await importModelFolder(await contentRoot(scratch), opts);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Whether a file starts as gzip does. */
async function isGzip(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await fh.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

/** An archive member's name as a safe relative path, or the unsafe-path refusal. */
function safeName(name: string): string {
  const clean = posix.normalize(name.replace(/^(\.\/)+/, ''));
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name) || name.includes('\\') || clean === '..' || clean.startsWith('../')) {
    throw new ModelImportError(msg('import_unsafe_path', { file: name }));
  }
  return clean.replace(/\/+$/, '');
}

/** Writes the archive's files and folders under `dest`; links and devices are refused. */
async function unpack(archive: string, dest: string): Promise<void> {
  const extract = tar.extract();
  extract.on('entry', (header, body: Readable, next) => {
    void (async () => {
      const name = safeName(header.name);
      const type = header.type ?? 'file';
      if (type === 'directory' || name === '' || name === '.') {
        body.resume();
        if (name && name !== '.') await mkdir(join(dest, name), { recursive: true });
        return;
      }
      if (type !== 'file' && type !== 'contiguous-file') throw new ModelImportError(msg('import_unsafe_path', { file: header.name }));
      await mkdir(dirname(join(dest, name)), { recursive: true });
      await pipeline(body, createWriteStream(join(dest, name)));
    })().then(() => next(), (e: Error) => next(e));
  });
  const source = createReadStream(archive);
  try {
    await ((await isGzip(archive)) ? pipeline(source, createGunzip(), extract) : pipeline(source, extract));
  } catch (e) {
    if (e instanceof ModelImportError) throw e;
    throw new ModelImportError(msg('import_not_archive', { reason: (e as Error).message }));
  }
}

/** The unpacked folder, or its one subfolder when the archive wrapped everything in one (`tar -cf x.tar whisper-base`). */
async function contentRoot(dir: string): Promise<string> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.length === 1 && entries[0].isDirectory() ? contentRoot(join(dir, entries[0].name)) : dir;
}
