/**
 * Reading a streamed answer (`application/x-ndjson`: one JSON value a line) element by element as it arrives,
 * with the API's rule for failures after the 200 was sent: the last element is `{error: {detail, code}}`.
 * Browser-safe (web streams only).
 */
import { VidxError } from './errors.js';

/** What a stream ends with when the work fails midway (the StreamError schema; read defensively). */
interface StreamFailure {
  error: { detail?: string; code?: string };
}

const isFailure = (el: unknown): el is StreamFailure =>
  typeof el === 'object' && el !== null && 'error' in el && typeof (el as StreamFailure).error === 'object' && (el as StreamFailure).error !== null;

/**
 * The elements of an NDJSON body in order; a `{error}` element becomes a VidxError (with the answer's
 * status, as the failure came after it) instead of an element.
 * @example
 * for await (const el of ndjsonElements<Schemas['ClusterElement']>(res.body!, res.status)) show(el);
 */
export async function* ndjsonElements<T>(body: ReadableStream<Uint8Array>, status: number): AsyncGenerator<T, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      // stream: true keeps a character split across two chunks whole.
      if (value) buffer += decoder.decode(value, { stream: true });
      // At the end, a last line without its newline still counts.
      if (done) buffer += `${decoder.decode()}\n`;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (!line) continue;
        // Each line is one element of the documented element schema (or the failure checked here).
        const el = JSON.parse(line) as unknown;
        if (isFailure(el)) throw new VidxError(status, el.error.code ?? 'stream_failed', el.error.detail ?? 'the stream failed');
        yield el as T;
      }
      if (done) return;
    }
  } finally {
    // Stopping early (a break, an abort, a failure) lets go of the connection.
    reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
