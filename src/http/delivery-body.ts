/**
 * Reads a worker's delivery (POST /worker/jobs/{job_id}/result) as it streams in, never more of it at once
 * than one JSON line: the `body` part line by line (services/jobs/delivery-lines.ts), each line parsed,
 * checked against its list's schema and written to the delivery's folder, then the thumbnails and face
 * crops, each to a file of its own. The whole request is counted while it comes: past the limit reading
 * stops at once (413). The first line names the worker and the files, and is handed to `onHead` before
 * anything else is read (a delivery under another worker's name is refused then).
 */
import { once } from 'node:events';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Context } from 'hono';
import type { z } from '@hono/zod-openapi';
import type { StoredAnalysis } from '../analysis/cache.js';
import { MAX_THUMBNAIL_BYTES } from '../media/delivered-picture.js';
import { msg } from '../messages/index.js';
import { listAt, type DeliveryHead } from '../services/jobs/delivery-lines.js';
import { DELIVERED_FILE } from '../services/jobs/wire.js';
import { Problem } from '../services/errors.js';
import { TimeSlices } from '../tools/time-slices.js';
import { isClientAbort } from './errors.js';
import { parseRequestJson, utf8Text } from './json-body.js';
import { multipartParts, type Part } from './middleware/form-body/parts.js';
import { AddLine, DeliveryBody, DELIVERY_LIMITS, DELIVERY_LISTS } from './schemas/workers.js';
import { validationProblem } from './validation.js';

/** A delivery as read: what it says, its analysis put together, and the folder holding its files and lines. */
export interface ReadDelivery extends DeliveryHead {
  analysis: StoredAnalysis;
  /** The delivery's own folder: its thumbnails and face crops by name, and `delivery.jsonl`. */
  dir: string;
  /** Its checked lines, as they will be kept until its task takes them. */
  lines: string;
}

/** Fields besides `body` a delivery may carry (they are not read). */
const MAX_FIELDS = 16;

const L = DELIVERY_LIMITS;

/** Whether a `body` file part holds JSON lines (else it is one JSON object). */
const isLines = (p: Extract<Part, { kind: 'file' }>) => /ndjson|jsonl|json-seq/i.test(p.mimeType) || /\.jsonl$/i.test(p.filename);

type Timed = { text: string };
type Visual = { summary: string; ocr: string[]; tags: string[] };

/** Characters of an episode's own lines and visual entries (what it holds before the item-wide lines are filed with it). */
const ownText = (audio: Timed[], visual: Visual[]) =>
  audio.reduce((n, a) => n + a.text.length, 0) + visual.reduce((n, v) => n + v.summary.length + v.ocr.reduce((m, o) => m + o.length, 0) + v.tags.reduce((m, t) => m + t.length, 0), 0);

/** The delivery's lines as they are checked, put together and written down. */
class LineReader {
  head: (DeliveryHead & { analysis: StoredAnalysis }) | null = null;
  private count = 0;
  /** Characters of each episode's own text so far: past the bound, reading stops (the item-wide lines are added at the end, services/jobs/delivery-checks.ts). */
  private readonly episodeText: number[] = [];

  constructor(
    private readonly out: WriteStream,
    private readonly onHead: (head: DeliveryHead) => void,
  ) {}

  /** One line of JSON text (the first: the delivery itself; the others: items for one list). */
  async line(text: string): Promise<void> {
    if (text.trim() === '') return;
    this.count++;
    const written = this.head ? this.add(text) : this.first(text);
    if (this.out.errored) throw this.out.errored;
    if (!this.out.write(`${written}\n`)) await once(this.out, 'drain');
  }

  private first(text: string): string {
    const parsed = DeliveryBody.safeParse(parseRequestJson(text, 'body'));
    if (!parsed.success) throw validationProblem(parsed.error.issues);
    const value = parsed.data as unknown as DeliveryHead & { analysis: StoredAnalysis };
    this.onHead({ worker: value.worker, files: value.files });
    this.head = value;
    for (const e of value.analysis.episodes) this.grow(this.episodeText.length, e.summary.length + ownText(e.audio, e.visual));
    return JSON.stringify(value);
  }

