/**
 * Downloads one file to `<dest>.part`, resuming an earlier `.part` with an HTTP Range request,
 * then checks size and sha256 (when known) and renames it into place, so a file at `dest`
 * is always complete.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { english, type Message, msg } from '../../messages/index.js';
import { processAlive } from '../../tools/process-alive.js';

/** A download that failed for a reason retrying will not fix (bad hash, size, 404). */
export class DownloadError extends Error {
  constructor(
    message: string,
    readonly url: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'DownloadError';
  }
}

/**
 * No answer at all: no connection (refused, reset, no route, no name, or a port fetch refuses), so no HTTP
 * status. `reason` is the system's code (ECONNREFUSED, ENOTFOUND …) or fetch's own words ("bad port").
 * @example
 * if (err instanceof NoAnswerError) console.error(err.reason);
 */
export class NoAnswerError extends DownloadError {
  constructor(url: string, readonly reason: string) {
    super(`no answer from ${new URL(url).origin} (${reason})`, url, true);
    this.name = 'NoAnswerError';
  }
}

/** The model a pull was getting when the hub did not answer: what a person needs to get it elsewhere. */
export interface PulledModel {
  id: string;
  repo: string;
  revision: string;
}

/** fetch's reason for a port it never connects to (the Fetch standard's "bad ports": 6000, 6666 …). */
const BAD_PORT = 'bad port';

/**
 * The hub did not answer a pull at all. Its message names the hub and the model's repository, and says how
 * to get the model without the hub; or, for a port fetch refuses to connect to, that the hub's address must
 * change (the machine is not offline then). `text` is the message (key and parameters) a page words itself.
 * @example
 * if (err instanceof HubUnreachableError) console.error(render(err.text, 'de'));
 */
export class HubUnreachableError extends DownloadError {
  readonly text: Message<'hub_unreachable' | 'hub_port_blocked'>;

  constructor(url: string, readonly reason: string, readonly hub: string, readonly model: PulledModel) {
    const text: Message<'hub_unreachable' | 'hub_port_blocked'> =
      reason === BAD_PORT ? msg('hub_port_blocked', { hub, port: new URL(url).port }) : msg('hub_unreachable', { hub, reason, id: model.id, repo: model.repo, revision: model.revision });
    super(english(text), url, reason !== BAD_PORT);
    this.text = text;
    this.name = 'HubUnreachableError';
  }
}

/** fetch's "fetch failed" with the system's reason (ECONNREFUSED, ENOTFOUND, …) when it gives one. */
function causeText(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return err instanceof Error ? err.message : String(err);
}

export interface DownloadOptions {
  /** Exact size in bytes, checked when set. */
  size?: number | null;
  /** Expected sha256 (hex), checked when set. */
  sha256?: string | null;
  signal?: AbortSignal;
  /** Called with the bytes now in `.part` (resumed ones included), the total if known, and how many just arrived. */
  onBytes?: (bytesDone: number, total: number | null, received: number) => void;
  fetch?: typeof fetch;
}

export interface DownloadResult {
  /** Bytes received over the network in this call. */
  bytesFetched: number;
  /** Offset the download resumed from (0 for a fresh start). */
  resumedFrom: number;
}

async function sizeIfExists(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch {
    return null;
  }
}

async function hashFile(path: string, hash: Hash): Promise<void> {
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
}

/** Start offset of a `Content-Range: bytes a-b/c` header, or null. */
function rangeStart(header: string | null): number | null {
  const m = header ? /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(header.trim()) : null;
  return m ? Number(m[1]) : null;
}

/**
 * Takes `<part>.lock` (holding our pid) so two pulls never append to the same `.part`; a lock
 * left by a process that is gone is taken over.
 */
