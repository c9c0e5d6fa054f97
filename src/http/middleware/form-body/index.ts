import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Context } from 'hono';
import type { z } from '@hono/zod-openapi';
import { Problem } from '../../../services/errors.js';
import { isClientAbort } from '../../errors.js';
import { validationProblem } from '../../validation.js';
import { formField, parseRequestJson, utf8Text } from '../../json-body.js';
import { msg } from '../../../messages/index.js';

/** A file part of a multipart request, already on disk. */
export interface Upload {
  field: string;
  filename: string;
  path: string;
  size: number;
  mimeType: string;
}

/** Limits for reading a form body. */
export interface FormLimits {
  uploadsDir: string;
  /** Largest multipart request, all parts together (VIDX_MAX_UPLOAD_MB). */
  maxUploadBytes: number;
  maxBodyBytes: number;
  /** File parts one request may carry (default 16). */
  maxFiles?: number;
}

/** File parts one multipart request may carry unless FormLimits.maxFiles says otherwise. */
const MAX_FILE_PARTS = 16;

/** Non-file fields one multipart request may carry (only `body` is read). */
const MAX_FIELDS = 16;

/** The names of the file parts a parsed `body` asks for (by file name or part name); other parts are refused. */
export type ReferencedFiles = (body: unknown) => string[];

/**
 * Reads the SPEC's form convention — a field `body` holding JSON, sent as
 * application/x-www-form-urlencoded or multipart/form-data (with file parts streamed to disk) —
 * or a plain JSON body, and validates it with `schema`. Upload files are deleted when anything fails.
 * @example
 * const { value, uploads } = await readFormBody(c, IndexBody, limits);
 */
export async function readFormBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  limits: FormLimits,
  referenced: ReferencedFiles = () => [],
): Promise<{ value: z.output<S>; uploads: Upload[] }> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  let raw: string | undefined;
  let uploads: Upload[] = [];
  if (type.startsWith('multipart/form-data')) {
    ({ body: raw, uploads } = await readMultipart(c, limits, referenced));
  } else if (type.startsWith('application/x-www-form-urlencoded')) {
    raw = formField(await readText(c, limits.maxBodyBytes), 'body');
  } else if (type.startsWith('application/json')) {
    raw = await readText(c, limits.maxBodyBytes);
  } else {
    throw new Problem('unsupported', msg('content_type_refused', { type: type || 'none' }));
  }
  try {
    if (raw === undefined) throw new Problem('invalid', msg('form_body_required'), [{ field: 'body', message: msg('required') }]);
    const json = parseRequestJson(raw, 'body');
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw validationProblem(parsed.error.issues);
    return { value: parsed.data, uploads };
  } catch (err) {
    removeUploads(uploads);
    throw err;
  }
}

/**
 * Deletes upload files that no task took over.
 * @example
 * removeUploads(uploads.filter((u) => u !== used));
 */
export function removeUploads(uploads: Upload[]): void {
  for (const u of uploads) rmSync(u.path, { force: true });
}

/** The body as strict UTF-8 text, read through Hono's body cache (strictJsonBodies may have read it already). */
async function readText(c: Context, max: number): Promise<string> {
  if (!c.req.raw.body) return '';
  const bytes = await c.req.arrayBuffer();
  if (bytes.byteLength > max) throw new Problem('too_large', msg('body_too_large', { max }));
  return utf8Text(bytes, 'body');
}

function parsedOrNull(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

/** Counts the request's bytes and stops it at the limit, whatever part they belong to. */
function requestLimit(max: number, onOver: () => Problem): Transform {
  let total = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      total += chunk.length;
      cb(total > max ? onOver() : null, chunk);
    },
  });
}

/** busboy skips the parts past its limits without a word; a request that has more is refused instead, naming the limit. */
function refuseOverLimits(parser: busboy.Busboy, maxFiles: number, stop: (problem: Problem) => void): void {
  parser.on('filesLimit', () => stop(new Problem('too_large', msg('multipart_too_many_files', { max: maxFiles }))));
  parser.on('fieldsLimit', () => stop(new Problem('too_large', msg('multipart_too_many_fields', { max: MAX_FIELDS }))));
}