  /** Counts text for episode `n` (its place in the list), and refuses the delivery once the episode holds too much. */
  private grow(n: number, chars: number): void {
    const size = (this.episodeText[n] ?? 0) + chars;
    this.episodeText[n] = size;
    const max = L.episodeText;
    if (size > max) throw new Problem('invalid', msg('episode_text_too_long', { n, size, max }), [{ field: `analysis.episodes.${n}`, message: msg('text_at_most', { max, size }) }], 'episode_text_too_long');
  }

  private add(text: string): string {
    const where = `body line ${this.count}`;
    const line = AddLine.safeParse(parseRequestJson(text, where));
    if (!line.success) throw validationProblem(line.error.issues, [where]);
    const { add, items } = line.data;
    const field = `analysis.${add}`;
    const list = listAt(this.head!.analysis, add);
    if (!list) throw new Problem('invalid', msg('delivery_list_missing', { list: field }), [{ field, message: msg('names_no_list_yet') }]);
    const kind = DELIVERY_LISTS[add.replace(/\.\d+\./, '.') as keyof typeof DELIVERY_LISTS];
    if (list.length + items.length > kind.max) {
      throw new Problem('invalid', msg('delivery_list_too_long', { list: field, max: kind.max }), [{ field, message: msg('at_most_items', { max: kind.max }) }]);
    }
    const checked = (kind.item as z.ZodType).array().safeParse(items);
    if (!checked.success) {
      // Each item is named by its place in the whole list, as if it had come in one piece.
      const at = list.length;
      const issues = checked.error.issues.map((i) => ({ ...i, path: [at + Number(i.path[0]), ...i.path.slice(1)] }));
      throw validationProblem(issues, ['analysis', ...add.split('.')]);
    }
    for (const item of checked.data as unknown[]) list.push(item);
    const episode = /^episodes\.(\d+)\.(audio|visual)$/.exec(add);
    if (episode) this.grow(Number(episode[1]), episode[2] === 'audio' ? ownText(checked.data as Timed[], []) : ownText([], checked.data as Visual[]));
    if (add === 'episodes') for (const e of checked.data as { summary: string; audio: Timed[]; visual: Visual[] }[]) this.grow(this.episodeText.length, e.summary.length + ownText(e.audio, e.visual));
    return JSON.stringify({ add, items: checked.data });
  }
}

/** Reads a stream's JSON lines, each at most `max` bytes, one at a time. */
async function readLines(stream: Readable, max: number, onLine: (text: string) => Promise<void>, slices: TimeSlices): Promise<void> {
  let pending: Buffer[] = [];
  let size = 0;
  let lineNo = 1;
  const take = async (piece: Buffer) => {
    pending.push(piece);
    const bytes = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
    pending = [];
    size = 0;
    await onLine(utf8Text(bytes, `body line ${lineNo++}`));
    await slices.pause();
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let from = 0;
    for (let nl = chunk.indexOf(10, from); nl >= 0; nl = chunk.indexOf(10, from)) {
      if (size + nl - from > max) throw new Problem('too_large', msg('delivery_line_too_large', { line: lineNo, max }));
      await take(chunk.subarray(from, nl));
      from = nl + 1;
    }
    const rest = chunk.subarray(from);
    size += rest.length;
    if (size > max) throw new Problem('too_large', msg('delivery_line_too_large', { line: lineNo, max }));
    if (rest.length > 0) pending.push(rest);
  }
  if (size > 0) await take(Buffer.alloc(0));
}

/** A stream read whole, at most `max` bytes (a `body` in one JSON object, which may span lines). */
async function readWhole(stream: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw new Problem('too_large', msg('delivery_line_too_large', { line: 1, max }));
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Streams one delivered file to the delivery's folder, at most MAX_THUMBNAIL_BYTES. */
async function saveFile(stream: Readable, dir: string, name: string): Promise<void> {
  const out = createWriteStream(join(dir, name), { mode: 0o600 });
  out.on('error', () => {});
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_THUMBNAIL_BYTES) {
        const why = msg('as_given', { text: `is larger than ${MAX_THUMBNAIL_BYTES} bytes` });
        throw new Problem('invalid', msg('delivered_file_refused', { file: name, reason: why }), [{ field: `files.${name}`, message: why }], 'bad_thumbnail');
      }
      if (out.errored) throw out.errored;
      if (!out.write(chunk)) await once(out, 'drain');
    }
  } finally {
    out.end();
    await once(out, 'close').catch(() => {});
  }
}

