import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';

/** A listening HTTP server and the URL it answers at. */
export interface Listening {
  server: ServerType;
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `fetch` on host:port (port 0 picks a free one) and resolves once it listens.
 * @example
 * const { url } = await listen(app.fetch, '127.0.0.1', 0);
 */
export async function listen(fetch: (request: Request) => Response | Promise<Response>, host: string, port: number): Promise<Listening> {
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch, hostname: host, port }, () => resolve(s));
    s.once('error', reject);
  });
  const { port: bound } = server.address() as AddressInfo;
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  return {
    server,
    url: `http://${hostForUrl}:${bound}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
