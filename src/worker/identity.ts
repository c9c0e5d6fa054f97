import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

const VALID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The worker's name: the one given (VIDX_WORKER_ID), else the one kept in `<data dir>/worker.id`, else a
 * new one, `<host>-<4 hex>`, kept there, so a worker restarted on the same machine keeps its name.
 * @example
 * workerId('/home/me/.local/share/vidx-worker'); // 'desk-1a2b'
 */
export function workerId(dataDir: string, given?: string): string {
  if (given) {
    if (!VALID.test(given)) throw new Error(`VIDX_WORKER_ID "${given}" must match ${VALID.source}`);
    return given;
  }
  const file = join(dataDir, 'worker.id');
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (VALID.test(kept)) return kept;
  } catch {
    // None kept yet.
  }
  const host = hostname().replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 50) || 'worker';
  const id = `${host}-${randomBytes(2).toString('hex')}`;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(file, `${id}\n`);
  return id;
}
