import { lstat, readdir, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { itemDir } from '../paths.js';

/**
 * Points the item's kept-media link (media.<ext> in its folder) at the file's new place after a move, so its
 * signed `/files/` links keep playing.
 * @example
 * await relinkMedia(dataDir, collection.pk, mediaId, '/srv/media/trips/phare.mp4');
 */
export async function relinkMedia(dataDir: string, collectionPk: number, mediaId: string, real: string): Promise<void> {
  const dir = itemDir(dataDir, collectionPk, mediaId);
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.startsWith('media.') || !(await lstat(join(dir, name))).isSymbolicLink()) continue;
    await rm(join(dir, name), { force: true });
    await symlink(real, join(dir, name));
  }
}
