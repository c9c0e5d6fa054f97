import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { allowedAddresses, pinnedLookup, systemResolver, unreachable, type EgressPolicy, type Resolver } from './egress.js';
import { SourceError } from './errors.js';

/** Limits for {@link downloadUrl}. */
export interface DownloadOptions {
  signal?: AbortSignal;
  /** Largest accepted body in bytes; bigger downloads stop and fail with `too_large`. */
  maxBytes: number;
  /** Time allowed to connect and receive the response headers (per redirect hop). */
  connectTimeoutMs: number;
  /** Longest pause allowed between two pieces of the body. */
  idleTimeoutMs: number;
  /** Default 5. */
  maxRedirects?: number;
  /** Which addresses may be reached; checked for every redirect hop and pinned for the connection. */
  egress: EgressPolicy;
  /** Default: the system resolver. */
  resolver?: Resolver;
}

/** A media file on disk, or the finding that the URL is a web page (nothing is written then). */
export type DownloadResult =
  | { kind: 'file'; file: string; bytes: number; contentType?: string; finalUrl: string }
  | { kind: 'page'; contentType: string; finalUrl: string };

const PAGE_TYPES = /^(text\/html|application\/xhtml\+xml)$/;
const EXT_BY_TYPE: Record<string, string> = {
  'video/mp4': '.mp4', 'video/webm': '.webm', 'video/x-matroska': '.mkv', 'video/quicktime': '.mov', 'video/mp2t': '.ts',
  'video/x-msvideo': '.avi', 'video/ogg': '.ogv', 'audio/mpeg': '.mp3', 'audio/mp4': '.m4a', 'audio/x-m4a': '.m4a',
  'audio/ogg': '.ogg', 'audio/wav': '.wav', 'audio/x-wav': '.wav', 'audio/flac': '.flac', 'audio/webm': '.weba',
};

class PageFound extends Error {}

function fileNameFor(url: URL, contentType: string | undefined): string {
  const last = decodeURIComponent(url.pathname.split('/').pop() ?? '').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '');
  const name = (last || 'download').slice(-100);
  const ext = contentType ? EXT_BY_TYPE[contentType] : undefined;
  return ext && !/\.[A-Za-z0-9]{2,5}$/.test(name) ? `${name}${ext}` : name;
}

/** Failures before an HTTP answer: they read as {@link unreachable}, whatever the reason. */
const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'EADDRNOTAVAIL', 'ETIMEDOUT', 'EPIPE']);

function toSourceError(e: unknown, url: URL, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason;
  if (e instanceof SourceError || e instanceof PageFound) return e;
  const err = e as NodeJS.ErrnoException;
  return new SourceError('network', `could not download ${url.href}: ${err.code ?? err.message}`, { cause: e });
}

async function get(url: URL, opts: DownloadOptions): Promise<IncomingMessage> {
  // Named with the port, as a connection failure is, so a refusal and a closed port read the same.
  const addresses = await allowedAddresses(url.hostname, opts.egress, opts.resolver ?? systemResolver).catch((e: unknown) => {
    throw unreachable(url.host, e);
  });
  return new Promise((resolve, reject) => {
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.get(url, { signal: opts.signal, lookup: pinnedLookup(addresses), headers: { 'user-agent': 'vidx', accept: '*/*' } });
    let answered = false;
    let connected = false;
    req.once('socket', (socket) => socket.once('connect', () => (connected = true)));
    const timer = setTimeout(
      () => req.destroy(connected ? new SourceError('timeout', `${url.host} did not respond within ${opts.connectTimeoutMs} ms`) : unreachable(url.host)),
      opts.connectTimeoutMs,
    );
    req.once('response', (res) => {
      answered = true;
      clearTimeout(timer);
      resolve(res);
    });
    req.once('error', (e) => {
      clearTimeout(timer);
      const code = (e as NodeJS.ErrnoException).code ?? '';
      if (!answered && !opts.signal?.aborted && !(e instanceof SourceError) && (!connected || CONNECT_FAILURES.has(code))) return reject(unreachable(url.host, e));
      reject(toSourceError(e, url, opts.signal));
    });
  });
}

