/** Issue 27: a worker's name stays with its data dir; a second worker on the same data dir is told apart. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { workerId } from '../../src/worker/identity.js';

describe('worker names', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vidx-worker-id-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps its name across starts, takes a given one, and adds its pid beside another live worker', () => {
    const first = workerId(dir);
    expect(first).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*-[0-9a-f]{4}$/);
    expect(workerId(dir)).toBe(first);
    expect(workerId(dir, 'desk')).toBe('desk');
    expect(() => workerId(dir, '../x')).toThrow(/VIDX_WORKER_ID/);
    // Another process that is alive (this test's parent) holds the data dir.
    writeFileSync(join(dir, 'worker.pid'), String(process.ppid));
    expect(workerId(dir)).toBe(`${first}-${process.pid}`);
  });
});
