import { existsSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHeic, makePhoto } from '../support/folder-media.js';
import { exifTiffOf, iphoneExif, u32, withExifPayload } from '../support/heif-layout.js';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';

const LISBON = { dateTimeOriginal: '2018:05:20 16:45:00', latitude: 38.7223, longitude: -9.1393 };

/** A copy of a HEIC whose primary picture (`pitm`) is another of its pictures. */
function withPrimary(heic: Buffer, id: number): Buffer {
  const out = Buffer.from(heic);
  const at = out.indexOf('pitm', 0, 'latin1');
  // After the type: version and flags (4 bytes), then the item id (2 bytes in version 0).
  out.writeUInt16BE(id, at + 8);
  return out;
}

/**
 * Issue 42: HEIC photos keep the date and place libheif and iPhones write, and are shown in browsers
 * (item view, full size, share link) as a JPEG made once from the kept file; the original stays downloadable.
 */
describe('HEIC photos: date, place and a picture browsers show', () => {
  let s: TestServer;
  let libheif: Buffer;

  const upload = async (name: string, bytes: Buffer, mediaId: string) => {
    const fd = new FormData();
    fd.append('body', JSON.stringify({ collection: 'roll', video: { content: name, media_id: mediaId } }));
    fd.append('file', new Blob([new Uint8Array(bytes)]), name);
    const r = await fetch(`${s.url}/index`, { method: 'POST', headers: { 'x-api-key': s.adminKey }, body: fd });
    expect(r.status).toBe(202);
    return settledTask(s, ((await r.json()) as { task_id: string }).task_id);
  };
  const item = async (mediaId: string) => (await s.call('GET', `/collections/roll/items/${mediaId}`)).body;

  beforeAll(async () => {
    s = await startTestServer({ queryEmbedder: null });
    await s.call('POST', '/collections', { json: { collection_id: 'roll', name: 'Camera roll' } });
    await makeHeic(join(s.mediaDir, 'IMG_0001.HEIC'), 'TRAM', LISBON, '320x120', 'libheif');
    libheif = readFileSync(join(s.mediaDir, 'IMG_0001.HEIC'));
    await makePhoto(join(s.mediaDir, 'sign.jpg'), 'SIGN');
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it('keeps the date and place of libheif’s and an iPhone’s EXIF layout', async () => {
    const a = await upload('IMG_0001.HEIC', libheif, 'libheif');
    expect(a.status, a.error?.message).toBe('completed');
    const b = await upload('IMG_0002.HEIC', withExifPayload(libheif, iphoneExif(exifTiffOf(libheif))), 'iphone');
    expect(b.status, b.error?.message).toBe('completed');
    for (const id of ['libheif', 'iphone']) {
      const it = await item(id);
      expect(it).toMatchObject({ type: 'image', captured_at: '2018-05-20T16:45:00.000Z', captured_at_source: 'metadata' });
      expect(it.latitude).toBeCloseTo(38.7223, 3);
      expect(it.place).toMatchObject({ city: 'Lisbon', country_code: 'PT' });
    }
    expect((a.result as { warnings: string[] }).warnings.join(' ')).not.toMatch(/EXIF/);
  });

  it('indexes a photo whose EXIF item is broken, and says so in the task’s warnings', async () => {
    const broken = withExifPayload(libheif, Buffer.concat([u32(40), Buffer.alloc(60, 0x20)]));
    const t = await upload('IMG_0003.HEIC', broken, 'broken-exif');
    expect(t.status, t.error?.message).toBe('completed');
    expect((t.result as { warnings: string[] }).warnings).toContainEqual(expect.stringMatching(/EXIF block could not be read \(the Exif item has no TIFF header where its offset \(40\) says\)/));
    // The same warning for a German reader (exifr's own reason stays as it gave it).
    const german = await s.call('GET', `/tasks/${t.id}`, { headers: { 'accept-language': 'de' } });
    expect(german.body.result.warnings).toContainEqual(expect.stringMatching(/^Der EXIF-Block des Bildes war nicht lesbar \(the Exif item has no TIFF header/));
    expect(await item('broken-exif')).toMatchObject({ captured_at_source: null, latitude: null, place: null });
  });

  it('shows a HEIC as a JPEG made once, on the item, in full size and through a share link; the original stays as it was', async () => {
    const it = await item('libheif');
    expect(it.picture_url).toMatch(/\/files\/collections\/\d+\/libheif\/v-[0-9a-f]{12}\/picture\.jpg\?/);
    // Three at once: one conversion, three answers.
    const answers = await Promise.all([1, 2, 3].map(() => fetch(it.picture_url)));
    const bodies = await Promise.all(answers.map(async (r) => Buffer.from(await r.arrayBuffer())));
    for (const r of answers) {
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('image/jpeg');
    }
    expect(bodies[1]!.equals(bodies[0]!) && bodies[2]!.equals(bodies[0]!)).toBe(true);
    const meta = await sharp(bodies[0]!).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 320, 120]);
    // Dark letters on white: the picture is the photo, not a blank.
    const { dominant } = await sharp(bodies[0]!).stats();
    expect(dominant.r + dominant.g + dominant.b).toBeGreaterThan(600);

    // Kept beside the item's other files, and not made again.
    const kept = join(s.dataDir, new URL(it.picture_url).pathname.slice('/files/'.length));
    const made = statSync(kept).mtimeMs;
    expect((await fetch(it.picture_url)).status).toBe(200);
    expect(statSync(kept).mtimeMs).toBe(made);

    const original = await fetch(it.src);
    expect(original.headers.get('content-type')).toBe('image/heic');
    expect(Buffer.from(await original.arrayBuffer()).equals(libheif)).toBe(true);

    const share = await s.call('POST', '/collections/roll/items/libheif/shares', { json: { days: 1 } });
    expect(share.status, JSON.stringify(share.body)).toBe(201);
    const shared = (await s.call('GET', `/shared/${share.body.url.split('/#/s/')[1]}`, { key: null })).body;
    const picture = await fetch(shared.picture_url);
    expect([picture.status, picture.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    expect((await sharp(Buffer.from(await picture.arrayBuffer())).metadata()).format).toBe('jpeg');
  });

  it('a JPEG is shown as it is', async () => {
    const r = await s.call('POST', '/index', { form: { collection: 'roll', video: { path: join(s.mediaDir, 'sign.jpg'), media_id: 'sign' } } });
    expect((await settledTask(s, r.body.task_id)).status).toBe('completed');
    const it = await item('sign');
    // The very same link, so the page offers no second download of the same file.
    expect(it.picture_url).toBe(it.src);
    expect((await fetch(it.picture_url)).headers.get('content-type')).toBe('image/jpeg');
  });

  it('shows the primary picture of a HEIC with several', async () => {
    const dir = s.mediaDir;
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=green:s=64x64', '-frames:v', '1', join(dir, 'small.png')]);
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=blue:s=200x100', '-frames:v', '1', join(dir, 'wide.png')]);
    execFileSync('heif-enc', ['-q', '60', '-o', join(dir, 'burst.heic'), join(dir, 'small.png'), join(dir, 'wide.png')]);
    // heif-enc makes the first picture primary; the second is made primary here, as an edit would.
    const t = await upload('burst.heic', withPrimary(readFileSync(join(dir, 'burst.heic')), 2), 'burst');
    expect(t.status, t.error?.message).toBe('completed');
    const picture = await fetch((await item('burst')).picture_url);
    const meta = await sharp(Buffer.from(await picture.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([200, 100]);
  });

  it('refuses a cut-off HEIC and one declaring a huge size with a clear reason; a kept file that no longer decodes is a 422, not a 5xx', async () => {
    const cut = await upload('cut.heic', libheif.subarray(0, Math.floor(libheif.length * 0.6)), 'cut');
    expect(cut.status).toBe('failed');
    expect(cut.error).toMatchObject({ code: 'unsupported_format', message: expect.stringMatching(/HEIF/) });
    const huge = Buffer.from(libheif);
    const ispe = huge.indexOf('ispe', 0, 'latin1');
    huge.writeUInt32BE(60_000, ispe + 8);
    huge.writeUInt32BE(60_000, ispe + 12);
    const big = await upload('huge.heic', huge, 'huge');
    expect(big.status).toBe('failed');
    expect(big.error).toMatchObject({ code: 'unsupported_format', message: expect.stringMatching(/60000×60000/) });

    // A photo indexed by its path, cut off on disk afterwards: its picture cannot be made.
    const path = join(s.mediaDir, 'later-cut.heic');
    writeFileSync(path, libheif);
    const r = await s.call('POST', '/index', { form: { collection: 'roll', video: { path, media_id: 'later-cut' } } });
    expect((await settledTask(s, r.body.task_id)).status).toBe('completed');
    writeFileSync(path, libheif.subarray(0, 300));
    const url = (await item('later-cut')).picture_url;
    const answer = await fetch(url);
    expect(answer.status).toBe(422);
    const body = (await answer.json()) as { code: string; detail: string };
    expect(body.code).toBe('unsupported_format');
    expect(body.detail).toMatch(/^the picture cannot be made into one a browser shows: the HEIF picture does not decode \(cut off or damaged\?\)/);
    expect(existsSync(join(s.dataDir, new URL(url).pathname.slice('/files/'.length)))).toBe(false);

    // The original swapped for a link out of the media roots: nothing is read or made, and the link says 404.
    const swapped = join(s.mediaDir, 'swapped.heic');
    writeFileSync(swapped, libheif);
    const r2 = await s.call('POST', '/index', { form: { collection: 'roll', video: { path: swapped, media_id: 'swapped' } } });
    expect((await settledTask(s, r2.body.task_id)).status).toBe('completed');
    rmSync(swapped);
    symlinkSync(join(s.dataDir, 'vidx.db'), swapped);
    const gone = await fetch((await item('swapped')).picture_url);
    expect(gone.status).toBe(404);
  });
});
