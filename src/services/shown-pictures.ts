import { randomBytes } from 'node:crypto';
import { readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import PQueue from 'p-queue';
import type { FileAccess } from '../media/file-access.js';
import { MediaError } from '../media/errors.js';
import { browserJpeg } from '../media/still-decode.js';
import { MAX_PICTURE_BYTES } from '../media/still-image.js';
import { msg } from '../messages/index.js';
import { Problem } from './errors.js';

/** The name of a photo's picture for browsers, beside the kept media in the item's version folder. */
export const SHOWN_PICTURE = 'picture.jpg';

/** Kept media every browser shows as it is (by its extension, which is the uploaded or indexed file's). */
const SHOWN_AS_IS = new Set(['.jpg', '.jpeg', '.png', '.webp', '.gif', '.avif']);

/**
 * The stored file a browser is shown for a photo's kept media: the media itself when browsers show its format,
 * else the JPEG made from it beside it ({@link SHOWN_PICTURE}: HEIC/HEIF, TIFF, a name without a picture
 * extension). Paths relative to the data dir.
 * @example
 * shownPicturePath('collections/3/IMG_0001/v-0123456789ab/media.heic'); // 'collections/3/IMG_0001/v-0123456789ab/picture.jpg'
 * shownPicturePath('collections/3/sign/v-0123456789ab/media.jpg'); // the same path
 */
export function shownPicturePath(stored: string): string {
  return SHOWN_AS_IS.has(extname(stored).toLowerCase()) ? stored : join(dirname(stored), SHOWN_PICTURE);
}

/**
 * Makes the browser's picture of a photo whose format browsers do not show, once: on the first request for
 * it, from the kept media in the same version folder (read through the file-access rule), written beside it
 * through a temporary file and a rename, so a re-index or a crash never leaves half a picture. Requests for
 * the same picture while it is made wait for that one conversion; conversions run one at a time, as a 12-MP
 * HEIC takes some 130 MB while it is decoded and encoded.
 * @example
 * await shown.make('/data/collections/3/IMG_0001/v-0123456789ab/picture.jpg');
 */
export class ShownPictures {
  private readonly making = new Map<string, Promise<void>>();
  private readonly queue = new PQueue({ concurrency: 1 });

  constructor(private readonly files: FileAccess) {}

  /** Whether `path` names a picture this makes (its name is {@link SHOWN_PICTURE}). */
  makes(path: string): boolean {
    return basename(path) === SHOWN_PICTURE;
  }

  /**
   * Writes `path` from the kept media beside it. Throws Problem: `not_found` without kept media there,
   * `invalid` (422, code `unsupported_format` or `not_media`) naming why the media does not convert (cut off,
   * damaged, too large).
   */
  make(path: string): Promise<void> {
    let running = this.making.get(path);
    if (!running) {
      running = this.queue.add(() => this.convert(path)).finally(() => this.making.delete(path));
      this.making.set(path, running);
    }
    return running;
  }

  private async convert(path: string): Promise<void> {
    const dir = dirname(path);
    const media = (await readdir(dir).catch(() => [] as string[])).find((n) => n.startsWith('media.') || n === 'media');
    if (!media) throw new Problem('not_found', msg('file_not_found'));
    const fh = await this.files.openCheckedFile(join(dir, media)).catch(() => null);
    if (!fh) throw new Problem('not_found', msg('file_not_found'));
    let bytes: Buffer;
    try {
      // Checked before it is read: a file grown past any picture's size is not read into memory.
      const { size } = await fh.stat();
      if (size > MAX_PICTURE_BYTES) throw new Problem('invalid', msg('picture_not_shown', { reason: msg('picture_too_large', { limit: MAX_PICTURE_BYTES / 1024 / 1024 }) }), [], 'unsupported_format');
      bytes = await fh.readFile();
    } finally {
      await fh.close();
    }
    let jpeg: Buffer;
    try {
      jpeg = await browserJpeg(bytes);
    } catch (err) {
      if (err instanceof MediaError) throw new Problem('invalid', msg('picture_not_shown', { reason: msg('as_given', { text: err.message }) }), [], err.code);
      throw err;
    }
    const temp = join(dir, `.${SHOWN_PICTURE}.${randomBytes(4).toString('hex')}`);
    try {
      await writeFile(temp, jpeg, { flag: 'wx' });
      await rename(temp, path);
    } catch (err) {
      await rm(temp, { force: true });
      // The version folder went away meanwhile (a re-index, a delete): there is nothing to show any more.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Problem('not_found', msg('file_not_found'));
      throw err;
    }
  }
}