function readMultipart(c: Context, limits: FormLimits, referenced: ReferencedFiles): Promise<{ body: string | undefined; uploads: Upload[] }> {
  const body = c.req.raw.body;
  if (!body) return Promise.reject(new Problem('bad_request', msg('multipart_without_body')));
  mkdirSync(limits.uploadsDir, { recursive: true, mode: 0o700 });
  const uploads: Upload[] = [];
  const writes: Promise<void>[] = [];
  let field: string | undefined;
  let wanted: Set<string> | null = null;
  let current: string | null = null;
  let failure: Problem | null = null;
  const source = Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
  // After a refused part nothing more is stored; the rest is read and dropped (bounded by the request limit).
  const stop = (problem: Problem): void => {
    failure ??= problem;
  };
  const maxFiles = limits.maxFiles ?? MAX_FILE_PARTS;
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': c.req.header('content-type') ?? '' },
      limits: { fieldSize: limits.maxBodyBytes, files: maxFiles, fields: MAX_FIELDS },
      // Browsers send a part's filename= as raw UTF-8 bytes; busboy would read them as Latin-1 and turn
      // `Grüße` into `GrÃ¼Ã e`. An RFC 5987 filename*=UTF-8''… is decoded by its own charset and wins.
      defParamCharset: 'utf8',
    });
  } catch (err) {
    return Promise.reject(new Problem('bad_request', msg('multipart_unreadable', { reason: msg('as_given', { text: (err as Error).message }) })));
  }
  parser.on('field', (name, value, info) => {
    if (info.valueTruncated) failure ??= new Problem('too_large', msg('form_field_too_large', { name, max: limits.maxBodyBytes }));
    if (name === 'body') {
      // busboy has already decoded the part, replacing bytes that are not UTF-8 with U+FFFD: refused like
      // the same bytes in a JSON or url-encoded body.
      if (value.includes('\ufffd')) failure ??= new Problem('bad_request', msg('form_body_not_utf8'), [{ field: 'body', message: msg('not_utf8') }]);
      field = value;
      wanted = new Set(referenced(parsedOrNull(value)));
    }
  });
  refuseOverLimits(parser, maxFiles, stop);
  parser.on('file', (name, stream, info) => {
    const filename = info.filename ?? name;
    if (failure) return void stream.resume();
    if (!wanted) {
      stream.resume();
      return stop(new Problem('invalid', msg('body_before_files', { file: filename }), [{ field: 'body', message: msg('must_come_before_files') }]));
    }
    if (!wanted.has(filename) && !wanted.has(name)) {
      stream.resume();
      if (!wanted.size) return stop(new Problem('invalid', msg('file_part_not_taken', { file: filename })));
      return stop(new Problem('invalid', msg('file_part_not_named', { file: filename }), [{ field: 'video.content', message: msg('names_not_part', { file: filename }) }]));
    }
    const upload: Upload = {
      field: name,
      filename,
      path: join(limits.uploadsDir, `${randomUUID()}.upload`),
      size: 0,
      mimeType: info.mimeType,
    };
    uploads.push(upload);
    current = filename;
    stream.on('data', (chunk: Buffer) => (upload.size += chunk.length));
    writes.push(pipeline(stream, createWriteStream(upload.path, { mode: 0o600 })));
  });
  // The body field is allowed its own limit even where no file is taken (maxUploadBytes 0).
  const max = Math.max(limits.maxUploadBytes, limits.maxBodyBytes);
  const overall = requestLimit(max, () => {
    failure ??= new Problem('too_large', current ? msg('upload_too_large', { file: current, max }) : msg('request_too_large', { max }));
    return failure;
  });
  return pipeline(source, overall, parser)
    .then(() => Promise.all(writes))
    .then(() => {
      if (failure) throw failure;
      return { body: field, uploads };
    })
    .catch(async (err: unknown) => {
      await Promise.allSettled(writes);
      removeUploads(uploads);
      if (failure) throw failure;
      // A client that went away is the error handler's quiet case, not a malformed body.
      if (err instanceof Problem || isClientAbort(err)) throw err;
      throw new Problem('bad_request', msg('multipart_unreadable', { reason: msg('as_given', { text: (err as Error).message }) }));
    });
}
