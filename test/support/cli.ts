import { spawn } from 'node:child_process';

/** What a CLI run printed and how it ended. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a program to its end and collects what it printed; killed after `timeoutMs`.
 * @example
 * const r = await runProcess('/tmp/x/vidx', ['--version'], { cwd: '/tmp/x', env: { PATH: process.env.PATH } });
 */
export function runProcess(cmd: string, args: string[], opts: { cwd?: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/**
 * Runs `vidx <args>` from the checkout in its own process (node --import tsx src/cli.ts), the way `npx vidx`
 * does. The child gets only PATH, HOME and the given variables, so no VIDX_* setting leaks in from outside.
 * @example
 * const r = await runCli(['collections', 'list', '--url', s.url], { VIDX_API_KEY: ADMIN_KEY });
 * expect(r.code).toBe(0);
 */
export function runCli(args: string[], env: Record<string, string> = {}, opts: { timeoutMs?: number } = {}): Promise<CliRun> {
  return runProcess(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    timeoutMs: opts.timeoutMs,
  });
}
