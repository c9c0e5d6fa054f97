import { basename, extname } from 'node:path';

/** Where an item came from, as far as its name goes. */
export interface NamedSource {
  /** A path on the server, or the file name an upload was sent with. */
  fileName?: string | null;
  url?: string | null;
  /** The title of a video-sharing page (yt-dlp). */
  pageTitle?: string | null;
}

/** A file name without its folder and extension, spaces tidied; null when nothing is left. */
function stem(name: string): string | null {
  const base = basename(name);
  const ext = extname(base);
  const bare = (ext && ext.length < base.length ? base.slice(0, -ext.length) : base).replace(/[\p{Cc}\s]+/gu, ' ').trim();
  return bare ? bare.slice(0, 1000) : null;
}

/**
 * The name an item takes when its caller gives no title: the file name without extension (paths, folder
 * files, uploads), the page's title for a video-sharing page, else the last segment of the URL's path (its
 * host when the path is empty).
 * @example
 * sourceName({ fileName: '/media/trips/Beach day.mp4' }); // 'Beach day'
 * sourceName({ url: 'https://example.org/videos/birthday%20party.webm' }); // 'birthday party'
 */
export function sourceName(src: NamedSource): string | null {
  if (src.fileName) return stem(src.fileName);
  if (src.pageTitle?.trim()) return src.pageTitle.trim().slice(0, 1000);
  if (!src.url) return null;
  try {
    const url = new URL(src.url);
    const last = url.pathname.split('/').filter(Boolean).at(-1);
    let segment = last ?? '';
    try {
      segment = decodeURIComponent(segment);
    } catch {
      // A malformed escape stays as it was written.
    }
    return stem(segment) ?? url.hostname;
  } catch {
    return null;
  }
}
