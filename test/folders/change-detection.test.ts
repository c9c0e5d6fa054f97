/**
 * Issue 24: a file whose date changed is called unchanged only when its whole content is the same. The
 * sampled fingerprint (size and three 4 MiB samples) misses a same-size edit between its samples; the scan
 * now hashes the whole file before it calls such a file unchanged.
 */
import { execFile } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, realpathSync, rmSync, statSync, utimesSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FileAccess } from '../../src/media/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprintFile, hashWholeFile } from '../../src/analysis/fingerprint.js';
import { startTestApp } from '../support/app.js';
import { settledTask, type TestServer } from '../support/server.js';

const MiB = 1024 * 1024;

describe('folder scans: whole-file change detection', () => {
  let s: TestServer;
  let base: string;
  let clip: string;
  let folderPath: string;

  const scan = async () => {
    const r = await s.call('POST', folderPath);
    const t = await settledTask(s, r.body.task_id, 120_000);
    expect(t.status, t.error?.message).toBe('completed');
    return t.result as { unchanged: number; changed: number; added: number };
  };

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'vidx-change-')));
    mkdirSync(join(base, 'media'));
    clip = join(base, 'media', 'big.mp4');
    // A lossless picture makes a file over 12 MiB quickly: there are bytes no 4 MiB sample covers.
    await promisify(execFile)('ffmpeg', ['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=s=1280x720:r=25:d=10', '-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', '-pix_fmt', 'yuv420p', clip]);
    expect(statSync(clip).size).toBeGreaterThan(14 * MiB);
    const old = new Date(Date.now() - 60_000);
    utimesSync(clip, old, old);
    s = await startTestApp({ env: { VIDX_MEDIA_ROOTS: join(base, 'media') } });
    await s.call('POST', '/collections', { json: { collection_id: 'c', name: 'C' } });
    const f = await s.call('POST', '/collections/c/folders', { json: { path: join(base, 'media'), watch: false } });
    folderPath = `/collections/c/folders/${f.body.folder_id}/scan`;
    expect((await settledTask(s, f.body.scan_task_id, 120_000)).result).toMatchObject({ added: 1 });
  }, 180_000);
  afterAll(async () => {
    await s?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('calls a file whose date alone changed unchanged', async () => {
    const later = new Date(Date.now() - 30_000);
    utimesSync(clip, later, later);
    expect(await scan()).toMatchObject({ unchanged: 1, changed: 0 });
  });

  const files = FileAccess.unrestricted();

  it('finds a same-size edit between the samples, which the sampled fingerprint misses', async () => {
    const before = { sampled: await fingerprintFile(files, clip), whole: await hashWholeFile(files, clip) };
    const fd = openSync(clip, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, 4 * MiB + 64 * 1024);
    closeSync(fd);
    const later = new Date(Date.now() - 20_000);
    utimesSync(clip, later, later);
    // The samples did not see it; the whole file did.
    expect(await fingerprintFile(files, clip)).toBe(before.sampled);
    expect(await hashWholeFile(files, clip)).not.toBe(before.whole);
    expect(await scan()).toMatchObject({ unchanged: 0, changed: 1 });
  }, 120_000);
});
