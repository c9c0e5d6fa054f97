import { spawn, type ChildProcess } from 'node:child_process';

/** A vidx started in a child process (so a test can kill -9 it) and the URL it printed. */
export interface ChildVidx {
  child: ChildProcess;
  url: string;
  /** Resolves with the exit signal (or code) once the process is gone. */
  exited: Promise<NodeJS.Signals | number | null>;
}

/**
 * Starts `script` (test/support/child-server.ts or crash-server.ts) under tsx with `env` on top of this
 * process's environment; resolves once it printed `{"url": …}`.
 * @example
 * const { url, child } = await spawnVidx('test/support/child-server.ts', { VIDX_DATA_DIR: dir, VIDX_ADMIN_KEY: ADMIN_KEY });
 */
export async function spawnVidx(script: string, env: Record<string, string>): Promise<ChildVidx> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, VIDX_PORT: '0', VIDX_HOST: '127.0.0.1', VIDX_LOG: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<NodeJS.Signals | number | null>((r) => child.once('exit', (code, signal) => r(signal ?? code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    void exited.then((how) => reject(new Error(`the child vidx ended (${String(how)}) before it listened`)));
  });
  return { child, url, exited };
}
