import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import exifr from 'exifr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heifExif } from '../../src/media/heif-exif.js';
import { readContentCapture } from '../../src/media/capture-info.js';
import { FileAccess } from '../../src/media/file-access.js';
import type { MediaTools } from '../../src/media/binaries.js';
import { makeHeic } from '../support/folder-media.js';
import { exifTiffOf, iphoneExif, u32, withExifPayload } from '../support/heif-layout.js';

const PICK = { pick: ['DateTimeOriginal', 'GPSLatitude', 'GPSLongitude', 'GPSLatitudeRef', 'GPSLongitudeRef'], gps: true };
const tools = { files: FileAccess.unrestricted() } as MediaTools;

describe('the Exif item of a HEIF picture', () => {
  let dir: string;
  /** heif-enc from a JPEG whose EXIF exiftool wrote: libheif's layout (offset 0, a base offset in iloc). */
  let libheif: Buffer;
  /** heif-enc from a PNG, EXIF added to the HEIC by exiftool afterwards. */
  let exiftool: Buffer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vidx-heif-exif-'));
    const exif = { dateTimeOriginal: '2018:05:20 16:45:00', latitude: 38.7223, longitude: -9.1393 };
    await makeHeic(join(dir, 'libheif.heic'), 'TRAM', exif, '320x120', 'libheif');
    await makeHeic(join(dir, 'exiftool.heic'), 'TRAM', exif, '320x120', 'exiftool');
    libheif = readFileSync(join(dir, 'libheif.heic'));
    exiftool = readFileSync(join(dir, 'exiftool.heic'));
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const tagsOf = async (heic: Buffer) => {
    const found = heifExif(heic);
    if (!('tiff' in found)) throw new Error(JSON.stringify(found));
    return exifr.parse(found.tiff, PICK);
  };
  const expectTram = (tags: { DateTimeOriginal: Date; latitude: number; longitude: number }) => {
    expect(tags.DateTimeOriginal.toISOString()).toBe('2018-05-20T16:45:00.000Z');
    expect(tags.latitude).toBeCloseTo(38.7223, 4);
    expect(tags.longitude).toBeCloseTo(-9.1393, 4);
  };

  it('exifr alone cannot read what libheif writes (why this reader exists)', async () => {
    const direct = await exifr.parse(libheif, PICK).catch((e: Error) => ({ errors: [e] }));
    expect(direct?.DateTimeOriginal).toBeUndefined();
  });

  it('reads libheif’s layout: offset 0, the TIFF header right after, placed by a base offset', async () => {
    const tiff = exifTiffOf(libheif);
    expect(['MM\0*', 'II*\0']).toContain(tiff.subarray(0, 4).toString('latin1'));
    expectTram(await tagsOf(libheif));
  });

  it('reads the layout exiftool writes', async () => {
    const tags = await tagsOf(exiftool);
    expect(tags.DateTimeOriginal.toISOString()).toBe('2018-05-20T16:45:00.000Z');
  });

  it('reads an iPhone’s layout: offset 6, Exif\\0\\0, then the TIFF header', async () => {
    expectTram(await tagsOf(withExifPayload(libheif, iphoneExif(exifTiffOf(libheif)))));
  });

  it('reads a block whose offset is wrong but which holds Exif\\0\\0 and a header', async () => {
    const wrong = Buffer.concat([u32(0), Buffer.from('Exif\0\0', 'latin1'), exifTiffOf(libheif)]);
    expectTram(await tagsOf(withExifPayload(libheif, wrong)));
  });

  it('says what is wrong with a broken Exif item, a cut-off file, a huge declared size, bytes that are no HEIF', () => {
    const tiff = exifTiffOf(libheif);
    // An offset that points nowhere and no header anywhere the layouts put one.
    expect(heifExif(withExifPayload(libheif, Buffer.concat([u32(40), Buffer.alloc(60, 0x20), tiff.subarray(4)])))).toEqual({ problem: expect.stringMatching(/no TIFF header where its offset \(40\) says/) });
    expect(heifExif(withExifPayload(libheif, iphoneExif(tiff), { extentOffset: 1_000_000 }))).toEqual({ problem: expect.stringMatching(/past the end of the file/) });
    expect(heifExif(withExifPayload(libheif, iphoneExif(tiff), { length: 0xffff_fff0 }))).toEqual({ problem: expect.stringMatching(/past the end of the file/) });
    expect(heifExif(withExifPayload(libheif, Buffer.from([0, 0])))).toEqual({ problem: expect.stringMatching(/too few/) });
    expect(heifExif(libheif.subarray(0, 200))).toEqual({ problem: expect.stringMatching(/cut off/) });
    expect(heifExif(Buffer.from('not a heif at all, just some text'))).toEqual({ problem: expect.stringMatching(/not a HEIF file/) });
    const meta = libheif.indexOf('meta', 0, 'latin1') - 4;
    const huge = Buffer.from(libheif);
    huge.writeUInt32BE(0x7fff_ffff, meta);
    expect(heifExif(huge)).toEqual({ problem: expect.stringMatching(/meta box declares 2147483647 bytes, past the end/) });
  });

  it('a file without an Exif item has none', async () => {
    // A HEIC straight from a PNG, before exiftool: heif-enc writes no Exif item.
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'color=red:s=64x64', '-frames:v', '1', join(dir, 'bare.png')]);
    execFileSync('heif-enc', ['-q', '50', '-o', join(dir, 'bare.heic'), join(dir, 'bare.png')]);
    expect(heifExif(readFileSync(join(dir, 'bare.heic')))).toEqual({ none: true });
  });

  it('reading the capture: libheif’s and an iPhone’s layout give the date and place; a broken item gives a warning', async () => {
    writeFileSync(join(dir, 'iphone.heic'), withExifPayload(libheif, iphoneExif(exifTiffOf(libheif))));
    writeFileSync(join(dir, 'broken.heic'), withExifPayload(libheif, Buffer.concat([u32(40), Buffer.alloc(60, 0x20), exifTiffOf(libheif).subarray(4)])));
    for (const name of ['libheif.heic', 'iphone.heic']) {
      const c = await readContentCapture(join(dir, name), 'image', tools);
      expect(c).toMatchObject({ capturedAt: '2018-05-20T16:45:00.000Z', source: 'metadata', warning: null });
      expect(c.latitude).toBeCloseTo(38.7223, 4);
    }
    // Formats exifr does not read (WebP, GIF) and pictures without EXIF say nothing: no warning.
    for (const name of ['plain.webp', 'plain.gif', 'plain.jpg']) {
      execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=red:s=64x48', '-frames:v', '1', join(dir, name)]);
      expect(await readContentCapture(join(dir, name), 'image', tools)).toEqual({ capturedAt: null, source: null, latitude: null, longitude: null, warning: null });
    }
    const broken = await readContentCapture(join(dir, 'broken.heic'), 'image', tools);
    expect(broken).toMatchObject({ capturedAt: null, source: null, latitude: null, warning: { key: 'analysis_exif_unreadable', params: { reason: expect.stringMatching(/^the Exif item has no TIFF header/) } } });
  });
});
