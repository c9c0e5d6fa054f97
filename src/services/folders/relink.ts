import { lstat, rename, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Points the item's kept-media link (its stored file, `…/media.<ext>` in its version folder) at the file's
 * new place after a move, so its signed `/files/` links keep playing. The new link replaces the old one in
 * one rename; a kept upload (not a link) is left alone.
 * @example
 * await relinkMedia(dataDir, 'collections/3/clip/v-0123456789ab/media.mp4', '/srv/media/trips/phare.mp4');
 */
export async function relinkMedia(dataDir: string, storedFile: string | null, real: string): Promise<void> {
  if (!storedFile) return;
  const link = join(dataDir, storedFile);
  if (!(await lstat(link).catch(() => null))?.isSymbolicLink()) return;
  const next = `${link}.next`;
  await rm(next, { force: true });
  await symlink(real, next);
  await rename(next, link);
}
