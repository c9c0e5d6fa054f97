import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Vidx } from '../../src/server.js';
import { itemDir } from '../../src/store/paths.js';
import { v7 as uuid7 } from 'uuid';

/**
 * Puts media items straight into a collection through the item repository, as indexing will,
 * with a small JPEG-named thumbnail file, so item endpoints can be tested before indexing exists.
 * @example
 * seedItems(s.vidx, s.dataDir, 'trips', 25);
 */
export function seedItems(vidx: Vidx, dataDir: string, collectionId: string, count: number, prefix = 'clip'): string[] {
  const collection = vidx.store.collections.findById(collectionId);
  if (!collection) throw new Error(`no collection ${collectionId}`);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const mediaId = `${prefix}-${String(i).padStart(3, '0')}`;
    const dir = itemDir(dataDir, collection.pk, mediaId);
    mkdirSync(dir, { recursive: true });
    const thumb = join(dir, 'thumb.jpg');
    writeFileSync(thumb, Buffer.from(`thumbnail of ${mediaId}`));
    const at = new Date().toISOString();
    vidx.store.items.insert({
      cursor: uuid7(),
      collection_pk: collection.pk,
      media_id: mediaId,
      type: 'video',
      title: `Clip ${i}`,
      src: `https://example.invalid/${mediaId}.mp4`,
      thumbnail: relative(dataDir, thumb),
      duration: 10 + i,
      additional_metadata: JSON.stringify({ n: i }),
      created_at: at,
      updated_at: at,
    });
    ids.push(mediaId);
  }
  return ids;
}