async function lockPart(part: string, url: string): Promise<() => Promise<void>> {
  const lock = `${part}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lock, String(process.pid), { flag: 'wx' });
      return () => rm(lock, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
      if (owner && processAlive(owner)) throw new DownloadError(`${finalPath(part)} is being downloaded by process ${owner}`, url, false);
      await rm(lock, { force: true });
    }
  }
  throw new DownloadError(`cannot lock ${part}`, url, true);
}

const finalPath = (part: string) => part.replace(/\.part$/, '');

/**
 * Fetches `url` into `dest` through `dest.part`, resuming and verifying.
 * @example
 * await downloadFile('https://huggingface.co/Xenova/whisper-base/resolve/<rev>/config.json',
 *   '/data/models/Xenova/whisper-base/config.json', { size: 2250 });
 */
export async function downloadFile(url: string, dest: string, opts: DownloadOptions = {}): Promise<DownloadResult> {
  await mkdir(dirname(dest), { recursive: true });
  const unlock = await lockPart(`${dest}.part`, url);
  try {
    return await downloadLocked(url, dest, opts);
  } finally {
    await unlock();
  }
}

async function downloadLocked(url: string, dest: string, opts: DownloadOptions): Promise<DownloadResult> {
  const doFetch = opts.fetch ?? fetch;
  const part = `${dest}.part`;

  let offset = (await sizeIfExists(part)) ?? 0;
  if (opts.size != null && offset > opts.size) {
    await rm(part, { force: true });
    offset = 0;
  }
  const hash = createHash('sha256');
  if (offset > 0) await hashFile(part, hash);

  let total: number | null = opts.size ?? null;
  let bytesFetched = 0;
  const resumedFrom = offset;
  const alreadyComplete = opts.size != null && offset === opts.size && offset > 0;

  if (!alreadyComplete) {
    // identity: with gzip, Content-Length would count compressed bytes and Range would not apply.
    const headers: Record<string, string> = { 'Accept-Encoding': 'identity' };
    if (offset > 0) headers.Range = `bytes=${offset}-`;
    let res: Response;
    try {
      res = await doFetch(url, { headers, signal: opts.signal, redirect: 'follow' });
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      throw new NoAnswerError(url, causeText(err));
    }
    let restart = false;
    if (res.status === 206) {
      // A range that does not start where we stopped cannot be appended.
      if (rangeStart(res.headers.get('content-range')) !== offset) {
        await res.body?.cancel();
        await rm(part, { force: true });
        throw new DownloadError(`unexpected Content-Range from ${url}`, url, true);
      }
    } else if (res.status === 200) {
      restart = offset > 0; // the server ignored Range: start over
    } else if (res.status === 416 && offset > 0) {
      await res.body?.cancel();
      // Nothing left to fetch; the size/hash checks below decide whether the part is good.
    } else {
      await res.body?.cancel();
      const retryable = res.status >= 500 || res.status === 429 || res.status === 408;
      throw new DownloadError(`HTTP ${res.status} for ${url}`, url, retryable);
    }

    if (res.status !== 416) {
      if (restart) offset = 0;
      const runHash = restart ? createHash('sha256') : hash;
      const length = Number(res.headers.get('content-length'));
      if (total == null && Number.isFinite(length) && res.headers.get('content-length') !== null) total = offset + length;
      const fh = await open(part, restart || offset === 0 ? 'w' : 'a');
      let done = offset;
      try {
        if (res.body) {
          for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
            runHash.update(chunk);
            await fh.write(chunk);
            done += chunk.length;
            bytesFetched += chunk.length;
            opts.onBytes?.(done, total, chunk.length);
          }
        }
      } finally {
        await fh.close();
      }
      return finish(url, part, dest, done, total, runHash, opts, { bytesFetched, resumedFrom: restart ? 0 : resumedFrom });
    }
  }
  const done = (await sizeIfExists(part)) ?? 0;
  opts.onBytes?.(done, total, 0);
  return finish(url, part, dest, done, total, hash, opts, { bytesFetched, resumedFrom });
}

async function finish(
  url: string,
  part: string,
  dest: string,
  done: number,
  total: number | null,
  hash: Hash,
  opts: DownloadOptions,
  result: DownloadResult,
): Promise<DownloadResult> {
  if (total != null && done !== total) {
    // Short body: keep the part so the next try resumes; too long: it can never be right.
    if (done > total) await rm(part, { force: true });
    throw new DownloadError(`size mismatch for ${url}: got ${done} bytes, expected ${total}`, url, done < total);
  }
  if (opts.sha256) {
    const got = hash.digest('hex');
    if (got !== opts.sha256) {
      await rm(part, { force: true });
      throw new DownloadError(`sha256 mismatch for ${url}: got ${got}, expected ${opts.sha256}`, url, false);
    }
  }
  await rename(part, dest);
  return result;
}
