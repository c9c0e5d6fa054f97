/**
 * What services hand out for a stored file: a link a browser can open without the key header. Services know
 * no URL path; the HTTP layer implements this (src/http/file-links.ts, signed `/files/…` links).
 * @example
 * const thumbnail = links.file('collections/3/clip/v-0123456789ab/ep-0.jpg'); // a signed URL, or null
 */
export interface FileLinks {
  /**
   * A link to a file given relative to the data dir (or absolute inside it); null when outside. `forKey` binds
   * the link to the key it is handed to: it stops when that key is revoked.
   */
  file(stored: string, forKey?: string): string | null;
}
