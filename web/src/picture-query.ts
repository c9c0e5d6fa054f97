/**
 * Search by picture in the page: a picture dropped, pasted or picked is held here by an id the route carries
 * (`?img=`), because a file cannot go into a link; "more like this" goes into the route as it is
 * (`?like=<media_id>&at=<seconds>`), so such a search is a link like any other.
 */
import type { LikeMoment } from './api.js';
import type { TextKey } from './i18n.js';

/** What POST /search decodes (SVG and anything else is refused there too). */
export const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/heif', 'image/heic', 'image/tiff', 'image/gif'];

/** The server reads at most this much of a query picture. */
const MAX_PICTURE_BYTES = 32 * 1024 * 1024;

/** Pictures kept for back and forward; older ones are let go. */
const KEEP = 8;
const held = new Map<string, File>();
let next = 0;

/**
 * Keeps a picture for this tab and returns the id a search link carries.
 * @example
 * go(href('search', { img: holdPicture(file) }));
 */
export function holdPicture(file: File): string {
  const id = `${Date.now().toString(36)}${(next++).toString(36)}`;
  held.set(id, file);
  for (const old of held.keys()) if (held.size > KEEP) held.delete(old);
  return id;
}

/**
 * The picture an id stands for; undefined after a reload (it was never in the link).
 * @example
 * const file = heldPicture(route.params.get('img') ?? '');
 */
export function heldPicture(id: string): File | undefined {
  return held.get(id);
}

/**
 * Why a file cannot be searched by (the text's name; the text takes the file's name), or null when it can.
 * @example
 * const why = pictureProblem(file); if (why) setError(t(why, file.name));
 */
export function pictureProblem(file: Pick<File, 'type' | 'size'>): Extract<TextKey, 'notAPicture' | 'pictureTooLarge'> | null {
  if (!PICTURE_TYPES.includes(file.type)) return 'notAPicture';
  if (file.size > MAX_PICTURE_BYTES) return 'pictureTooLarge';
  return null;
}

/**
 * The first file of a drop or a paste, if it brought one.
 * @example
 * const file = transferredFile(e.dataTransfer);
 */
export function transferredFile(data: DataTransfer | null): File | null {
  if (!data) return null;
  if (data.files.length) return data.files[0]!;
  for (const item of data.items) {
    const file = item.kind === 'file' ? item.getAsFile() : null;
    if (file) return file;
  }
  return null;
}

/**
 * The `like` moment a route names (`like=<media_id>&at=<seconds>`), if any.
 * @example
 * likeOf(new URLSearchParams('like=clip&at=12.5')); // { media_id: 'clip', start_time: 12.5 }
 */
export function likeOf(params: URLSearchParams): LikeMoment | undefined {
  const mediaId = params.get('like');
  const at = Number(params.get('at') ?? 0);
  return mediaId ? { media_id: mediaId, start_time: Number.isFinite(at) && at > 0 ? at : 0 } : undefined;
}

/**
 * The route fields of a `like` moment (its time to a tenth of a second).
 * @example
 * href('c', 'trips', 'search', likeParams('clip', 12.54)); // '#/c/trips/search?like=clip&at=12.5'
 */
export function likeParams(mediaId: string, at: number): { like: string; at: number } {
  return { like: mediaId, at: Math.round(at * 10) / 10 };
}
