/**
 * An open file as an HTTP answer with single-range support (206, 416), streamed from the descriptor that
 * was opened and checked (never the name again).
 */
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';

/** Parses a single `bytes=a-b` range; null means "send everything", undefined means unsatisfiable. */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | undefined {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  return start > end || start >= size ? undefined : { start, end };
}

/**
 * The answer for an open file: whole (200), the range asked for (206), or 416 for a range outside it; the
 * handle is closed when the body has been sent (or at once when there is none).
 * @example
 * return fileResponse(await servedFiles.open(rel), c.req.header('range'), 'image/jpeg');
 */
export async function fileResponse(fh: FileHandle, rangeHeader: string | undefined, contentType: string): Promise<Response> {
  const { size } = await fh.stat();
  const headers: Record<string, string> = { 'content-type': contentType, 'accept-ranges': 'bytes', 'cache-control': 'private, max-age=3600' };
  const range = parseRange(rangeHeader, size);
  if (range === undefined || size === 0) await fh.close();
  if (range === undefined) return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${size}` } });
  const { start, end } = range ?? { start: 0, end: size - 1 };
  const length = size === 0 ? 0 : end - start + 1;
  const body = size === 0 ? null : (Readable.toWeb(fh.createReadStream({ start, end })) as ReadableStream);
  if (range) headers['content-range'] = `bytes ${start}-${end}/${size}`;
  headers['content-length'] = String(length);
  return new Response(body, { status: range ? 206 : 200, headers });
}
