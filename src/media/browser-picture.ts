import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { MediaError, SourceError } from './errors.js';
import type { FileAccess } from './file-access.js';
import { browserJpeg } from './still-decode.js';
import { MAX_PICTURE_BYTES } from './still-image.js';

/**
 * Writes `target`, a JPEG every browser shows, from the still picture `source` (HEIC/HEIF, TIFF, …): read
 * through the file-access rule, its size checked before it is read, written beside the target under a
 * temporary name and renamed, so no reader ever sees half a picture. Throws MediaError (`unsupported_format`,
 * `not_media`) naming why the picture does not convert; SourceError(`not_found`) when the source or the
 * target's folder is gone.
 * @example
 * await writeBrowserPicture(files, '/data/collections/3/IMG_0001/v-0123456789ab/media.heic', '/data/collections/3/IMG_0001/v-0123456789ab/picture.jpg');
 */
export async function writeBrowserPicture(files: FileAccess, source: string, target: string): Promise<void> {
  const fh = await files.openCheckedFile(source).catch((err: unknown) => {
    throw err instanceof SourceError ? err : new SourceError('not_found', `${basename(source)} is gone`);
  });
  let bytes: Buffer;
  try {
    // Checked before it is read: a file grown past any picture's size is not read into memory.
    const { size } = await fh.stat();
    if (size > MAX_PICTURE_BYTES) throw new MediaError('unsupported_format', `the file is larger than ${MAX_PICTURE_BYTES / 1024 / 1024} MB, more than vidx reads as a picture`);
    bytes = await fh.readFile();
  } finally {
    await fh.close();
  }
  const jpeg = await browserJpeg(bytes);
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}`);
  try {
    await writeFile(temp, jpeg, { flag: 'wx' });
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    // The folder went away meanwhile (a re-index, a delete): there is nothing to show any more.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new SourceError('not_found', `the folder of ${basename(target)} is gone`);
    throw err;
  }
}
