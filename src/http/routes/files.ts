import { msg } from '../../messages/index.js';
import { extname } from 'node:path';
import { createRoute, z } from '@hono/zod-openapi';
import type { App, HttpDeps } from '../env.js';
import { errors, PUBLIC } from '../schemas/common.js';
import { Problem } from '../../services/errors.js';
import { fileResponse } from '../send-file.js';

const TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp', '.gif': 'image/gif', '.avif': 'image/avif',
  '.heic': 'image/heic', '.heif': 'image/heif', '.tif': 'image/tiff', '.tiff': 'image/tiff',
  '.mp4': 'video/mp4', '.m4v': 'video/mp4', '.mov': 'video/quicktime', '.webm': 'video/webm', '.mkv': 'video/x-matroska',
  '.mp3': 'audio/mpeg', '.m4a': 'audio/mp4', '.wav': 'audio/wav', '.ogg': 'audio/ogg',
};

const fileRoute = createRoute({
  method: 'get', path: '/files/{path}', operationId: 'getFile', tags: ['files'], security: PUBLIC,
  summary: 'A thumbnail or stored media file by a signed link (no key: the link carries its signature)',
  description:
    'Links come from API answers (thumbnail_url, image_url, src, picture_url, cover_url …), valid 24 h; `path` may contain slashes. HTTP range requests are answered with 206. A photo\'s `picture_url` for a format browsers do not show (HEIC/HEIF, TIFF) is a JPEG made from the kept file on its first request and kept; 422 (code `unsupported_format`) when it cannot be made.',
  request: {
    params: z.object({ path: z.string().openapi({ param: { name: 'path', in: 'path' }, description: 'Path of the file under the data dir, as the link has it' }) }),
    query: z.object({
      exp: z.string().openapi({ description: 'Expiry, Unix seconds' }),
      sig: z.string().openapi({ description: 'HMAC signature of the path and expiry' }),
    }),
    headers: z.object({ range: z.string().optional().openapi({ description: 'One byte range, e.g. bytes=0-1023' }) }),
  },
  responses: {
    200: { description: 'The whole file', content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary', description: 'image/jpeg, video/mp4 … by the file' }) } } },
    206: { description: 'The requested range', content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } } },
    ...errors(400, 403, 404, 422),
    416: { description: 'The range lies outside the file (content-range names its size)' },
  },
});

function decodePath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new Problem('bad_request', msg('file_link_malformed'));
  }
}

/**
 * GET /files/<path>?exp=&sig=: the stored thumbnails, crops and media of items, opened by a signed link
 * (no key header, so a browser <img> or <video> works), with HTTP range requests for players. What may be
 * served, and the check of the opened file, are the ServedFiles service's.
 * @example
 * fileRoutes(app, deps); // <img src="http://127.0.0.1:8484/files/collections/1/clip/thumb.jpg?exp=..&sig=..">
 */
export function fileRoutes(app: App, deps: HttpDeps): void {
  app.openAPIRegistry.registerPath(fileRoute);
  app.get('/files/*', async (c) => {
    const rel = decodePath(c.req.path.slice('/files/'.length));
    const exp = Number(c.req.query('exp'));
    const sig = c.req.query('sig') ?? '';
    const key = c.req.query('k');
    if (!deps.links.verify(rel, exp, sig, key)) throw new Problem('forbidden', msg('link_signature_invalid'));
    const fh = await deps.servedFiles.open(rel, key);
    return fileResponse(fh, c.req.header('range'), TYPES[extname(rel).toLowerCase()] ?? 'application/octet-stream');
  });
}
