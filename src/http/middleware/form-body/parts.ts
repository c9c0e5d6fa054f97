import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Context } from 'hono';
import { Problem } from '../../../services/errors.js';
import { isClientAbort } from '../../errors.js';
import { msg } from '../../../messages/index.js';

/** One part of a multipart request, in the order it came: a field (read whole, up to its limit) or a file (a stream to read). */
export type Part =
  | { kind: 'field'; name: string; value: string; truncated: boolean }
  | { kind: 'file'; name: string; filename: string; mimeType: string; stream: Readable };

/** Limits of a multipart request read part by part. */
export interface PartLimits {
  /** Bytes of the whole request; past it reading stops at once with `tooLarge`. */
  maxBytes: number;
  /** Bytes of one field's value (past it the field comes `truncated`). */
  fieldBytes: number;
  maxFiles: number;
  maxFields: number;
  /** The problem of a request past `maxBytes`. */
  tooLarge: () => Problem;
}

/** Counts the request's bytes and fails at once past the limit. */
function counter(max: number, onOver: () => Problem): Transform {
  let total = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      total += chunk.length;
      cb(total > max ? onOver() : null, chunk);
    },
  });
}

/**
 * The parts of a multipart/form-data request one at a time, for a reader that handles each before the next
 * is read (busboy waits while a file part is not read on: nothing piles up in memory). The request's bytes
 * are counted as they come: past `maxBytes` reading stops and the iteration throws `tooLarge()`; more file
 * parts or fields than allowed throw 413 naming the limit. A reader that refuses a part calls `stop()`:
 * nothing more of the request is read (answer it with `Connection: close`). When reading a part's stream
 * fails, `failure()` is the reason (the request's limit, the client gone) where there is one.
 * @example
 * const { parts, stop } = multipartParts(c, limits);
 * for await (const part of parts) if (part.kind === 'file') await save(part.stream);
 */
export function multipartParts(c: Context, limits: PartLimits): { parts: AsyncGenerator<Part>; stop: () => void; failure: () => unknown } {
  const body = c.req.raw.body;
  if (!body) throw new Problem('bad_request', msg('multipart_without_body'));
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': c.req.header('content-type') ?? '' },
      limits: { fieldSize: limits.fieldBytes, files: limits.maxFiles, fields: limits.maxFields },
      defParamCharset: 'utf8',
    });
  } catch (err) {
    throw new Problem('bad_request', msg('multipart_unreadable', { reason: msg('as_given', { text: (err as Error).message }) }));
  }
  const queue: Part[] = [];
  let failure: unknown = null;
  let finished = false;
  let wake: (() => void) | null = null;
  const poke = () => {
    wake?.();
    wake = null;
  };
  const fail = (err: unknown) => {
    failure ??= err;
    poke();
  };
  parser.on('field', (name, value, info) => {
    queue.push({ kind: 'field', name, value, truncated: info.valueTruncated });
    poke();
  });
  parser.on('file', (name, stream, info) => {
    queue.push({ kind: 'file', name, filename: info.filename ?? name, mimeType: info.mimeType, stream });
    poke();
  });
  parser.on('filesLimit', () => fail(new Problem('too_large', msg('multipart_too_many_files', { max: limits.maxFiles }))));
  parser.on('fieldsLimit', () => fail(new Problem('too_large', msg('multipart_too_many_fields', { max: limits.maxFields }))));
  const source = Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
  const count = counter(limits.maxBytes, limits.tooLarge);
  pipeline(source, count, parser).then(
    () => {
      finished = true;
      poke();
    },
    (err: unknown) => {
      if (err instanceof Problem || isClientAbort(err)) fail(err);
      else fail(new Problem('bad_request', msg('multipart_unreadable', { reason: msg('as_given', { text: (err as Error).message }) })));
    },
  );
  const stop = () => {
    // Not read on: the rest stays in the connection, which the answer closes.
    source.unpipe();
    source.pause();
    parser.removeAllListeners('file');
    fail(new Error('stopped'));
  };
  async function* parts(): AsyncGenerator<Part> {
    for (;;) {
      if (failure) throw failure;
      const next = queue.shift();
      if (next) yield next;
      else if (finished) return;
      else await new Promise<void>((r) => (wake = r));
    }
  }
  // A part's stream breaks off when the request does: `failure()` says why (the limit, the client gone).
  return { parts: parts(), stop, failure: () => failure };
}
