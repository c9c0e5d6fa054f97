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
import { expectedSize, type ModelEntry } from './manifest.js';
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
 * Unpacks a model archive (tar or tar.gz) and imports it; the scratch folder is removed afterwards, also when
 * the archive is refused half-way.
 * @example
 * await importModelArchive('/media/usb/whisper-base.tar', { manifest, modelsDir: '/data/models' });
 */
export async function importModelArchive(archive: string, opts: ImportOptions): Promise<ImportResult> {
  const scratch = join(opts.modelsDir, `.unpack-${randomUUID()}`);
  try {
    await mkdir(scratch, { recursive: true });
    await unpack(archive, scratch, unpackBounds(opts));
    return await importModelFolder(await contentRoot(scratch), opts);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * What an archive may write (issue 43: a 4 MB `.tar.gz` wrote 3.95 GB, a 1.8 MB one made 200,000 files): only
 * the files a model of the manifest names (and the label), each at most its expected size and a quarter more
 * (the hub's sizes are rounded), all together at most the largest such model's; at most `entries` members.
 */
export interface UnpackBounds {
  /** Bytes each file the manifest names may have, by its path in the hub's layout. */
  fileBytes: Map<string, number>;
  totalBytes: number;
  entries: number;
}

/** Members an archive may hold at most, written or passed over: a model has a few dozen files. */
export const ARCHIVE_ENTRIES = 10_000;
/** What a file may exceed its expected size by: a quarter, and a MiB for small files. */
const slack = (bytes: number) => Math.ceil(bytes * 1.25) + 1024 * 1024;

/**
 * The bounds of an import: of the model named, else of every model of the manifest (the archive says which
 * it is only once it is read).
 * @example
 * unpackBounds({ manifest, modelsDir, modelId: 'whisper-base' }).totalBytes; // ≈ 1.25 × 139 MB
 */
export function unpackBounds(opts: ImportOptions): UnpackBounds {
  const models = opts.modelId ? opts.manifest.models.filter((m) => m.id === opts.modelId) : opts.manifest.models;
  const fileBytes = new Map<string, number>([[ARCHIVE_LABEL, 64 * 1024]]);
  let totalBytes = 0;
  for (const m of models) {
    let sum = 0;
    for (const f of m.files) {
      // A file of unknown size may be as large as a model file gets (2 GiB, the ONNX protobuf limit).
      const bytes = slack(expectedSize(f).bytes ?? 2 ** 31);
      fileBytes.set(f.path, Math.max(fileBytes.get(f.path) ?? 0, bytes));
      sum += bytes;
    }
    totalBytes = Math.max(totalBytes, sum + 64 * 1024);
  }
  return { fileBytes, totalBytes, entries: ARCHIVE_ENTRIES };
}

/** The path in the hub's layout an archive member stands for (`whisper-base/onnx/a.onnx` → `onnx/a.onnx`), or null when the manifest names none. */
function knownPath(name: string, bounds: UnpackBounds): string | null {
  for (let rest = name; ; rest = rest.slice(rest.indexOf('/') + 1)) {
    if (bounds.fileBytes.has(rest)) return rest;
    if (!rest.includes('/')) return null;
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

/**
 * Writes the archive's files the manifest names under `dest` (other members are read past, never written),
 * within `bounds`: the first breach stops the unpacking and the caller removes what was written. Links and
 * devices are refused.
 */
async function unpack(archive: string, dest: string, bounds: UnpackBounds): Promise<void> {
  const extract = tar.extract();
  let entries = 0;
  let written = 0;
  extract.on('entry', (header, body: Readable, next) => {
    void (async () => {
      if (++entries > bounds.entries) throw new ModelImportError(msg('import_too_many_entries', { most: bounds.entries }));
      const name = safeName(header.name);
      const type = header.type ?? 'file';
      if (type === 'directory' || name === '' || name === '.') return void body.resume();
      if (type !== 'file' && type !== 'contiguous-file') throw new ModelImportError(msg('import_unsafe_path', { file: header.name }));
      const known = knownPath(name, bounds);
      if (!known) return void body.resume();
      const most = bounds.fileBytes.get(known)!;
      if ((header.size ?? 0) > most) throw new ModelImportError(msg('import_too_large', { file: name }));
      let own = 0;
      // The declared size may lie (a gzip expands as it likes): the bytes are counted as they come.
      const counted = new Transform({
        transform(chunk: Buffer, _enc, done) {
          own += chunk.length;
          written += chunk.length;
          if (own > most || written > bounds.totalBytes) return done(new ModelImportError(msg('import_too_large', { file: name })));
          done(null, chunk);
        },
      });
      await mkdir(dirname(join(dest, name)), { recursive: true });
      await pipeline(body, counted, createWriteStream(join(dest, name)));
    })().then(() => next(), (e: Error) => next(e));
  });
  const source = createReadStream(archive);
  try {
    await ((await isGzip(archive)) ? pipeline(source, createGunzip(), extract) : pipeline(source, extract));
  } catch (e) {
    if (e instanceof ModelImportError) throw e;
    // The reader's own words, never a path: the scratch folder lies in the data dir.
    throw new ModelImportError(msg('import_not_archive', { reason: withoutPaths((e as Error).message) }));
  }
}

/** A reason with any absolute path in it replaced (errors of the file system name the files they met). */
function withoutPaths(reason: string): string {
  return reason.replace(/(?:[A-Za-z]:)?[\\/][^\s'",]*/g, '…');
}

/** The unpacked folder, or its one subfolder when the archive wrapped everything in one (`tar -cf x.tar whisper-base`). */
async function contentRoot(dir: string): Promise<string> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.length === 1 && entries[0].isDirectory() ? contentRoot(join(dir, entries[0].name)) : dir;
}