/** Counts bytes against the limit, restarts the idle timer per piece and spots HTML sent as something else. */
function guard(opts: DownloadOptions, url: URL, sniff: boolean, onIdle: () => void): Transform & { bytes: number } {
  let timer = setTimeout(onIdle, opts.idleTimeoutMs);
  const t = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      clearTimeout(timer);
      timer = setTimeout(onIdle, opts.idleTimeoutMs);
      if (sniff && g.bytes === 0 && /^\s*<(!doctype html|html|head|body)[\s>]/i.test(chunk.subarray(0, 512).toString('latin1').replace(/^\uFEFF|^\xef\xbb\xbf/, ''))) {
        return cb(new PageFound());
      }
      g.bytes += chunk.length;
      if (g.bytes > opts.maxBytes) return cb(new SourceError('too_large', `${url.href} is larger than the limit of ${opts.maxBytes} bytes`));
      cb(null, chunk);
    },
    flush(cb) {
      clearTimeout(timer);
      cb();
    },
    destroy(err, cb) {
      clearTimeout(timer);
      cb(err);
    },
  });
  const g = Object.assign(t, { bytes: 0 });
  return g;
}

/**
 * Downloads an http(s) URL into `dir`, following up to 5 redirects (http/https only). HTML pages are
 * not downloaded: `text/html` responses, and bodies that start like HTML under another type, give
 * `{ kind: 'page' }` so the caller can hand the URL to yt-dlp. Fails with SourceError `http_status`,
 * `too_large` (Content-Length or counted bytes), `timeout` (no headers in time, or the body stalled),
 * `network`, `unsupported_url`; an abort rejects with the signal's reason. A partial file is left in
 * `dir` for the caller's cleanup.
 * @example
 * const r = await downloadUrl(new URL('http://127.0.0.1:8080/clip.mp4'), tmpDir,
 *   { maxBytes: 2e9, connectTimeoutMs: 15_000, idleTimeoutMs: 30_000, signal });
 * if (r.kind === 'file') probeMedia(r.file);
 */
export async function downloadUrl(start: URL, dir: string, opts: DownloadOptions): Promise<DownloadResult> {
  let url = start;
  for (let hop = 0; ; hop++) {
    const res = await get(url, opts);
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume();
      if (hop >= (opts.maxRedirects ?? 5)) throw new SourceError('network', `${start.href} redirects too many times`);
      url = new URL(res.headers.location, url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SourceError('unsupported_url', `${start.href} redirects to a non-http URL (${url.protocol})`);
      continue;
    }
    if (status < 200 || status >= 300) {
      res.resume();
      throw new SourceError('http_status', `${url.href} answered HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}`);
    }
    const contentType = res.headers['content-type']?.split(';')[0].trim().toLowerCase() || undefined;
    if (contentType && PAGE_TYPES.test(contentType)) {
      res.destroy();
      return { kind: 'page', contentType, finalUrl: url.href };
    }
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > opts.maxBytes) {
      res.destroy();
      throw new SourceError('too_large', `${url.href} is ${declared} bytes, more than the limit of ${opts.maxBytes} bytes`);
    }
    const file = join(dir, fileNameFor(url, contentType));
    const sniff = !contentType || !/^(video|audio)\//.test(contentType);
    const g = guard(opts, url, sniff, () => res.destroy(new SourceError('timeout', `${url.href} stalled: no data for ${opts.idleTimeoutMs} ms`)));
    try {
      await pipeline(res, g, createWriteStream(file), { signal: opts.signal });
    } catch (e) {
      if (e instanceof PageFound) return { kind: 'page', contentType: contentType ?? 'text/html', finalUrl: url.href };
      throw toSourceError(e, url, opts.signal);
    }
    return { kind: 'file', file, bytes: g.bytes, ...(contentType ? { contentType } : {}), finalUrl: url.href };
  }
}
