import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A `vidx worker` in its own process with its own data dir (models, downloads), and nothing of the server's. */
export interface TestWorker {
  id: string;
  dataDir: string;
  child: ChildProcess;
  /** What it printed on stdout and stderr so far (its log lines). */
  output(): string;
  /** kill -9. */
  kill(): Promise<void>;
  /** SIGTERM, and waits for it to end; removes its data dir. */
  stop(): Promise<void>;
}

/**
 * Starts `vidx worker` from the checkout (node --import tsx src/cli.ts worker) with only PATH, HOME and the
 * given variables; resolves once it takes jobs.
 * @example
 * const w = await spawnWorker({ server: s.url, queue: redis.url, key: workerKey, id: 'w1' });
 */
export async function spawnWorker(o: { server: string; queue: string; key: string; id: string; env?: Record<string, string>; args?: string[] }): Promise<TestWorker> {
  const dataDir = mkdtempSync(join(tmpdir(), `vidx-worker-${o.id}-`));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'worker', '--server', o.server, '--queue', o.queue, '--id', o.id, ...(o.args ?? [])], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, VIDX_API_KEY: o.key, VIDX_DATA_DIR: dataDir, VIDX_WORKER_LOCK_SECONDS: '3', ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (!out.includes(`vidx worker ${o.id} taking jobs`)) return;
      clearInterval(timer);
      resolve();
    }, 50);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`vidx worker ${o.id} ended before it took jobs:\n${out}`));
    });
  });
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    id: o.id,
    dataDir,
    child,
    output: () => out,
    async kill() {
      if (!gone()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!gone()) child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
