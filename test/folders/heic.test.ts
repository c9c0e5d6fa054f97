import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { makeHeic } from '../support/folder-media.js';
import { u32, withExifPayload } from '../support/heif-layout.js';

/** A copy of an HEIC whose `ispe` box (the declared picture size) says 60000 × 60000. */
function withHugeSize(heic: Buffer): Buffer {
  const out = Buffer.from(heic);
  const at = out.indexOf('ispe', 0, 'latin1');
  if (at < 0) throw new Error('no ispe box in the HEIC');
  // After the type: 4 bytes version and flags, then width and height, 32 bits each.
  out.writeUInt32BE(60_000, at + 8);
  out.writeUInt32BE(60_000, at + 12);
  return out;
}

describe('HEIC photos in a bound folder', () => {
  let s: TestServer;
  let base: string;

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'vidx-heic-')));
    const media = join(base, 'media');
    mkdirSync(media);
    await makeHeic(join(media, 'IMG_0001.HEIC'), 'HARBOUR', { dateTimeOriginal: '2018:05:20 16:45:00', latitude: 38.7223, longitude: -9.1393 });
    const bytes = readFileSync(join(media, 'IMG_0001.HEIC'));
    writeFileSync(join(media, 'cut.heic'), bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    writeFileSync(join(media, 'huge.heic'), withHugeSize(bytes));
    copyFileSync(join(media, 'IMG_0001.HEIC'), join(base, 'spare.heic'));
    // libheif's EXIF layout with its TIFF header gone: indexed, with a warning in the scan's result.
    await makeHeic(join(base, 'libheif.heic'), 'TRAM', { dateTimeOriginal: '2018:05:20 16:45:00', latitude: 38.7223, longitude: -9.1393 }, '320x120', 'libheif');
    writeFileSync(join(media, 'broken-exif.heic'), withExifPayload(readFileSync(join(base, 'libheif.heic')), Buffer.concat([u32(40), Buffer.alloc(60, 0x20)])));
    s = await startTestServer({ env: { VIDX_MEDIA_ROOTS: media } });
    await s.call('POST', '/collections', { json: { collection_id: 'roll', name: 'Camera roll' } });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('indexes an HEIC like any photo, and names what it cannot decode', async () => {
    const r = await s.call('POST', '/collections/roll/folders', { json: { path: join(base, 'media'), watch: false } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const t = await waitFor(async () => {
      const task = (await s.call('GET', `/tasks/${r.body.scan_task_id}`)).body;
      return task.status === 'completed' || task.status === 'failed' ? task : undefined;
    }, 180_000, 'scan');
    expect(t.status, t.error?.message).toBe('completed');
    expect(t.result.added).toBe(2);
    expect(t.result.warnings).toEqual([{ path: 'broken-exif.heic', code: 'exif_unreadable', reason: expect.stringMatching(/EXIF block could not be read \(the Exif item has no TIFF header/) }]);
    const failed = [...t.result.failed].sort((a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path));
    expect(failed).toEqual([
      { path: 'cut.heic', reason: expect.stringMatching(/HEIF/), code: 'unsupported_format' },
      { path: 'huge.heic', reason: expect.stringMatching(/60000×60000/), code: 'unsupported_format' },
    ]);

    const all = (await s.call('GET', '/collections/roll/items')).body.items;
    expect(all).toHaveLength(2);
    expect(all.find((i: { title: string }) => i.title === 'broken-exif')).toMatchObject({ captured_at_source: 'file', latitude: null });
    const items = all.filter((i: { title: string }) => i.title === 'IMG_0001');
    expect(items[0]).toMatchObject({ type: 'image', captured_at: '2018-05-20T16:45:00.000Z', captured_at_source: 'metadata' });
    expect(items[0].latitude).toBeCloseTo(38.7223, 3);
    expect(items[0].longitude).toBeCloseTo(-9.1393, 3);
    const thumb = await fetch(items[0].thumbnail_url);
    expect(thumb.status).toBe(200);
    const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 320, 120]);

    const found = await s.call('POST', '/search', { json: { query: 'harbour', collection: 'roll' } });
    expect(found.status).toBe(200);
    expect(found.body.results[0]).toMatchObject({ media_type: 'image', media_id: items[0].media_id });
  }, 300_000);

  it('takes an HEIC as a query picture', async () => {
    const r = await s.call('POST', '/search', { json: { image_path: join(base, 'media', 'IMG_0001.HEIC'), collection: 'roll' } });
    expect(r.status, JSON.stringify(r.body)).not.toBeGreaterThanOrEqual(500);
    const bad = await s.call('POST', '/search', { json: { image_path: join(base, 'media', 'cut.heic'), collection: 'roll' } });
    expect(bad.status).toBe(422);
  });
});
