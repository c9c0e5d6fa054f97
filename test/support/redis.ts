import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A redis-server of a test's own, on a loopback port, with its own folder. */
export interface TestRedis {
  url: string;
  port: number;
  /** Stops it at once (kill -9): what a crash or a pulled cable looks like to vidx. */
  kill(): Promise<void>;
  /** Starts it again on the same port and folder (what it saved is loaded again). */
  restart(): Promise<void>;
  /** Stops it and removes its folder. */
  stop(): Promise<void>;
}

/** A TCP port on 127.0.0.1 that was free a moment ago (redis-server takes a number, not port 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function launch(port: number, dir: string): Promise<ChildProcess> {
  // Saved on every write (appendfsync always): a restart after kill -9 finds the jobs it had.
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--protected-mode', 'yes'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ready to accept connections')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`redis-server ended (${code}) before it was ready:\n${out}`)));
  });
}

/** redis-server on a free port; another process may take the port between the probe and the bind: then another. */
async function launchOnFreePort(dir: string): Promise<{ port: number; child: ChildProcess }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return { port, child: await launch(port, dir) };
    } catch (err) {
      if (attempt >= 5 || !/Address already in use/.test((err as Error).message)) throw err;
    }
  }
}

/**
 * Starts Debian's redis-server for one test file (scripts/system-deps.sh installs it).
 * @example
 * const redis = await startRedis();
 * const s = await startTestServer({ env: { VIDX_QUEUE_URL: redis.url } });
 * await redis.stop();
 */
export async function startRedis(): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'vidx-redis-'));
  const first = await launchOnFreePort(dir);
  const port = first.port;
  let child = first.child;
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await gone;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    async restart() {
      await kill();
      child = await launch(port, dir);
    },
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
