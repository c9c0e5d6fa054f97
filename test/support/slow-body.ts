/**
 * A request whose body is sent piece by piece from a raw node:http client, to see when the server answers:
 * a request refused before (or while) its body is read is answered long before the body is all sent.
 */
import { request, type IncomingHttpHeaders } from 'node:http';

/** What came back, and how much of the body had been sent by then. */
export interface SlowAnswer {
  /** 0 when the server closed the connection before its answer could be read (it stopped reading: a reset may overtake the answer). */
  status: number;
  // `any` on purpose, as in server.ts: tests assert on body fields directly.
  body: any;
  headers: IncomingHttpHeaders;
  /** Bytes of the body written before the answer's head arrived. */
  sentBeforeAnswer: number;
}

/** How the body is sent: `next()` gives each piece (null: the body is complete), `everyMs` apart. */
export interface SlowBody {
  next: () => Buffer | null;
  everyMs: number;
}

/**
 * POSTs `path` on `base` with `headers`, writing the body piece by piece until the server answers (or
 * the body ends); then stops writing and reads the answer. A server that closes the connection after its
 * answer makes further writes fail: that is expected and ignored (status 0 when the reset came first).
 * @example
 * const r = await slowPost(s.url, '/worker/jobs/x/result', { 'content-length': String(1 << 30) }, { next: () => Buffer.alloc(65_536), everyMs: 20 });
 * r.sentBeforeAnswer; // a few hundred KB at most
 */
export function slowPost(base: string, path: string, headers: Record<string, string>, body: SlowBody): Promise<SlowAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    let timer: NodeJS.Timeout | undefined;
    const req = request({ host: hostname, port, method: 'POST', path, headers });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (answered) return;
      // The server answered and closed while the body was still coming: the reset may reach the client first.
      if (err.code === 'EPIPE' || err.code === 'ECONNRESET') resolve({ status: 0, body: null, headers: {}, sentBeforeAnswer: sent });
      else reject(err);
    });
    req.on('response', (res) => {
      answered = true;
      clearTimeout(timer);
      const at = sent;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', () => {});
      res.on('end', () => {
        req.destroy();
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // Not JSON: the text is the body.
        }
        resolve({ status: res.statusCode ?? 0, body: parsed, headers: res.headers, sentBeforeAnswer: at });
      });
    });
    const write = () => {
      if (answered || req.destroyed) return;
      const piece = body.next();
      if (!piece) {
        req.end();
        return;
      }
      sent += piece.length;
      const more = req.write(piece);
      const again = () => {
        timer = setTimeout(write, body.everyMs);
      };
      if (more) again();
      else req.once('drain', again);
    };
    write();
  });
}

/**
 * The pieces of a body: `head` first, then `filler` bytes in pieces of `size` until `total` bytes were given.
 * @example
 * const next = pieces(Buffer.from('--b\r\n…'), 1 << 30, 65_536);
 */
export function pieces(head: Buffer, total: number, size: number, fill = 0x61): () => Buffer | null {
  let given = 0;
  return () => {
    if (given >= total) return null;
    const piece = given === 0 ? head : Buffer.alloc(Math.min(size, total - given), fill);
    given += piece.length;
    return piece;
  };
}
