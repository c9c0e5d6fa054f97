import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Context } from 'hono';
import type { z } from '@hono/zod-openapi';
import { Problem } from '../../../services/errors.js';
import { validationProblem } from '../../validation.js';

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
  maxUploadBytes: number;
  maxBodyBytes: number;
}

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
): Promise<{ value: z.output<S>; uploads: Upload[] }> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  let raw: string | undefined;
  let uploads: Upload[] = [];
  if (type.startsWith('multipart/form-data')) {
    ({ body: raw, uploads } = await readMultipart(c, limits));
  } else if (type.startsWith('application/x-www-form-urlencoded')) {
    raw = new URLSearchParams(await readText(c, limits.maxBodyBytes)).get('body') ?? undefined;
  } else if (type.startsWith('application/json')) {
    raw = await readText(c, limits.maxBodyBytes);
  } else {
    throw new Problem('unsupported', `content type "${type || 'none'}" is not accepted: send application/x-www-form-urlencoded or multipart/form-data with a field "body" holding JSON, or application/json`);
  }
  try {
    if (raw === undefined) throw new Problem('invalid', 'body: the form field "body" is required', [{ field: 'body', message: 'required' }]);
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (err) {
      throw new Problem('bad_request', `body: not valid JSON (${(err as Error).message})`, [{ field: 'body', message: 'not valid JSON' }]);
    }
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

async function readText(c: Context, max: number): Promise<string> {
  const body = c.req.raw.body;
  if (!body) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) throw new Problem('too_large', `request body is larger than ${max} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}

function readMultipart(c: Context, limits: FormLimits): Promise<{ body: string | undefined; uploads: Upload[] }> {
  const body = c.req.raw.body;
  if (!body) return Promise.reject(new Problem('bad_request', 'multipart request without a body'));
  mkdirSync(limits.uploadsDir, { recursive: true });
  const uploads: Upload[] = [];
  const writes: Promise<void>[] = [];
  let field: string | undefined;
  let failure: Problem | null = null;
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': c.req.header('content-type') ?? '' },
      limits: { fileSize: limits.maxUploadBytes, fieldSize: limits.maxBodyBytes, files: 16, fields: 16 },
    });
  } catch (err) {
    return Promise.reject(new Problem('bad_request', `multipart body: ${(err as Error).message}`));
  }
  parser.on('field', (name, value, info) => {
    if (info.valueTruncated) failure ??= new Problem('too_large', `form field "${name}" is larger than ${limits.maxBodyBytes} bytes`);
    if (name === 'body') field = value;
  });
  parser.on('file', (name, stream, info) => {
    const upload: Upload = {
      field: name,
      filename: info.filename ?? name,
      path: join(limits.uploadsDir, `${randomUUID()}.upload`),
      size: 0,
      mimeType: info.mimeType,
    };
    uploads.push(upload);
    stream.on('data', (chunk: Buffer) => (upload.size += chunk.length));
    stream.on('limit', () => {
      failure ??= new Problem('too_large', `upload "${upload.filename}" is larger than the limit of ${limits.maxUploadBytes} bytes`);
    });
    writes.push(pipeline(stream, createWriteStream(upload.path)));
  });
  const source = Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
  return pipeline(source, parser)
    .then(() => Promise.all(writes))
    .then(() => {
      if (failure) throw failure;
      return { body: field, uploads };
    })
    .catch((err: unknown) => {
      removeUploads(uploads);
      if (err instanceof Problem) throw err;
      throw new Problem('bad_request', `multipart body could not be read: ${(err as Error).message}`);
    });
}