/**
 * Reads a delivery: multipart/form-data with `body` first (a field holding one JSON object, or a file
 * part of JSON lines) and then one file part per name in `files`; or application/json (one object).
 * Anything refused throws the problem at once, having read no more than that; the folder is removed then.
 * @example
 * const d = await readDelivery(c, uploadsDir, (head) => broker.holderOf(keyId, head.worker));
 */
export async function readDelivery(c: Context, uploadsDir: string, onHead: (head: DeliveryHead) => void): Promise<ReadDelivery> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  const multipart = type.startsWith('multipart/form-data');
  if (!multipart && !type.startsWith('application/json')) throw new Problem('unsupported', msg('content_type_refused', { type: type || 'none' }));
  mkdirSync(uploadsDir, { recursive: true, mode: 0o700 });
  const dir = mkdtempSync(join(uploadsDir, 'delivery-'));
  const lines = join(dir, 'delivery.jsonl');
  const out = createWriteStream(lines, { mode: 0o600 });
  // A write that fails (a full disk) is said when the next line is written; one still pending when the
  // delivery is refused fails on the destroyed stream, which is no error any more.
  out.on('error', () => {});
  const reader = new LineReader(out, onHead);
  const slices = new TimeSlices();
  try {
    if (multipart) await readParts(c, reader, dir, slices);
    else if (c.req.raw.body) await reader.line(utf8Text(await readWhole(Readable.fromWeb(c.req.raw.body as import('node:stream/web').ReadableStream<Uint8Array>), L.lineBytes), 'body'));
    if (!reader.head) throw new Problem('invalid', msg('form_body_required'), [{ field: 'body', message: msg('required') }]);
    out.end();
    await once(out, 'close');
    return { worker: reader.head.worker, files: reader.head.files, analysis: reader.head.analysis, dir, lines };
  } catch (err) {
    out.destroy();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** The parts of a multipart delivery, one after another. */
async function readParts(c: Context, reader: LineReader, dir: string, slices: TimeSlices): Promise<void> {
  const tooLarge = () => new Problem('too_large', msg('delivery_too_large', { max: L.requestBytes }));
  const { parts, stop, failure } = multipartParts(c, { maxBytes: L.requestBytes, fieldBytes: L.lineBytes, maxFiles: 2 * L.episodes + 1, maxFields: MAX_FIELDS, tooLarge });
  const saved = new Set<string>();
  try {
    for await (const part of parts) {
      if (part.kind === 'field') {
        if (part.name !== 'body') continue;
        if (reader.head) throw new Problem('invalid', msg('delivery_body_twice'), [{ field: 'body', message: msg('given_twice') }]);
        if (part.truncated) throw new Problem('too_large', msg('delivery_line_too_large', { line: 1, max: L.lineBytes }));
        await reader.line(part.value);
      } else if (part.name === 'body' && !reader.head) {
        if (isLines(part)) await readLines(part.stream, L.lineBytes, (t) => reader.line(t), slices);
        else await reader.line(utf8Text(await readWhole(part.stream, L.lineBytes), 'body'));
      } else {
        const name = part.filename;
        if (!reader.head) throw new Problem('invalid', msg('body_before_files', { file: name }), [{ field: 'body', message: msg('must_come_before_files') }]);
        if (!DELIVERED_FILE.test(name) || !reader.head.files.includes(name) || saved.has(name)) {
          throw new Problem('invalid', msg('delivered_file_not_named', { file: name }), [{ field: 'files', message: msg('names_not_part', { file: name }) }], 'bad_thumbnail');
        }
        saved.add(name);
        await saveFile(part.stream, dir, name);
      }
    }
  } catch (err) {
    const why = failure();
    stop();
    // A part's stream that broke off because the request did: the request's reason is the one to say.
    if (why instanceof Problem || isClientAbort(why)) throw why;
    throw err;
  }
}
