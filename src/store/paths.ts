import { join } from 'node:path';

/**
 * Folder of a collection's stored files (thumbnails, kept media) under the data dir.
 * @example
 * collectionDir('/data', 3); // '/data/collections/3'
 */
export function collectionDir(dataDir: string, collectionPk: number): string {
  return join(dataDir, 'collections', String(collectionPk));
}

/**
 * Folder of one item's stored files.
 * @example
 * itemDir('/data', 3, 'clip-1'); // '/data/collections/3/clip-1'
 */
export function itemDir(dataDir: string, collectionPk: number, mediaId: string): string {
  return join(collectionDir(dataDir, collectionPk), mediaId);
}

/**
 * Folder where multipart uploads are streamed before a task takes them.
 * @example
 * uploadsDir('/data'); // '/data/uploads'
 */
export function uploadsDir(dataDir: string): string {
  return join(dataDir, 'uploads');
}
