import { msg } from '../../messages/index.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { thumbnailProblem } from '../../media/delivered-picture.js';
import { Problem } from '../errors.js';
import { DELIVERED_FILE } from './wire.js';

/**
 * Checks the files of a delivery before anything of it is committed: each one sent must be a JPEG or WebP
 * thumbnail or face crop of a sane size that decodes (a name listed but not sent is dropped later, as before).
 * Throws 422 `bad_thumbnail` naming the file.
 * @example
 * await checkDeliveredFiles(stagedDir, ['ep-0.jpg', 'face-0.jpg']);
 */
export async function checkDeliveredFiles(dir: string, files: string[]): Promise<void> {
  for (const name of new Set(files)) {
    const path = join(dir, name);
    if (!DELIVERED_FILE.test(name) || !existsSync(path)) continue;
    const why = await thumbnailProblem(path);
    if (why) throw new Problem('invalid', msg('delivered_file_refused', { file: name, reason: msg('as_given', { text: why }) }), [{ field: `files.${name}`, message: msg('as_given', { text: why }) }], 'bad_thumbnail');
  }
}
