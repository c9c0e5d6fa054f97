/**
 * A loopback stand-in for the model hub: serves `<root>/<owner>/<name>/<file>` at
 * `/<owner>/<name>/resolve/<revision>/<file>`, with Range support, a request log, and a
 * switch that cuts the next response part-way (to exercise resume).
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize, sep } from 'node:path';

/** One request the hub saw. */
export interface HubRequest {
  method: string;
  repo: string;
  revision: string;
  file: string;
  range: string | null;
  status: number;
  /** Body bytes sent (less than the file when cut). */
  bytesSent: number;
}

export interface FakeHub {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  requests: HubRequest[];
  /** The next request (for `file`, if given) sends `afterBytes` body bytes, then the socket is destroyed. */
  cutNext(afterBytes: number, file?: string): void;
  /** Stops serving; calling it again does nothing (a test may stop the hub early to simulate an outage). */
  close(): Promise<void>;
}

export interface FakeHubOptions {
  /** Folder with `<owner>/<name>/...` trees (what `makeFixtureModels` writes). */
  root: string;
  /** When set, a repo is only served at this revision (others get 404, like an unknown commit). */
  revisions?: Record<string, string>;
}

const ROUTE = /^\/([\w.-]+\/[\w.-]+)\/resolve\/([^/]+)\/(.+)$/;

/**
 * Starts the hub on 127.0.0.1 with a free port.
 * @example
 * const hub = await startFakeHub({ root: fixtures.hubDir });
 * await pull(['default'], { hubUrl: hub.url, modelsDir, manifest });
 * await hub.close();
 */
export async function startFakeHub(opts: FakeHubOptions): Promise<FakeHub> {
  const requests: HubRequest[] = [];
  let cut: { afterBytes: number; file?: string } | null = null;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://hub');
    const m = ROUTE.exec(decodeURIComponent(url.pathname));
    const log: HubRequest = { method: req.method ?? 'GET', repo: m?.[1] ?? '', revision: m?.[2] ?? '', file: m?.[3] ?? url.pathname, range: req.headers.range ?? null, status: 404, bytesSent: 0 };
    requests.push(log);
    const notFound = () => {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Entry not found');
    };
    if (!m || (opts.revisions && opts.revisions[m[1]] !== m[2])) return notFound();
    const full = normalize(join(opts.root, m[1], m[3]));
    if (!full.startsWith(normalize(opts.root) + sep)) return notFound();
    let size: number;
    try {
      const st = statSync(full);
      if (!st.isFile()) return notFound();
      size = st.size;
    } catch {
      return notFound();
    }

    let start = 0;
    let end = size - 1;
    const headers: Record<string, string | number> = { 'accept-ranges': 'bytes', 'content-type': 'application/octet-stream' };
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    if (req.headers.range && range) {
      start = Number(range[1]);
      if (range[2]) end = Math.min(Number(range[2]), size - 1);
      if (start >= size) {
        log.status = 416;
        res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
        return;
      }
      log.status = 206;
      headers['content-range'] = `bytes ${start}-${end}/${size}`;
    } else {
      log.status = 200;
    }
    headers['content-length'] = end - start + 1;
    res.writeHead(log.status, headers);
    if (req.method === 'HEAD') return res.end();

    const cutHere = cut && (!cut.file || cut.file === m[3]) ? cut : null;
    if (cutHere) cut = null;
    const limit = cutHere ? Math.min(cutHere.afterBytes, end - start + 1) : end - start + 1;
    if (limit <= 0) {
      res.socket?.end();
      return;
    }
    const stream = createReadStream(full, { start, end: start + limit - 1 });
    stream.on('data', (chunk) => {
      log.bytesSent += chunk.length;
    });
    if (cutHere) {
      stream.pipe(res, { end: false });
      // Close the socket a moment after the partial body, so the client has read those bytes
      // (a fetch body that errors drops chunks still queued): it then sees a response shorter
      // than its Content-Length.
      stream.on('end', () => setTimeout(() => res.socket?.destroy(), 50));
    } else {
      stream.pipe(res);
    }
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    cutNext(afterBytes, file) {
      cut = { afterBytes, file };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (!server.listening) return resolve();
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
