/**
 * A loopback address where nothing listens, for tests of what a client says when it cannot connect (an
 * offline model hub, a server that is gone).
 */
import { createServer } from 'node:net';

/**
 * A port of 127.0.0.1 that was just free: taken with listen(0), then let go, so a connection to it is
 * refused. Only for "nothing listens here" tests; a server of a test takes its own port with listen(0).
 * @example
 * const hubUrl = `http://127.0.0.1:${await deadPort()}`;
 */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
