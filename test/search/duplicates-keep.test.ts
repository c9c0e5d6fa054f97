/**
 * Issue 31: duplicates keep the source. A video and its stream-copied first half group, and `keep` names the
 * whole video (a trimmed part is never recommended over it), saying why.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { betterCopy, keepReason, type Ranked } from '../../src/services/duplicates/keep.js';
import { lavfiVideo } from '../support/picture-media.js';
import { startTestApp } from '../support/app.js';
import { settledTask, type TestServer } from '../support/server.js';

const row = (pk: number, o: { duration?: number | null; width?: number; height?: number; size?: number; captured_at?: string | null }): Ranked => ({
  pk, type: 'video', duration: o.duration ?? 10, width: o.width ?? 640, height: o.height ?? 360, size: o.size ?? 1_000_000, captured_at: o.captured_at ?? null,
  captured_at_source: o.captured_at ? 'file' : null, latitude: null, format: 'mp4',
});

describe('which copy to keep', () => {
  it('prefers the longest, then pixels, then bitrate, then the older file', () => {
    const whole = row(2, { duration: 10, size: 1_000_000 });
    const trim = row(1, { duration: 5, size: 900_000, width: 1280, height: 720 });
    expect([trim, whole].sort(betterCopy)[0]).toBe(whole);
    expect(keepReason(whole, trim)).toBe('longest');
    const big = row(3, { width: 1280, height: 720, size: 500_000 });
    expect(keepReason(big, whole)).toBe('higher_resolution');
    const dense = row(4, { size: 2_000_000 });
    expect([whole, dense].sort(betterCopy)[0]).toBe(dense);
    expect(keepReason(dense, whole)).toBe('higher_bitrate');
    const old = row(9, { captured_at: '2019-01-01T00:00:00Z', size: 1_010_000 });
    const copy = row(5, { captured_at: '2024-01-01T00:00:00Z' });
    expect([copy, old].sort(betterCopy)[0]).toBe(old);
    expect(keepReason(old, copy)).toBe('original');
    // A frame more or less is no trim.
    expect(keepReason(row(6, { duration: 10.1, size: 1_010_000 }), row(7, { duration: 10 }))).toBe('original');
  });
});

describe('GET /collections/{id}/duplicates keeps the whole over its trim', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestApp();
    await lavfiVideo(join(s.mediaDir, 'whole.mp4'), 'mandelbrot', 10);
    await promisify(execFile)('ffmpeg', ['-hide_banner', '-v', 'error', '-y', '-i', join(s.mediaDir, 'whole.mp4'), '-t', '5', '-c', 'copy', join(s.mediaDir, 'clip.mp4')]);
    await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } });
    // The clip first: being indexed earlier must not make it the one to keep.
    for (const [name, id] of [['clip.mp4', 'clip'], ['whole.mp4', 'whole']] as const) {
      const r = await s.call('POST', '/index', { json: { collection: 'home', video: { path: join(s.mediaDir, name), media_id: id } } });
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      const t = await settledTask(s, r.body.task_id);
      expect(t.status, t.error?.message).toBe('completed');
    }
  }, 300_000);
  afterAll(async () => {
    await s?.close();
  });

  it('groups a 10-second video with its 5-second trim and keeps the 10-second one, because it is longest', async () => {
    const r = await s.call('GET', '/collections/home/duplicates');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const groups = r.body.groups as Array<{ items: Array<{ media_id: string }>; keep: string; keep_reason: string; keep_message: string }>;
    expect(groups).toHaveLength(1);
    expect(groups[0]!.items.map((i) => i.media_id)).toEqual(['whole', 'clip']);
    expect(groups[0]!.keep).toBe('whole');
    expect(groups[0]!.keep_reason).toBe('longest');
    expect(groups[0]!.keep_message).toMatch(/longest/i);
  });
});
