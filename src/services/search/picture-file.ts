/**
 * A query picture named by a path on the server's machine (POST /search `image_path`): for agents and
 * scripts that run beside vidx (the MCP `search` tool over either transport). The server reads it under the
 * rule `video.path` of /index follows: inside VIDX_MEDIA_ROOTS, never in vidx's own folders, whichever key
 * asks; the opened file itself is checked again (a link swapped in between is refused).
 */
import { SourceError } from '../../media/errors.js';
import type { FileAccess } from '../../media/file-access.js';
import { resolveInsideRoots } from '../../media/source-path.js';
import type { Message } from '../../messages/index.js';
import { fieldProblem, type Problem } from '../errors.js';

/** A query picture is read whole into memory: 32 MiB holds any photo a person takes. */
export const MAX_QUERY_IMAGE_BYTES = 32 * 1024 * 1024;

/** Reads the picture at a path given by a caller; a path it may not read is a 422 naming `image_path`. */
export type PictureFileReader = (path: string) => Promise<Uint8Array>;

function refused(reason: string | Message): Problem {
  return fieldProblem('invalid', 'image_path', reason);
}

/**
 * The reader of one server: its media roots, with its data dir left out.
 * @example
 * const read = pictureFileReader(files, ['/home/me/Pictures'], '/home/me/.local/share/vidx');
 * const bytes = await read('/home/me/Pictures/beach.jpg');
 */
export function pictureFileReader(files: FileAccess, mediaRoots: readonly string[], dataDir: string): PictureFileReader {
  return async (path) => {
    let real: string;
    try {
      real = await resolveInsideRoots(files, path, mediaRoots, [dataDir]);
    } catch (err) {
      if (err instanceof SourceError) throw refused(err.text ?? err.message);
      throw err;
    }
    const fh = await files.openMediaFile(real).catch((err: unknown) => {
      throw err instanceof SourceError ? refused(err.text ?? err.message) : err;
    });
    try {
      const { size } = await fh.stat();
      if (size > MAX_QUERY_IMAGE_BYTES) throw refused(`the picture is ${size} bytes; at most ${MAX_QUERY_IMAGE_BYTES} are read`);
      return new Uint8Array(await fh.readFile());
    } finally {
      await fh.close();
    }
  };
}
