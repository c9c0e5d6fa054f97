/**
 * Start-up times of the single binary (build it first: npm run build:binary). Copies dist/vidx into a temp
 * folder and measures, as medians of RUNS runs each:
 *   - `vidx --version` with a fresh HOME (first start: unpacks ~85 MB of libraries and models) and again (later starts);
 *   - `vidx serve --port 0` until it prints that it is listening, first start and later starts.
 * Last line printed: one JSON object.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './bench-stats.js';

const RUNS = Number(process.env.RUNS ?? 5);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'vidx-bench-bin-'));
const bin = join(dir, 'vidx');
copyFileSync(join(ROOT, 'dist', 'vidx'), bin);


function env(home: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: home, TMPDIR: join(dir, 'tmp'), VIDX_LOG: 'silent', VIDX_DATA_DIR: join(home, 'data') };
}

function freshHome(i: number, kind: string): string {
  const home = join(dir, `home-${kind}-${i}`);
  mkdirSync(home, { recursive: true });
  return home;
}

function version(home: string): number {
  const t = performance.now();
  const r = spawnSync(bin, ['--version'], { env: env(home), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`vidx --version failed: ${r.stderr}`);
  return performance.now() - t;
}

function serve(home: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(bin, ['serve', '--port', '0'], { env: env(home), stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    let ms: number | undefined;
    child.stderr.on('data', (d: Buffer) => {
      err += d;
      if (ms === undefined && /listening on/.test(err)) {
        ms = performance.now() - t;
        // Once only: a second SIGTERM would hit the default handler and kill the clean stop.
        child.kill('SIGTERM');
      }
    });
    child.once('close', (code, signal) => (ms !== undefined && code === 0 ? resolve(ms) : reject(new Error(`vidx serve exited with ${code ?? signal}: ${err}`))));
  });
}

async function main(): Promise<void> {
  mkdirSync(join(dir, 'tmp'));
  const firstVersion: number[] = [];
  const laterVersion: number[] = [];
  const firstServe: number[] = [];
  const laterServe: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const home = freshHome(i, 'v');
    firstVersion.push(version(home));
    laterVersion.push(version(home));
    rmSync(home, { recursive: true, force: true });
  }
  for (let i = 0; i < RUNS; i++) {
    const home = freshHome(i, 's');
    firstServe.push(await serve(home));
    laterServe.push(await serve(home));
    rmSync(home, { recursive: true, force: true });
  }
  const r = (x: number) => Math.round(x);
  const result = {
    runs: RUNS,
    sizeMB: Math.round(statSync(bin).size / 1e5) / 10,
    versionFirstMs: r(median(firstVersion)),
    versionLaterMs: r(median(laterVersion)),
    serveFirstMs: r(median(firstServe)),
    serveLaterMs: r(median(laterServe)),
  };
  process.stderr.write(`first start (unpacking): --version ${result.versionFirstMs} ms, serve ${result.serveFirstMs} ms\n`);
  process.stderr.write(`later starts: --version ${result.versionLaterMs} ms, serve ${result.serveLaterMs} ms\n`);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

try {
  await main();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
