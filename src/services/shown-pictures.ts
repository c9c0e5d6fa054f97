import { readdir } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { MediaError, SourceError } from '../media/errors.js';
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
 * A photo's `picture_url`: `src` itself when browsers show the kept file (the very same link, so a page can
 * tell the two apart by comparing them), a link to its browser JPEG otherwise; `src` for a URL source.
 * @example
 * pictureLink(stored, src, (p) => links.file(p)); // '…/files/collections/3/IMG_0001/v-…/picture.jpg?exp=…'
 */
export function pictureLink(stored: string | null | undefined, src: string | null, link: (stored: string) => string | null): string | null {
  if (!stored) return src;
  const shown = shownPicturePath(stored);
  return shown === stored ? src : link(shown);
}

/** Writes a browser's JPEG of a kept picture (writeBrowserPicture, run off the request loop: a HEIC decodes in WebAssembly, synchronously). */
export type PictureWriter = (input: { source: string; target: string }) => Promise<void>;

/**
 * Makes the browser's picture of a photo whose format browsers do not show, once: on the first request for
 * it, from the kept media in the same version folder. Requests for the same picture while it is made wait for
 * that one conversion; the writer runs them one at a time (the server's job thread), as a 12-MP HEIC takes
 * some 130 MB and most of a second while it is decoded and encoded.
 * @example
 * await shown.make('/data/collections/3/IMG_0001/v-0123456789ab/picture.jpg');
 */
export class ShownPictures {
  private readonly making = new Map<string, Promise<void>>();

  constructor(private readonly write: PictureWriter) {}

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
      running = this.convert(path).finally(() => this.making.delete(path));
      this.making.set(path, running);
    }
    return running;
  }

  private async convert(target: string): Promise<void> {
    const dir = dirname(target);
    const media = (await readdir(dir).catch(() => [] as string[])).find((n) => n === 'media' || n.startsWith('media.'));
    if (!media) throw new Problem('not_found', msg('file_not_found'));
    try {
      await this.write({ source: join(dir, media), target });
    } catch (err) {
      if (err instanceof MediaError) throw new Problem('invalid', msg('picture_not_shown', { reason: msg('as_given', { text: err.message }) }), [], err.code);
      if (err instanceof SourceError) throw new Problem('not_found', msg('file_not_found'));
      throw err;
    }
  }
}
