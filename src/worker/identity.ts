import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { RESERVED_PREFIX, WORKER_ID as VALID } from '../services/jobs/worker-keys.js';
import { processAlive } from '../tools/process-alive.js';

/**
 * The worker's name: the one given (VIDX_WORKER_ID; never `local…`, the server's own), else the one kept in
 * `<data dir>/worker.id`, else a new one, `<host>-<4 hex>` (`worker-<host>-<4 hex>` on a host named `local…`), kept there, so a worker restarted on the same machine keeps its name. A second
 * worker running on the same data dir meanwhile gets the name with its pid added.
 * @example
 * workerId('/home/me/.local/share/vidx-worker'); // 'desk-1a2b'
 */
export function workerId(dataDir: string, given?: string): string {
  if (given) {
    if (!VALID.test(given)) throw new Error(`VIDX_WORKER_ID "${given}" must match ${VALID.source}`);
    if (given.toLowerCase().startsWith(RESERVED_PREFIX)) throw new Error(`VIDX_WORKER_ID "${given}" must not start with "${RESERVED_PREFIX}" (in any case): the server's own workers are named so`);
    return given;
  }
  const id = keptId(dataDir);
  // Two workers started on one data dir are two workers: the second one is told apart by its pid.
  const lock = join(dataDir, 'worker.pid');
  const holder = Number(readOr(lock, ''));
  if (holder && holder !== process.pid && processAlive(holder)) return `${id}-${process.pid}`;
  writeFileSync(lock, String(process.pid));
  return id;
}

function readOr(file: string, fallback: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return fallback;
  }
}

/** The name kept in `<data dir>/worker.id`, made the first time. */
function keptId(dataDir: string): string {
  const file = join(dataDir, 'worker.id');
  const kept = readOr(file, '');
  if (VALID.test(kept)) return kept;
  const host = hostname().replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 40) || 'worker';
  // A machine called `localhost` (a container, say) would get an id the server refuses: the server's own workers are `local…`.
  const named = host.toLowerCase().startsWith(RESERVED_PREFIX) ? `worker-${host}` : host;
  const id = `${named}-${randomBytes(2).toString('hex')}`;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(file, `${id}\n`);
  return id;
}
