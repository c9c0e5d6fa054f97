import http from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { allowedAddresses, pinnedLookup, systemResolver, type EgressPolicy, type Resolver } from './egress.js';

/** A proxy on 127.0.0.1 that lets a child program (yt-dlp) reach only what the policy allows. */
export interface EgressProxy {
  /** `http://127.0.0.1:<port>`, for `--proxy`. */
  url: string;
  close(): Promise<void>;
}

function splitHostPort(target: string, defaultPort: number): { host: string; port: number } | null {
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(target);
  if (!m) return null;
  const port = m[2] ? Number(m[2]) : defaultPort;
  return port > 0 && port < 65536 ? { host: m[1].replace(/^\[|\]$/g, ''), port } : null;
}

async function openTunnel(host: string, port: number, policy: EgressPolicy, resolver: Resolver): Promise<Socket> {
  const [address] = await allowedAddresses(host, policy, resolver);
  return new Promise((resolve, reject) => {
    const s = connect({ host: address, port });
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });
}

/**
 * Starts a forwarding proxy (CONNECT for https, absolute-form requests for http) whose every target is
 * resolved and checked against `policy` and then reached at the checked address. A refused or unreachable
 * target answers 502 without saying which. yt-dlp runs with `--proxy` pointing here, so a page URL or
 * a redirect inside it cannot reach the owner's network either.
 * @example
 * const proxy = await startEgressProxy(policy);
 * try { await runYtDlp(['--proxy', proxy.url, url]); } finally { await proxy.close(); }
 */
export async function startEgressProxy(policy: EgressPolicy, resolver: Resolver = systemResolver): Promise<EgressProxy> {
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
      if (target.protocol !== 'http:') throw new Error('only http in absolute form');
    } catch {
      res.writeHead(400).end();
      return;
    }
    allowedAddresses(target.hostname, policy, resolver).then(
      (addresses) => {
        const upstream = http.request(
          target,
          { method: req.method, headers: req.headers, lookup: pinnedLookup(addresses) },
          (up) => {
            res.writeHead(up.statusCode ?? 502, up.headers);
            up.pipe(res);
          },
        );
        upstream.once('error', () => res.headersSent ? res.destroy() : res.writeHead(502).end());
        req.pipe(upstream);
      },
      () => res.writeHead(502).end(),
    );
  });
  server.on('connect', (req: http.IncomingMessage, client: Socket, head: Buffer) => {
    const target = splitHostPort(req.url ?? '', 443);
    client.once('error', () => client.destroy());
    if (!target) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    openTunnel(target.host, target.port, policy, resolver).then(
      (upstream) => {
        sockets.add(upstream);
        upstream.once('close', () => sockets.delete(upstream));
        upstream.once('error', () => client.destroy());
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length) upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      },
      () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'),
    );
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
