import type { Context } from 'hono';
import { stream } from 'hono/streaming';

const RS = '\x1e';

/** The two framings of a stream of JSON elements. */
export type StreamFraming = 'json-seq' | 'ndjson';

/**
 * Which framing the client asked for: NDJSON when Accept names application/x-ndjson, RFC 7464 JSON text
 * sequences (each element: RS, JSON, LF) when it names json-seq, else the endpoint's own.
 * @example
 * streamFormat('application/x-ndjson'); // 'ndjson'
 */
export function streamFormat(accept: string | undefined, otherwise: StreamFraming = 'json-seq'): StreamFraming {
  if (accept && /application\/(x-)?ndjson/i.test(accept)) return 'ndjson';
  if (accept && /json-seq/i.test(accept)) return 'json-seq';
  return otherwise;
}

/**
 * Streams the elements of `elements` as they are produced. The first element is awaited before the
 * response starts, so an error up to then still becomes a proper 4xx; a later error ends the stream with
 * one `{"error": {...}}` element. A client that disconnects aborts `controller`, which stops the work.
 * @example
 * return streamElements(c, explore.clusters(caller, req, controller.signal), controller);
 */
export async function streamElements(c: Context, elements: AsyncGenerator<unknown>, controller: AbortController, otherwise: StreamFraming = 'json-seq'): Promise<Response> {
  const format = streamFormat(c.req.header('accept'), otherwise);
  const frame = (v: unknown) => `${format === 'ndjson' ? '' : RS}${JSON.stringify(v)}\n`;
  const first = await elements.next();
  c.header('content-type', format === 'ndjson' ? 'application/x-ndjson' : 'application/json-seq');
  c.header('cache-control', 'no-store');
  return stream(c, async (s) => {
    s.onAbort(() => controller.abort());
    try {
      if (!first.done) await s.write(frame(first.value));
      for (;;) {
        if (controller.signal.aborted) break;
        const next = await elements.next();
        if (next.done) break;
        await s.write(frame(next.value));
      }
    } catch (err) {
      await s.write(frame({ error: { detail: err instanceof Error ? err.message : String(err), code: 'stream_failed' } }));
    } finally {
      await elements.return(undefined);
    }
  });
}
